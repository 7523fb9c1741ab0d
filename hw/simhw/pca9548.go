package simhw

import (
	"fmt"
	"sync/atomic"
)

// PCA9548 emulates an NXP PCA9548A 8-channel I2C switch (data sheet "Device addressing" and
// "Control register"): it answers at 0x70 + A2A1A0; the byte written after its address becomes
// the control register (of several bytes, the last one), bit n connects channel n to the
// upstream bus and any combination may be on; a read returns the register. At power-on no
// channel is connected. Only devices on connected channels see traffic.
type PCA9548 struct {
	addr    uint16
	reg     byte // guarded by the bus's lock, like every device's state
	ch      [8]Segment
	removed atomic.Bool
}

// NewPCA9548 returns a switch at addr, 0x70 to 0x77.
func NewPCA9548(addr uint16) (*PCA9548, error) {
	if addr < 0x70 || addr > 0x77 {
		return nil, fmt.Errorf("simhw: a PCA9548A answers 0x70-0x77, not %#02x", addr)
	}
	return &PCA9548{addr: addr}, nil
}

// Channel returns channel n (0-7) to attach devices to.
func (m *PCA9548) Channel(n int) *Segment { return &m.ch[n] }

// Addr implements Device.
func (m *PCA9548) Addr() uint16 { return m.addr }

// Acks implements Device.
func (m *PCA9548) Acks() bool { return !m.removed.Load() }

// Unplug takes the switch off the bus (true) or puts it back.
func (m *PCA9548) Unplug(off bool) { m.removed.Store(off) }

// Tx implements Device.
func (m *PCA9548) Tx(w, r []byte) error {
	if len(w) > 0 {
		m.reg = w[len(w)-1]
	}
	for i := range r {
		r[i] = m.reg
	}
	return nil
}

func (m *PCA9548) String() string { return fmt.Sprintf("pca9548-%x", m.addr) }

var _ Device = (*PCA9548)(nil)
