package simhw

import (
	"sync"
	"time"

	"periph.io/x/conn/v3/gpio"
)

// MFRC522IRQ is the MFRC522's IRQ output as the host's GPIO sees it: WaitForEdge reports a
// falling edge latched since the last wait. Time is compressed: when the chip has sent a frame
// nobody answered, no edge can come before the host acts again, so a pending wait returns false
// at once instead of sitting out its timeout. One such "nothing coming" is kept for one wait,
// so the wait of each read is answered by that read's own poll.
type MFRC522IRQ struct {
	pinBase
	mu      sync.Mutex
	cond    *sync.Cond
	high    bool
	edge    bool // a falling edge since the last wait
	nothing bool // a frame went unanswered since the last wait
	cut     bool
}

func newMFRC522IRQ(name string) *MFRC522IRQ {
	p := &MFRC522IRQ{pinBase: pinBase{name: name}, high: true}
	p.cond = sync.NewCond(&p.mu)
	return p
}

// set drives the pin; high to low latches an edge.
func (p *MFRC522IRQ) set(high bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.high && !high && !p.cut {
		p.edge = true
		p.cond.Broadcast()
	}
	p.high = high
}

func (p *MFRC522IRQ) nothingComing() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.nothing = true
	p.cond.Broadcast()
}

// Read returns the pin's level.
func (p *MFRC522IRQ) Read() gpio.Level {
	p.mu.Lock()
	defer p.mu.Unlock()
	return gpio.Level(p.high || p.cut)
}

// WaitForEdge waits for a falling edge: true if one came (or was latched), false after timeout
// or once the chip's last frame went unanswered. A zero timeout only clears the latch.
func (p *MFRC522IRQ) WaitForEdge(timeout time.Duration) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if timeout == 0 {
		e := p.edge
		p.edge, p.nothing = false, false
		return e
	}
	expired := false
	if timeout > 0 {
		t := time.AfterFunc(timeout, func() {
			p.mu.Lock()
			expired = true
			p.cond.Broadcast()
			p.mu.Unlock()
		})
		defer t.Stop()
	}
	for {
		switch {
		case p.edge:
			p.edge, p.nothing = false, false
			return true
		case p.nothing || expired:
			p.nothing = false
			return false
		}
		p.cond.Wait()
	}
}

// MFRC522Reset is NRSTPD: low powers the chip down, the rising edge resets it (§8.8.1).
type MFRC522Reset struct {
	pinBase
	m *MFRC522
}

// Out drives NRSTPD.
func (p *MFRC522Reset) Out(l gpio.Level) error {
	m := p.m
	m.mu.Lock()
	defer m.mu.Unlock()
	if bool(l) && !m.powered {
		m.reset()
	}
	m.powered = bool(l)
	return nil
}

var (
	_ gpio.PinIO = (*MFRC522IRQ)(nil)
	_ gpio.PinIO = (*MFRC522Reset)(nil)
)
