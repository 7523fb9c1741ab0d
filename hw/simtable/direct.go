package simtable

import (
	"errors"
	"fmt"
	"time"

	"github.com/siamesetable/siamesed/hw/loadcell"
	"github.com/siamesetable/siamesed/hw/rack"
	"github.com/siamesetable/siamesed/hw/simhw"
)

// Sources reads the table directly, without chips or drivers: one rack.Scanner a rack whose
// readers ask the table what answers each poll, as the emulated chips would be answered (a
// PN532 lists at most two tags, an MFRC522 fails when two answer; a bus error drawn per poll
// for the transactions one takes), and whose load cells are the real loadcell.Cell on the
// table's conversions. The same table, the same noise, some five times cheaper a scan: the
// fast path for soaks, and what a kind sim profile reads.
func (t *Table) Sources() []rack.Source {
	var out []rack.Source
	for _, rk := range t.racks {
		sc := &rack.Scanner{Name: rk.name, Enrolled: t.enrol, Cells: map[rack.Zone]rack.Weigher{}}
		for _, zs := range rk.zones {
			for _, sl := range zs.slots {
				if sl.kind != noReader {
					sc.Slots = append(sc.Slots, rack.Slot{Name: sl.name, Zone: zs.zone, Reader: &directReader{t: t, sl: sl}})
				}
			}
			if zs.cell != nil {
				s := &directCell{next: t.sample(zs, zs.cell.cal, zs.cell.direct)}
				sc.Cells[zs.zone] = loadcell.New(s, zs.cell.cal, &loadcell.Opts{TileGrams: t.profile.TileGrams})
			}
		}
		out = append(out, sc)
	}
	return out
}

// Errors of the direct path's readers, as the drivers would report them.
var (
	errUnplugged = errors.New("simtable: reader unplugged: no answer at its address")
	errBus       = errors.New("simtable: bus error")
	errCollision = errors.New("simtable: two tags answered at once")
)

// directReader is one slot's reader on the direct path.
type directReader struct {
	t    *Table
	sl   *slotState
	ids  []int
	uids []string // reused poll to poll (rack.TagReader allows it)
}

// ReadTags implements rack.TagReader.
func (d *directReader) ReadTags() ([]string, error) {
	t, sl := d.t, d.sl
	t.mu.Lock()
	defer t.mu.Unlock()
	rng := sl.direct
	switch {
	case sl.unplugged:
		return nil, fmt.Errorf("%s: %w", sl.name, errUnplugged)
	case sl.silent:
		return nil, fmt.Errorf("%w: %s", rack.ErrSilent, sl.name)
	case t.noise.BusError > 0 && rng.Float64() < 1-pow(1-t.noise.BusError, pollTransactions):
		return nil, fmt.Errorf("%s: %w", sl.name, errBus)
	}
	var g simhw.Tag
	d.ids, g = t.inField(sl, rng, d.ids[:0])
	ids := d.ids
	switch sl.kind {
	case pn532Reader:
		ids = ids[:min(len(ids), 2)]
	case mfrcReader:
		if len(ids) > 1 {
			return nil, fmt.Errorf("%s: %w", sl.name, errCollision)
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	d.uids = d.uids[:0]
	for _, id := range ids {
		if id == ghostID {
			d.uids = append(d.uids, simhw.UIDString(g.UID))
		} else {
			d.uids = append(d.uids, t.tiles[id].uid)
		}
	}
	return d.uids, nil
}

// directCell is a load cell's conversions on the direct path.
type directCell struct {
	next func(simhw.Gain) (int32, bool)
}

// ReadTimeout implements loadcell.Sampler.
func (c *directCell) ReadTimeout(time.Duration) (int32, error) {
	v, _ := c.next(simhw.GainA128)
	return v, nil
}

func pow(x float64, n int) float64 {
	r := 1.0
	for range n {
		r *= x
	}
	return r
}
