package mux

import (
	"errors"
	"testing"

	"periph.io/x/conn/v3/i2c/i2ctest"
)

func TestPortSwitching(t *testing.T) {
	bus := &i2ctest.Playback{DontPanic: true, Ops: []i2ctest.IO{
		{Addr: 0x70, R: []byte{0}},      // Open reads the control register: all channels off
		{Addr: 0x70, W: []byte{1 << 0}}, // select port 0
		{Addr: 0x24, W: []byte{0xAA}},   // to the device on port 0
		{Addr: 0x24, W: []byte{0xAB}},   // same port: no reselect
		{Addr: 0x70, W: []byte{1 << 5}}, // select port 5
		{Addr: 0x24, R: []byte{0x01}},   // from the device on port 5
		{Addr: 0x70, W: []byte{1 << 0}}, // back to port 0
		{Addr: 0x24, W: []byte{0xAC}},
		{Addr: 0x70, W: []byte{0}}, // Close switches the channels off
	}}
	m, err := NewGroup(bus).Open(0x70)
	if err != nil {
		t.Fatal(err)
	}
	p0, _ := m.Port(0)
	p5, _ := m.Port(5)
	must(t, p0.Tx(0x24, []byte{0xAA}, nil))
	must(t, p0.Tx(0x24, []byte{0xAB}, nil))
	must(t, p5.Tx(0x24, nil, make([]byte, 1)))
	must(t, p0.Tx(0x24, []byte{0xAC}, nil))
	if _, err := m.Port(8); err == nil {
		t.Fatal("port 8 accepted")
	}
	must(t, m.Close())
	if err := p0.Tx(0x24, []byte{1}, nil); err == nil {
		t.Fatal("a port of a closed mux still talks")
	}
	must(t, bus.Close())
}

// TestOneChannelOfOneMuxAtATime: with two multiplexers on one bus, selecting a channel of the
// second switches the first off, or two PN532s at 0x24 would answer together.
func TestOneChannelOfOneMuxAtATime(t *testing.T) {
	bus := &i2ctest.Playback{DontPanic: true, Ops: []i2ctest.IO{
		{Addr: 0x70, R: []byte{0}},
		{Addr: 0x71, R: []byte{1 << 3}}, // left on by an earlier process
		{Addr: 0x71, W: []byte{0}},      // so Open switches it off
		{Addr: 0x70, W: []byte{1 << 7}},
		{Addr: 0x24, W: []byte{1}},
		{Addr: 0x70, W: []byte{0}}, // 0x70 off before 0x71 goes on
		{Addr: 0x71, W: []byte{1 << 0}},
		{Addr: 0x24, W: []byte{2}},
		{Addr: 0x71, W: []byte{0}},
		{Addr: 0x70, W: []byte{1 << 7}},
		{Addr: 0x24, W: []byte{3}},
	}}
	g := NewGroup(bus)
	a, err := g.Open(0x70)
	must(t, err)
	b, err := g.Open(0x71)
	must(t, err)
	a7, _ := a.Port(7)
	b0, _ := b.Port(0)
	must(t, a7.Tx(0x24, []byte{1}, nil))
	must(t, b0.Tx(0x24, []byte{2}, nil))
	must(t, a7.Tx(0x24, []byte{3}, nil))
	must(t, bus.Close())
}

// failing fails the listed transactions (counting from 1) after they reached the device, as a
// NACK on a data byte does: the register's content is then unknown.
type failing struct {
	*i2ctest.Playback
	fail map[int]bool
	seen int
}

func (f *failing) Tx(addr uint16, w, r []byte) error {
	f.seen++
	err := f.Playback.Tx(addr, w, r)
	if f.fail[f.seen] {
		return errors.New("i2c: remote I/O error")
	}
	return err
}

// TestFailedSelectLeavesTheMuxUnknown: after a select that failed, the register is unknown, so
// it is switched off before another multiplexer's channel is used, and written again when its
// own channel is used next.
func TestFailedSelectLeavesTheMuxUnknown(t *testing.T) {
	pb := &i2ctest.Playback{DontPanic: true, Ops: []i2ctest.IO{
		{Addr: 0x70, R: []byte{0}},
		{Addr: 0x71, R: []byte{0}},
		{Addr: 0x70, W: []byte{1 << 2}}, // fails
		{Addr: 0x70, W: []byte{0}},      // unknown: switched off before 0x71 is used
		{Addr: 0x71, W: []byte{1 << 1}},
		{Addr: 0x24, W: []byte{2}},
		{Addr: 0x71, W: []byte{0}},
		{Addr: 0x70, W: []byte{1 << 2}},
		{Addr: 0x24, W: []byte{1}},
	}}
	bus := &failing{Playback: pb, fail: map[int]bool{3: true}}
	g := NewGroup(bus)
	a, _ := g.Open(0x70)
	b, _ := g.Open(0x71)
	a2, _ := a.Port(2)
	b1, _ := b.Port(1)
	if err := a2.Tx(0x24, []byte{1}, nil); err == nil {
		t.Fatal("a failed select was not reported")
	}
	must(t, b1.Tx(0x24, []byte{2}, nil))
	must(t, a2.Tx(0x24, []byte{1}, nil))
	must(t, pb.Close())
}

func TestOpenChecks(t *testing.T) {
	bus := &i2ctest.Playback{DontPanic: true, Ops: []i2ctest.IO{{Addr: 0x70, R: []byte{0}}}}
	g := NewGroup(bus)
	if _, err := g.Open(0x71); err == nil {
		t.Fatal("Open of an absent mux succeeded")
	}
	if _, err := g.Open(0x69); err == nil {
		t.Fatal("address 0x69 accepted")
	}
	m, err := g.Open(0x70)
	must(t, err)
	if _, err := g.Open(0x70); err == nil {
		t.Fatal("the same mux opened twice")
	}
	p, _ := m.Port(1)
	if err := p.Tx(0x70, nil, make([]byte, 1)); err == nil {
		t.Fatal("a transaction to the mux's own address through its port was allowed")
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
