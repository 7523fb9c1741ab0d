package simhw

import (
	"errors"
	"fmt"
	"math/bits"
	"sync"
	"sync/atomic"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"
)

// Errors a bus returns, for errors.Is.
var (
	// ErrNoAck: no device acknowledged the address (nothing there, unplugged, or a glitch).
	ErrNoAck = errors.New("simhw: address not acknowledged")
	// ErrIO: the transaction failed after the address was acknowledged (a NACK on a data byte,
	// a glitch on the wires); the device may have seen part or all of it.
	ErrIO = errors.New("simhw: I/O error")
)

// Device is a chip on an I2C bus segment.
type Device interface {
	// Addr is the 7-bit address the device answers.
	Addr() uint16
	// Acks reports whether the device acknowledges its address now (false: unplugged).
	Acks() bool
	// Tx is one transaction addressed to the device: w written, then r read.
	Tx(w, r []byte) error
	String() string
}

// Glitch is what goes wrong with one transaction.
type Glitch uint8

// Glitches a bus can inject.
const (
	NoGlitch Glitch = iota
	// AddrNACK: the address byte is not acknowledged; the device sees nothing.
	AddrNACK
	// DataError: the device takes the whole transaction, but the host gets an error.
	DataError
)

// Segment is a stretch of bus wire: the bus itself or one channel of a multiplexer.
type Segment struct {
	devs  []Device
	muxes []*PCA9548 // the multiplexers among devs, whose connected channels extend the wire
}

// Attach connects d to the segment.
func (s *Segment) Attach(d Device) {
	s.devs = append(s.devs, d)
	if m, ok := d.(*PCA9548); ok {
		s.muxes = append(s.muxes, m)
	}
}

// find appends the devices that acknowledge addr on s and on every connected channel below it.
func (s *Segment) find(addr uint16, out []Device) []Device {
	for _, d := range s.devs {
		if d.Addr() == addr && d.Acks() {
			out = append(out, d)
		}
	}
	for _, m := range s.muxes {
		if !m.Acks() {
			continue
		}
		for reg := m.reg; reg != 0; reg &= reg - 1 {
			out = m.ch[bits.TrailingZeros8(reg)].find(addr, out)
		}
	}
	return out
}

// Bus is an emulated I2C bus: the Pi's I2C controller and the wire to the chips.
type Bus struct {
	name string
	log  *Log

	mu     sync.Mutex
	root   Segment
	glitch func() Glitch
	speed  physic.Frequency
	found  []Device
	tmp    []byte
	txs    int64
}

// NewBus returns an empty bus; violations go to log.
func NewBus(name string, log *Log) *Bus {
	return &Bus{name: name, log: log, speed: 100 * physic.KiloHertz}
}

// Attach connects d to the bus wire (a multiplexer, or a chip with no multiplexer).
func (b *Bus) Attach(d Device) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.root.Attach(d)
}

// SetGlitch installs f, asked once per transaction what goes wrong with it (nil: nothing).
func (b *Bus) SetGlitch(f func() Glitch) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.glitch = f
}

// Transactions is how many transactions the bus has carried.
func (b *Bus) Transactions() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.txs
}

// String implements i2c.Bus.
func (b *Bus) String() string { return "simhw-i2c-" + b.name }

// SetSpeed implements i2c.Bus. PCA9548A and PN532 take up to 400 kHz (fast mode).
func (b *Bus) SetSpeed(f physic.Frequency) error {
	if f <= 0 || f > 400*physic.KiloHertz {
		return fmt.Errorf("simhw: %s: %v is outside the chips' 0-400 kHz", b, f)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.speed = f
	return nil
}

// Tx implements i2c.Bus: one transaction, START, address, w, repeated START, r, STOP. Every
// device that acknowledges the address takes part: several at once is a violation, and as on a
// real open-drain bus their writes all land and their reads are ANDed together.
func (b *Bus) Tx(addr uint16, w, r []byte) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.txs++
	if addr > 0x7F {
		return fmt.Errorf("simhw: %s: %#x is not a 7-bit address", b, addr)
	}
	g := NoGlitch
	if b.glitch != nil {
		g = b.glitch()
	}
	found := b.root.find(addr, b.found[:0])
	b.found = found[:0]
	switch {
	case len(found) == 0:
		return fmt.Errorf("%w: %#02x on %s", ErrNoAck, addr, b)
	case g == AddrNACK:
		return fmt.Errorf("%w: %#02x on %s (a glitch)", ErrNoAck, addr, b)
	}
	var err error
	if len(found) == 1 {
		err = found[0].Tx(w, r)
	} else {
		err = b.collide(found, w, r)
	}
	if err == nil && g == DataError {
		err = fmt.Errorf("%w: %#02x on %s (a glitch)", ErrIO, addr, b)
	}
	return err
}

// collide runs a transaction that several devices acknowledge.
func (b *Bus) collide(found []Device, w, r []byte) error {
	names := make([]string, len(found))
	for i, d := range found {
		names[i] = d.String()
	}
	b.log.Addf(b.String(), "%d devices answer %#02x at once: %v", len(found), found[0].Addr(), names)
	if cap(b.tmp) < len(r) {
		b.tmp = make([]byte, len(r))
	}
	tmp := b.tmp[:len(r)]
	for i := range r {
		r[i] = 0xFF
	}
	var errs []error
	for _, d := range found {
		clear(tmp)
		errs = append(errs, d.Tx(w, tmp))
		for i := range r {
			r[i] &= tmp[i]
		}
	}
	return errors.Join(errs...)
}

// Open returns a handle on the bus for a driver; closing it leaves the bus to other handles.
func (b *Bus) Open() i2c.BusCloser { return &busHandle{Bus: b} }

type busHandle struct {
	*Bus
	closed atomic.Bool
}

func (h *busHandle) Tx(addr uint16, w, r []byte) error {
	if h.closed.Load() {
		return fmt.Errorf("simhw: %s: handle is closed", h.Bus)
	}
	return h.Bus.Tx(addr, w, r)
}

func (h *busHandle) Close() error {
	if h.closed.Swap(true) {
		return fmt.Errorf("simhw: %s: closed twice", h.Bus)
	}
	return nil
}

var (
	_ i2c.Bus       = (*Bus)(nil)
	_ i2c.BusCloser = (*busHandle)(nil)
)
