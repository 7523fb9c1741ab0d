package hwtest

import (
	"sync"
	"time"

	"periph.io/x/conn/v3"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
)

// MFRC522 fakes the register interface of an MFRC522 on SPI (datasheet §8.1.2: address byte
// (reg<<1) with bit 7 set for a read, then data), enough for periph's driver to initialise the
// chip and wait for a card. No card ever answers: the IRQ pin never strobes, which periph's
// driver reports as a timeout. Set Fail to make every transfer fail (an unplugged reader).
type MFRC522 struct {
	mu   sync.Mutex
	regs [64]byte
	Fail error
	// IRQ is the interrupt pin to give the driver.
	IRQ *IRQPin
	// Writes counts register writes, to check the driver really talked to the chip.
	Writes int
	// Latency is how long each transfer takes: a bus slowed down, or a machine under load.
	Latency time.Duration
}

// NewMFRC522 returns a fake reader with its registers at their reset values.
func NewMFRC522() *MFRC522 {
	m := &MFRC522{IRQ: &IRQPin{pinBase: pinBase{name: "IRQ"}}}
	m.reset()
	return m
}

func (m *MFRC522) reset() {
	m.regs = [64]byte{}
	m.regs[0x14] = 0x80 // TxControlReg reset value: antenna drivers off
	m.regs[0x37] = 0x92 // VersionReg: MFRC522 v2.0
}

// String implements spi.Port and conn.Conn.
func (m *MFRC522) String() string { return "mfrc522-fake" }

// Connect implements spi.Port.
func (m *MFRC522) Connect(physic.Frequency, spi.Mode, int) (spi.Conn, error) { return m, nil }

// LimitSpeed implements spi.PortCloser.
func (m *MFRC522) LimitSpeed(physic.Frequency) error { return nil }

// Close implements spi.PortCloser.
func (m *MFRC522) Close() error { return nil }

// Duplex implements conn.Conn.
func (m *MFRC522) Duplex() conn.Duplex { return conn.Full }

// TxPackets implements spi.Conn.
func (m *MFRC522) TxPackets(ps []spi.Packet) error {
	for _, p := range ps {
		if err := m.Tx(p.W, p.R); err != nil {
			return err
		}
	}
	return nil
}

// Tx reads or writes one register.
func (m *MFRC522) Tx(w, r []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	time.Sleep(m.Latency)
	if m.Fail != nil {
		return m.Fail
	}
	if len(w) < 2 {
		return nil
	}
	reg := (w[0] >> 1) & 0x3F
	if w[0]&0x80 != 0 {
		if len(r) >= 2 {
			r[1] = m.regs[reg]
		}
		return nil
	}
	m.Writes++
	if reg == 0x01 && w[1]&0x0F == 0x0F { // CommandReg <- SoftReset
		m.reset()
		return nil
	}
	m.regs[reg] = w[1]
	return nil
}

// IRQPin is the MFRC522's IRQ output: it never strobes (no card).
type IRQPin struct{ pinBase }

// WaitForEdge reports no edge at once.
func (p *IRQPin) WaitForEdge(time.Duration) bool { return false }

// Read reports the idle (high) level.
func (p *IRQPin) Read() gpio.Level { return gpio.High }

var (
	_ spi.PortCloser = (*MFRC522)(nil)
	_ spi.Conn       = (*MFRC522)(nil)
	_ gpio.PinIO     = (*IRQPin)(nil)
)

// OutPin is a plain output pin (a reset line).
type OutPin struct{ pinBase }

// NewOutPin returns an output pin named name.
func NewOutPin(name string) *OutPin { return &OutPin{pinBase{name: name}} }
