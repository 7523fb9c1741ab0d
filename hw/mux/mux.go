// Package mux drives PCA9548A I2C multiplexers that share one upstream bus, so each PN532 (all at
// 0x24) gets a bus of its own.
//
// A PCA9548A connects the upstream bus to every channel whose bit is set in its control register
// (NXP PCA9548A data sheet, "Control register"; any combination may be on) and keeps that register
// until it is written again. periph's devices/pca9548 only ever writes its own multiplexer: with
// several multiplexers on one bus, the channel last selected on the first stays connected while a
// channel of the second is selected, and two PN532s answer at 0x24 at once. A Group therefore
// keeps at most one channel of one multiplexer connected: before it selects a channel it switches
// off every other multiplexer of the bus whose register is not known to be zero.
package mux

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"
)

// Ports is the number of channels on a PCA9548A.
const Ports = 8

// unknown marks a control register whose content is not known (a write that failed part-way).
const unknown = -1

// Group is the multiplexers on one upstream bus.
type Group struct {
	bus   i2c.Bus
	mu    sync.Mutex
	muxes []*Mux
	buf   [1]byte
}

// NewGroup returns an empty group on b.
func NewGroup(b i2c.Bus) *Group { return &Group{bus: b} }

// Mux is one PCA9548A of a group.
type Mux struct {
	g     *Group
	addr  uint16
	state int // the control register as last written, or unknown
	ports [Ports]*port
}

// Open probes the multiplexer at addr (0x70..0x77) by reading its control register and switches
// off any channel it finds on (left on by an earlier process: it would collide with the others).
func (g *Group) Open(addr uint16) (*Mux, error) {
	if addr < 0x70 || addr > 0x77 {
		return nil, fmt.Errorf("mux: address %#02x is outside the PCA9548A range 0x70-0x77", addr)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, o := range g.muxes {
		if o.addr == addr {
			return nil, fmt.Errorf("mux: %#02x opened twice on %s", addr, g.bus)
		}
	}
	m := &Mux{g: g, addr: addr}
	if err := g.bus.Tx(addr, nil, g.buf[:]); err != nil {
		return nil, fmt.Errorf("mux: pca9548 %#02x: %w", addr, err)
	}
	m.state = int(g.buf[0])
	if m.state != 0 {
		if err := g.write(m, 0); err != nil {
			return nil, fmt.Errorf("mux: switching off pca9548 %#02x: %w", addr, err)
		}
	}
	for i := range m.ports {
		m.ports[i] = &port{m: m, ch: uint8(i)}
	}
	g.muxes = append(g.muxes, m)
	return m, nil
}

// Port returns channel n (0..7) as an i2c.Bus; selecting it happens on its first Tx.
func (m *Mux) Port(n int) (i2c.Bus, error) {
	if n < 0 || n >= Ports {
		return nil, fmt.Errorf("mux: no port %d on %s", n, m)
	}
	return m.ports[n], nil
}

// String names the multiplexer, e.g. "pca9548-70".
func (m *Mux) String() string { return fmt.Sprintf("pca9548-%x", m.addr) }

// Close switches the multiplexer's channels off and removes it from its group.
func (m *Mux) Close() error {
	g := m.g
	g.mu.Lock()
	defer g.mu.Unlock()
	i := slices.Index(g.muxes, m)
	if i < 0 {
		return nil
	}
	g.muxes = slices.Delete(g.muxes, i, i+1)
	if m.state == 0 {
		return nil
	}
	if err := g.write(m, 0); err != nil {
		return fmt.Errorf("mux: switching off %s: %w", m, err)
	}
	return nil
}

// tx connects channel ch of m, and only it, then runs one transaction on it.
func (g *Group) tx(m *Mux, ch uint8, addr uint16, w, r []byte) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !slices.Contains(g.muxes, m) {
		return fmt.Errorf("mux: %s is closed", m)
	}
	for _, o := range g.muxes {
		if o.addr == addr {
			return fmt.Errorf("mux: address %#02x is the multiplexer %s itself", addr, o)
		}
		if o != m && o.state != 0 {
			if err := g.write(o, 0); err != nil {
				return fmt.Errorf("mux: switching off %s: %w", o, err)
			}
		}
	}
	if want := 1 << ch; m.state != want {
		if err := g.write(m, byte(want)); err != nil {
			return fmt.Errorf("mux: selecting %s port %d: %w", m, ch, err)
		}
	}
	return g.bus.Tx(addr, w, r)
}

// write sets a control register; after a failure its content is unknown.
func (g *Group) write(m *Mux, v byte) error {
	g.buf[0] = v
	if err := g.bus.Tx(m.addr, g.buf[:], nil); err != nil {
		m.state = unknown
		return err
	}
	m.state = int(v)
	return nil
}

// port is one channel as an i2c.Bus.
type port struct {
	m  *Mux
	ch uint8
}

func (p *port) String() string { return fmt.Sprintf("%s.%d", p.m, p.ch) }

func (p *port) Tx(addr uint16, w, r []byte) error { return p.m.g.tx(p.m, p.ch, addr, w, r) }

// SetSpeed refuses: a channel runs at the upstream bus's speed.
func (p *port) SetSpeed(physic.Frequency) error {
	return errors.New("mux: a channel runs at the upstream bus's speed; set it there")
}

var _ i2c.Bus = (*port)(nil)
