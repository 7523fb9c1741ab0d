package mux

import (
	"testing"

	"periph.io/x/conn/v3/i2c/i2ctest"
)

func TestPortSwitching(t *testing.T) {
	bus := &i2ctest.Playback{DontPanic: true, Ops: []i2ctest.IO{
		{Addr: 0x70, R: []byte{0}},      // pca9548.New probes the control register
		{Addr: 0x70, W: []byte{1 << 0}}, // select port 0
		{Addr: 0x24, W: []byte{0xAA}},   // to the device on port 0
		{Addr: 0x24, W: []byte{0xAB}},   // same port: no reselect
		{Addr: 0x70, W: []byte{1 << 5}}, // select port 5
		{Addr: 0x24, R: []byte{0x01}},   // from the device on port 5
		{Addr: 0x70, W: []byte{1 << 0}}, // back to port 0
		{Addr: 0x24, W: []byte{0xAC}},
	}}
	m, err := Open(bus, 0x70, t.Name()+"-")
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
	must(t, bus.Close())
	// Closing unregistered the names: the same alias opens again.
	bus2 := &i2ctest.Playback{DontPanic: true, Ops: []i2ctest.IO{{Addr: 0x70, R: []byte{0}}}}
	m2, err := Open(bus2, 0x70, t.Name()+"-")
	if err != nil {
		t.Fatal(err)
	}
	must(t, m2.Close())
}

func TestAbsentMux(t *testing.T) {
	bus := &i2ctest.Playback{DontPanic: true}
	if _, err := Open(bus, 0x71, t.Name()); err == nil {
		t.Fatal("Open of an absent mux succeeded")
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
