package build

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/siamesetable/siamesed/hw/config"
	"github.com/siamesetable/siamesed/hw/pn532"
	"github.com/siamesetable/siamesed/hw/rack"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/devices/v3/mfrc522"
)

func (r *Rig) buildMFRC522(h Host, en rack.Enrolment, cals config.Calibrations) error {
	for _, cr := range r.Profile.Racks {
		sc, err := r.cells(h, cr, cals)
		if err != nil {
			return err
		}
		sc.Enrolled = en
		counts := map[rack.Zone]int{}
		for _, rd := range cr.Readers {
			name := fmt.Sprintf("%s-%02d@%s", rd.Zone, counts[rd.Zone], rd.SPI)
			counts[rd.Zone]++
			port, err := h.OpenSPI(rd.SPI)
			if err != nil {
				return fmt.Errorf("build: rack %s: SPI %q: %w", cr.Name, rd.SPI, err)
			}
			r.closers = append(r.closers, port)
			reset, err := h.Pin(rd.Reset)
			if err != nil {
				return fmt.Errorf("build: rack %s: reset pin: %w", cr.Name, err)
			}
			irq, err := h.Pin(rd.IRQ)
			if err != nil {
				return fmt.Errorf("build: rack %s: irq pin: %w", cr.Name, err)
			}
			// A reader that fails now stays in its slot: its zone reports the fault on every
			// scan (its tiles must not silently vanish), and it is retried each scan.
			mr := &mfrcReader{port: port, reset: reset, irq: &irqWatch{PinIO: irq}, timeout: 30 * time.Millisecond}
			info := ReaderInfo{Rack: cr.Name, Zone: string(rd.Zone), Slot: name}
			if err := mr.init(); err != nil {
				info.Err = err
			} else {
				info.Firmware = "mfrc522"
			}
			r.Readers = append(r.Readers, info)
			sl := rack.Slot{Name: name, Zone: rd.Zone, Reader: mr}
			sc.Slots = append(sc.Slots, sl)
			r.TagReaders = append(r.TagReaders, Slot{Rack: cr.Name, Slot: sl})
		}
		r.Sources = append(r.Sources, sc)
	}
	return nil
}

// mfrcReader adapts periph's MFRC522 driver. The driver waits for the IRQ edge and reports "no
// card" only as an error it builds from text; irqWatch tells that case apart by watching the pin
// itself, so any other error is a real fault. A reader that never raises its IRQ still looks like
// an empty slot (a known limit of this profile; the load cell catches tiles it misses).
type mfrcReader struct {
	port    spi.Port
	reset   gpio.PinOut
	irq     *irqWatch
	timeout time.Duration

	mu  sync.Mutex
	dev *mfrc522.Dev // nil until the chip answers
}

// init (re)starts the chip.
func (m *mfrcReader) init() error {
	dev, err := mfrc522.NewSPI(m.port, m.reset, m.irq, mfrc522.WithSync())
	if err != nil {
		return fmt.Errorf("build: mfrc522 init: %w", err)
	}
	m.mu.Lock()
	m.dev = dev
	m.mu.Unlock()
	return nil
}

// ReadTags reads the one tag a slot holds, if any.
func (m *mfrcReader) ReadTags() ([]string, error) {
	m.mu.Lock()
	dev := m.dev
	m.mu.Unlock()
	if dev == nil {
		if err := m.init(); err != nil {
			return nil, err
		}
		m.mu.Lock()
		dev = m.dev
		m.mu.Unlock()
	}
	m.irq.timedOut.Store(false)
	uid, err := dev.ReadUID(m.timeout)
	switch {
	case err == nil:
		return []string{pn532.FormatUID(uid)}, nil
	case m.irq.timedOut.Load() && strings.Contains(err.Error(), noCardText):
		return nil, nil // no card raised the IRQ: the slot is empty
	}
	m.mu.Lock()
	m.dev = nil // start the chip again on the next scan
	m.mu.Unlock()
	return nil, fmt.Errorf("build: mfrc522: %w", err)
}

// noCardText is how periph's driver (v3.7.4) says no IRQ came. The driver waits for the IRQ
// while it starts the chip, so a transfer that fails slowly can end after the wait timed out:
// only the driver's own timeout, not any error once the wait timed out, means an empty slot.
const noCardText = "timeout waiting for IRQ edge"

// irqWatch is the IRQ pin as the driver sees it, remembering whether its last wait for an edge
// timed out.
type irqWatch struct {
	gpio.PinIO
	timedOut atomic.Bool
}

// WaitForEdge implements gpio.PinIn.
func (p *irqWatch) WaitForEdge(timeout time.Duration) bool {
	ok := p.PinIO.WaitForEdge(timeout)
	if !ok {
		p.timedOut.Store(true)
	}
	return ok
}
