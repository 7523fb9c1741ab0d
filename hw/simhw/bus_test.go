package simhw

import (
	"errors"
	"testing"

	"periph.io/x/conn/v3/i2c/i2creg"
	"periph.io/x/devices/v3/pca9548"
)

// probe is a device that remembers what it was sent and answers a fixed byte.
type probe struct {
	addr uint16
	name string
	got  [][]byte
	ans  byte
}

func (p *probe) Addr() uint16   { return p.addr }
func (p *probe) Acks() bool     { return true }
func (p *probe) String() string { return p.name }
func (p *probe) Tx(w, r []byte) error {
	if len(w) > 0 {
		p.got = append(p.got, append([]byte(nil), w...))
	}
	for i := range r {
		r[i] = p.ans
	}
	return nil
}

// TestPCA9548Routing: only devices on connected channels see traffic; the control register
// keeps the last byte written and reads back (PCA9548A data sheet, "Control register").
func TestPCA9548Routing(t *testing.T) {
	log := &Log{}
	bus := NewBus("t", log)
	m, err := NewPCA9548(0x70)
	if err != nil {
		t.Fatal(err)
	}
	bus.Attach(m)
	a, b := &probe{addr: 0x24, name: "a", ans: 0xA0}, &probe{addr: 0x24, name: "b", ans: 0x0B}
	m.Channel(0).Attach(a)
	m.Channel(5).Attach(b)
	if err := bus.Tx(0x24, []byte{1}, nil); !errors.Is(err, ErrNoAck) {
		t.Fatalf("with no channel on: %v, want ErrNoAck", err)
	}
	must(t, bus.Tx(0x70, []byte{0xFF, 1 << 5}, nil)) // the last byte counts
	r := make([]byte, 2)
	must(t, bus.Tx(0x70, nil, r))
	if r[0] != 1<<5 {
		t.Fatalf("control register reads %02X", r[0])
	}
	must(t, bus.Tx(0x24, []byte{7}, r))
	if len(a.got) != 0 || len(b.got) != 1 || r[0] != 0x0B {
		t.Fatalf("a got %v, b got %v, read %02X", a.got, b.got, r[0])
	}
	if err := log.Err(); err != nil {
		t.Fatal(err)
	}
	if _, err := NewPCA9548(0x69); err == nil {
		t.Fatal("a PCA9548A at 0x69")
	}
}

// TestTwoDevicesAtOneAddress: two channels on at once put two 0x24s on the bus: a violation;
// both take the write, and a read is the AND of both answers, as on an open-drain bus.
func TestTwoDevicesAtOneAddress(t *testing.T) {
	log := &Log{}
	bus := NewBus("t", log)
	m, _ := NewPCA9548(0x70)
	bus.Attach(m)
	a, b := &probe{addr: 0x24, name: "a", ans: 0xF1}, &probe{addr: 0x24, name: "b", ans: 0x1F}
	m.Channel(0).Attach(a)
	m.Channel(1).Attach(b)
	must(t, bus.Tx(0x70, []byte{0x03}, nil))
	r := make([]byte, 1)
	must(t, bus.Tx(0x24, []byte{9}, r))
	if r[0] != 0x11 || len(a.got) != 1 || len(b.got) != 1 || log.Len() != 1 {
		t.Fatalf("read %02X, a %v, b %v, %d violations", r[0], a.got, b.got, log.Len())
	}
}

// TestPeriphPCA9548LeavesTwoChannelsOn is why hw/mux does not use periph's pca9548: with two
// switches on one bus, it selects a channel of the second without switching the first off, and
// the emulated bus sees two devices answer 0x24.
func TestPeriphPCA9548LeavesTwoChannelsOn(t *testing.T) {
	log := &Log{}
	bus := NewBus("periph-demo", log)
	var ports [2]string
	for i, addr := range []uint16{0x70, 0x71} {
		m, _ := NewPCA9548(addr)
		bus.Attach(m)
		m.Channel(i).Attach(&probe{addr: 0x24, name: m.String() + "-reader"})
		d, err := pca9548.New(bus, &pca9548.Opts{Addr: int(addr)})
		if err != nil {
			t.Fatal(err)
		}
		names, err := d.RegisterPorts(t.Name() + m.String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			for _, n := range names {
				i2creg.Unregister(n)
			}
		})
		ports[i] = t.Name() + m.String() + string(rune('0'+i))
	}
	for _, name := range ports {
		p, err := i2creg.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Tx(0x24, []byte{1}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if log.Len() != 1 {
		t.Fatalf("%d violations, want the one collision at 0x24: %v", log.Len(), log.Err())
	}
}

// TestGlitches: an address NACK never reaches the device; a data error does, and still fails.
func TestGlitches(t *testing.T) {
	bus := NewBus("t", &Log{})
	p := &probe{addr: 0x24, name: "p"}
	bus.Attach(p)
	g := AddrNACK
	bus.SetGlitch(func() Glitch { return g })
	if err := bus.Tx(0x24, []byte{1}, nil); !errors.Is(err, ErrNoAck) || len(p.got) != 0 {
		t.Fatalf("address NACK: %v, device got %v", err, p.got)
	}
	g = DataError
	if err := bus.Tx(0x24, []byte{2}, nil); !errors.Is(err, ErrIO) || len(p.got) != 1 {
		t.Fatalf("data error: %v, device got %v", err, p.got)
	}
	if n := bus.Transactions(); n != 2 {
		t.Fatalf("%d transactions counted", n)
	}
}

func TestBusHandle(t *testing.T) {
	bus := NewBus("t", &Log{})
	bus.Attach(&probe{addr: 0x24, name: "p"})
	h := bus.Open()
	must(t, h.Tx(0x24, []byte{1}, nil))
	must(t, h.Close())
	if err := h.Tx(0x24, []byte{1}, nil); err == nil {
		t.Fatal("a closed handle still talks")
	}
	if err := h.Close(); err == nil {
		t.Fatal("closed twice without complaint")
	}
	if err := bus.Open().Tx(0x24, []byte{1}, nil); err != nil {
		t.Fatalf("a new handle on the same bus: %v", err)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
