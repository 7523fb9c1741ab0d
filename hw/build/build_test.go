package build

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/hw/config"
	"github.com/siamesetable/siamesed/hw/hwtest"
	"github.com/siamesetable/siamesed/hw/loadcell"
	"github.com/siamesetable/siamesed/hw/pn532"
	"github.com/siamesetable/siamesed/hw/rack"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/conn/v3/spi"
)

// fakeHost hands out one I2C bus and HX711 fake pins by name.
type fakeHost struct {
	bus  i2c.BusCloser
	pins map[string]gpio.PinIO
}

func (h *fakeHost) OpenI2C(name string) (i2c.BusCloser, error) { return h.bus, nil }
func (h *fakeHost) OpenSPI(name string) (spi.PortCloser, error) {
	return nil, errors.New("no SPI here")
}
func (h *fakeHost) Pin(name string) (gpio.PinIO, error) {
	if p, ok := h.pins[name]; ok {
		return p, nil
	}
	return nil, fmt.Errorf("no pin %s", name)
}

// deadPort wraps a Playback: while mux port `dead` is selected, the PN532 address NACKs (a
// reader unplugged from that port) without consuming recorded operations.
type deadPort struct {
	*i2ctest.Playback
	dead     byte
	selected byte
}

func (d *deadPort) Tx(addr uint16, w, r []byte) error {
	if addr == 0x70 && len(w) == 1 {
		d.selected = w[0]
	} else if addr == pn532.DefaultAddr && d.selected == d.dead {
		return errors.New("i2c: address NACK")
	}
	return d.Playback.Tx(addr, w, r)
}
func (d *deadPort) Close() error { return nil }

// chip builds a PN532-to-host frame with its checksums, padded to the driver's default read.
func chip(data ...byte) []byte {
	f := pn532.EncodeFrame(data[0], data[1:]...)
	f[5] = 0xD5
	f[len(f)-2]--
	r := make([]byte, 1+48)
	r[0] = 1
	copy(r[1:], f)
	return r
}

func exchange(cmd []byte, resp []byte) []i2ctest.IO {
	ack := []byte{1, 0, 0, 0xFF, 0, 0xFF, 0}
	return []i2ctest.IO{{Addr: 0x24, W: cmd}, {Addr: 0x24, R: []byte{1}}, {Addr: 0x24, R: ack},
		{Addr: 0x24, R: []byte{1}}, {Addr: 0x24, R: resp}}
}

func TestBuildPN532RackAndScan(t *testing.T) {
	p, err := config.Parse([]byte(`
kind: pn532
i2c_bus: "1"
racks:
  - name: p1a
    readers:
      - {zone: in, mux: 0x70, ports: [0]}
      - {zone: on, mux: 0x70, ports: [1]}
    cells:
      - {zone: in, clk: GPIO6, data: GPIO7}
`))
	if err != nil {
		t.Fatal(err)
	}
	var ops []i2ctest.IO
	ops = append(ops, i2ctest.IO{Addr: 0x70, R: []byte{0}}, i2ctest.IO{Addr: 0x70, W: []byte{1}})
	ops = append(ops, exchange(pn532.EncodeFrame(0x02), chip(0x03, 0x32, 1, 6, 7))...)
	ops = append(ops, exchange(pn532.EncodeFrame(0x14, 1, 0x14, 1), chip(0x15))...)
	ops = append(ops, exchange(pn532.EncodeFrame(0x32, 5, 0xFF, 1, 1), chip(0x33))...)
	ops = append(ops, i2ctest.IO{Addr: 0x70, W: []byte{2}}) // on-00 is dead
	// One scan: in-00 sees an enrolled tag and an unknown one; on-00 is retried and fails.
	ops = append(ops, i2ctest.IO{Addr: 0x70, W: []byte{1}})
	ops = append(ops, exchange(pn532.EncodeFrame(0x4A, 2, 0), chip(0x4B, 2,
		1, 0, 4, 8, 4, 0xDE, 0xAD, 0xBE, 0xEF,
		2, 0, 4, 8, 4, 0x01, 0x02, 0x03, 0x04))...)
	ops = append(ops, i2ctest.IO{Addr: 0x70, W: []byte{2}})
	pb := &i2ctest.Playback{Ops: ops, DontPanic: true}
	bus := &deadPort{Playback: pb, dead: 2}
	const off, cpg = 1000, 400.0
	cell := hwtest.NewHX711(off+14*400, off+14*400, off+14*400)
	host := &fakeHost{bus: bus, pins: map[string]gpio.PinIO{"GPIO6": cell.Clk, "GPIO7": cell.Data}}
	cals := config.Calibrations{}
	cals.Set("p1a", rack.In, loadcell.Calibration{Offset: off, CountsPerGram: cpg})
	en := enrolment{"DE:AD:BE:EF": tile.Green}

	rig, err := Build(p, host, en, cals, Options{NoWait: true})
	if err != nil {
		t.Fatal(err)
	}
	defer rig.Close()
	if len(rig.Readers) != 2 || rig.Readers[0].Firmware != "PN532 v1.6" || rig.Readers[1].Err == nil {
		t.Fatalf("readers %+v", rig.Readers)
	}
	obs := rig.Sources[0].Scan(context.Background())
	in, on := obs[0], obs[1]
	if in.Tiles.Total() != 1 || in.Tiles[tile.Green] != 1 || !in.Weighed || in.WeightTiles != 1 {
		t.Fatalf("in zone %+v", in)
	}
	if len(in.Faults) != 1 || in.Faults[0].Kind != rack.Unenrolled || in.Faults[0].Reader != "in-00@mux70.0" {
		t.Fatalf("in faults %v", in.Faults)
	}
	if len(on.Faults) != 1 || on.Faults[0].Kind != rack.BusError || on.Faults[0].Reader != "on-00@mux70.1" {
		t.Fatalf("on faults %v", on.Faults)
	}
	if err := pb.Close(); err != nil {
		t.Fatal(err)
	}
}

type enrolment map[string]tile.Face

func (e enrolment) Face(uid string) (tile.Face, bool) { f, ok := e[uid]; return f, ok }

// spiHost hands out fake MFRC522s by SPI name and plain pins.
type spiHost struct {
	readers map[string]*hwtest.MFRC522
	irq     map[string]string // irq pin -> spi name
}

func (h spiHost) OpenI2C(string) (i2c.BusCloser, error) { return nil, errors.New("no I2C") }
func (h spiHost) OpenSPI(n string) (spi.PortCloser, error) {
	if r, ok := h.readers[n]; ok {
		return r, nil
	}
	return nil, fmt.Errorf("no SPI %s", n)
}
func (h spiHost) Pin(n string) (gpio.PinIO, error) {
	if s, ok := h.irq[n]; ok {
		return h.readers[s].IRQ, nil
	}
	return hwtest.NewOutPin(n), nil
}

// TestBuildMFRC522Rack: a rack of two MFRC522 readers is built and scanned; a reader whose
// transfers fail is a bus fault on its zone, however slowly it fails.
func TestBuildMFRC522Rack(t *testing.T) {
	p, err := config.Parse([]byte(`
kind: mfrc522
racks:
  - name: p1a
    readers:
      - {zone: in, spi: "SPI0.0", reset: GPIO25, irq: GPIO24}
      - {zone: on, spi: "SPI0.1", reset: GPIO23, irq: GPIO22}
`))
	if err != nil {
		t.Fatal(err)
	}
	in, on := hwtest.NewMFRC522(), hwtest.NewMFRC522()
	h := spiHost{readers: map[string]*hwtest.MFRC522{"SPI0.0": in, "SPI0.1": on},
		irq: map[string]string{"GPIO24": "SPI0.0", "GPIO22": "SPI0.1"}}
	rig, err := Build(p, h, enrolment{}, config.Calibrations{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer rig.Close()
	if len(rig.Readers) != 2 || rig.Readers[0].Err != nil || in.Writes == 0 {
		t.Fatalf("readers %+v, %d register writes", rig.Readers, in.Writes)
	}
	on.Fail = errors.New("spi: transfer failed")
	obs := rig.Sources[0].Scan(context.Background())
	if len(obs[0].Faults) != 0 || obs[0].Tiles.Total() != 0 {
		t.Fatalf("empty in zone: %+v", obs[0])
	}
	if len(obs[1].Faults) != 1 || obs[1].Faults[0].Kind != rack.BusError || obs[1].Faults[0].Reader != "on-00@SPI0.1" {
		t.Fatalf("failing on zone: %+v", obs[1].Faults)
	}
	// Back, then failing slowly (a bus under load): the started chip's transfer fails after
	// periph's driver stopped waiting for the IRQ. Still a fault, not an empty slot.
	on.Fail = nil
	if obs := rig.Sources[0].Scan(context.Background()); len(obs[1].Faults) != 0 {
		t.Fatalf("on zone answering again: %+v", obs[1].Faults)
	}
	on.Fail, on.Latency = errors.New("spi: transfer failed"), 60*time.Millisecond
	if obs := rig.Sources[0].Scan(context.Background()); len(obs[1].Faults) != 1 || obs[1].Faults[0].Kind != rack.BusError {
		t.Fatalf("slow failing on zone: %+v", obs[1].Faults)
	}
}

// TestMFRC522FailingAtStartStaysInItsSlot: a reader that does not answer when the rig is built
// keeps its slot, so its zone reports the fault on every scan instead of showing fewer tiles
// with nothing wrong; when it answers again, the zone is clean.
func TestMFRC522FailingAtStartStaysInItsSlot(t *testing.T) {
	p, err := config.Parse([]byte(`
kind: mfrc522
racks:
  - name: p1a
    readers:
      - {zone: in, spi: "SPI0.0", reset: GPIO25, irq: GPIO24}
      - {zone: in, spi: "SPI0.1", reset: GPIO23, irq: GPIO22}
`))
	if err != nil {
		t.Fatal(err)
	}
	good, dead := hwtest.NewMFRC522(), hwtest.NewMFRC522()
	dead.Fail = errors.New("spi: no answer")
	h := spiHost{readers: map[string]*hwtest.MFRC522{"SPI0.0": good, "SPI0.1": dead},
		irq: map[string]string{"GPIO24": "SPI0.0", "GPIO22": "SPI0.1"}}
	rig, err := Build(p, h, enrolment{}, config.Calibrations{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer rig.Close()
	if len(rig.Readers) != 2 || rig.Readers[1].Err == nil || !errors.Is(rig.Readers[1].Err, dead.Fail) {
		t.Fatalf("readers %+v: the dead one must be listed with its error", rig.Readers)
	}
	if len(rig.TagReaders) != 2 {
		t.Fatalf("%d tag readers, want both slots kept", len(rig.TagReaders))
	}
	obs := rig.Sources[0].Scan(context.Background())
	if len(obs[0].Faults) != 1 || obs[0].Faults[0].Reader != "in-01@SPI0.1" || obs[0].Faults[0].Kind != rack.BusError {
		t.Fatalf("in zone with a dead reader: %+v", obs[0])
	}
	dead.Fail = nil // plugged back in
	obs = rig.Sources[0].Scan(context.Background())
	if len(obs[0].Faults) != 0 {
		t.Fatalf("recovered reader still faulty: %+v", obs[0].Faults)
	}
}
