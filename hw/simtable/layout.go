package simtable

import (
	"fmt"
	"math/rand/v2"

	"github.com/siamesetable/siamesed/hw/config"
	"github.com/siamesetable/siamesed/hw/loadcell"
	"github.com/siamesetable/siamesed/hw/rack"
	"github.com/siamesetable/siamesed/hw/simhw"
	"periph.io/x/conn/v3/gpio"
)

// rackState is one rack: its two zones and whether a hand rests over it.
type rackState struct {
	name  string
	zones [2]*zoneState // In, On
	hand  bool
}

func (r *rackState) zone(z rack.Zone) (*zoneState, error) {
	switch z {
	case rack.In:
		return r.zones[0], nil
	case rack.On:
		return r.zones[1], nil
	}
	return nil, fmt.Errorf("simtable: rack %s has no zone %q", r.name, z)
}

// zoneState is one zone: its slots (one per reader; one slot with no reader when the zone has
// none) and whether a load cell weighs it.
type zoneState struct {
	rack  *rackState
	zone  rack.Zone
	slots []*slotState
	cell  *cellState
	extra float64 // grams lying on it that are no tile (SetWeight)
}

// readerKind is what reads a slot.
type readerKind int

const (
	noReader    readerKind = iota
	pn532Reader            // lists at most two tags a poll
	mfrcReader             // reads one tag; two answering at once collide
	anyReader              // kind sim with no readers named: one reader a zone, reading every tile
)

// slotState is where a reader's antenna is: an "in" slot the tiles stand in, or an "on"
// position exposures lie on. Tiles are in placing order, the first nearest the antenna.
type slotState struct {
	name    string // as the build names the reader, e.g. "in-03@mux70.3"; "" with no reader
	zone    *zoneState
	index   int // in its zone
	kind    readerKind
	tiles   []int
	inRange int // how many of its tiles the antenna reaches (0: all)
	pn532   *simhw.PN532
	mfrc    *simhw.MFRC522
	// direct draws the noise of the direct path's polls (the chips draw their own).
	direct *rand.Rand
	// silent and unplugged are what SetSilent and SetUnplugged made it; weak is its draw for
	// Noise.WeakReaders (it is weak when weak < WeakReaders); burst, the polls a hand over it
	// still hides its tiles; dropout, what SetWeak made it (0: the table's noise).
	silent, unplugged bool
	weak, dropout     float64
	burst             int
}

// cellState is the load cell under a zone: its calibration, and the noise of the direct path's
// conversions.
type cellState struct {
	cal    loadcell.Calibration
	direct *rand.Rand
}

// onRange is how many tiles of an exposure lying on one "on" position a PN532's antenna reaches:
// the two lying nearest it, as on the reference rack.
const onRange = 2

// layout builds the racks and, for each reader and load cell the profile names, its chip (but
// for kind sim, which is read directly).
func (t *Table) layout(rng *rand.Rand, o Options) error {
	p := t.profile
	muxes := map[string]*simhw.PCA9548{} // bus/addr
	weak := rand.New(rand.NewPCG(o.Seed, 0x3eac))
	direct := rand.New(rand.NewPCG(o.Seed, 0xd1ec))
	for ri, cr := range p.Racks {
		rk := &rackState{name: cr.Name}
		for i, z := range rack.Zones {
			rk.zones[i] = &zoneState{rack: rk, zone: z}
		}
		counts := map[rack.Zone]int{}
		addSlot := func(zs *zoneState, sl *slotState) {
			sl.zone, sl.index = zs, len(zs.slots)
			sl.weak, sl.direct = weak.Float64(), rand.New(rand.NewPCG(direct.Uint64(), uint64(ri)))
			zs.slots = append(zs.slots, sl)
		}
		for _, rd := range cr.Readers {
			zs, err := rk.zone(rd.Zone)
			if err != nil {
				return err
			}
			switch p.Kind {
			case config.KindMFRC522:
				sl := &slotState{name: fmt.Sprintf("%s-%02d@%s", rd.Zone, counts[rd.Zone], rd.SPI), kind: mfrcReader}
				counts[rd.Zone]++
				if err := t.addMFRC522(rng, cr.Name, sl, rd); err != nil {
					return err
				}
				addSlot(zs, sl)
				continue
			case config.KindSim:
				for range max(1, len(rd.Ports)) {
					sl := &slotState{name: fmt.Sprintf("%s-%02d", rd.Zone, counts[rd.Zone]), kind: pn532Reader}
					counts[rd.Zone]++
					if rd.Zone == rack.On {
						sl.inRange = onRange
					}
					addSlot(zs, sl)
				}
				continue
			}
			bus := t.bus(cr.I2CBus, rng)
			key := fmt.Sprintf("%s/%x", cr.I2CBus, rd.Mux)
			m := muxes[key]
			if m == nil {
				var err error
				if m, err = simhw.NewPCA9548(rd.Mux); err != nil {
					return fmt.Errorf("simtable: rack %s: %w", cr.Name, err)
				}
				muxes[key] = m
				bus.Attach(m)
			}
			for _, port := range rd.Ports {
				sl := &slotState{name: fmt.Sprintf("%s-%02d@mux%x.%d", rd.Zone, counts[rd.Zone], rd.Mux, port), kind: pn532Reader}
				counts[rd.Zone]++
				if rd.Zone == rack.On {
					sl.inRange = onRange
				}
				fr := rand.New(rand.NewPCG(rng.Uint64(), uint64(ri)))
				sl.pn532 = simhw.NewPN532(cr.Name+"/"+sl.name, rd.Addr, t.log, t.field(sl, fr))
				sl.pn532.Busy = o.Busy
				m.Channel(port).Attach(sl.pn532)
				addSlot(zs, sl)
			}
		}
		for _, zs := range rk.zones {
			if len(zs.slots) == 0 {
				sl := &slotState{}
				if p.Kind == config.KindSim {
					sl.name, sl.kind = string(zs.zone)+"-all", anyReader
				}
				addSlot(zs, sl)
			}
		}
		for _, c := range cr.Cells {
			zs, err := rk.zone(c.Zone)
			if err != nil {
				return err
			}
			if err := t.addCell(rng, zs, c); err != nil {
				return err
			}
			zs.cell.direct = rand.New(rand.NewPCG(direct.Uint64(), 0xce11))
		}
		t.racks = append(t.racks, rk)
	}
	return nil
}

// bus returns the emulated bus of that name, making it on first use.
func (t *Table) bus(name string, rng *rand.Rand) *simhw.Bus {
	if b := t.buses[name]; b != nil {
		return b
	}
	b := simhw.NewBus(name, t.log)
	br := rand.New(rand.NewPCG(rng.Uint64(), 0xb05))
	b.SetGlitch(func() simhw.Glitch { return t.glitch(br) })
	t.buses[name] = b
	return b
}

// pinRef is one named GPIO pin of an emulated chip.
type pinRef struct {
	pin  gpio.PinIO
	user string
}

func (t *Table) addPin(name, user string, p gpio.PinIO) error {
	if name == "" {
		return fmt.Errorf("simtable: %s: no pin named", user)
	}
	if old, ok := t.pins[name]; ok {
		return fmt.Errorf("simtable: pin %s wired to %s and %s", name, old.user, user)
	}
	t.pins[name] = &pinRef{pin: p, user: user}
	return nil
}

// addCell makes the load cell under a zone and the calibration `calibrate load` would find for
// it (an offset and a scale of its own, as real cells have), and, but for kind sim, its HX711.
func (t *Table) addCell(rng *rand.Rand, zs *zoneState, c config.Cell) error {
	name := zs.rack.name + "/" + string(zs.zone)
	cal := loadcell.Calibration{Offset: int32(40_000 + rng.IntN(80_000)), CountsPerGram: 380 + 80*rng.Float64()}
	t.cals.Set(zs.rack.name, zs.zone, cal)
	zs.cell = &cellState{cal: cal}
	cr := rand.New(rand.NewPCG(rng.Uint64(), 0xce11))
	if t.profile.Kind == config.KindSim {
		return nil
	}
	h := simhw.NewHX711("hx711 "+name, t.log, t.sample(zs, cal, cr))
	if err := t.addPin(c.Clk, name+" PD_SCK", h.Clk); err != nil {
		return err
	}
	return t.addPin(c.Data, name+" DOUT", h.Data)
}
