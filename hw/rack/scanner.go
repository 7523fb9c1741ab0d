package rack

import (
	"context"
	"errors"
	"fmt"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/hw/loadcell"
)

// ErrSilent marks a reader that is on the bus but never answers in time; readers wrap it so the
// health report can tell "silent" from "bus error".
var ErrSilent = errors.New("rack: reader silent")

// TagReader is one RFID reader under one tile slot: the UIDs (as hex strings, e.g.
// "DE:AD:BE:EF") of the tags in its field now. The slice may be reused by the next ReadTags.
type TagReader interface {
	ReadTags() ([]string, error)
}

// Weigher is the load cell under one zone.
type Weigher interface {
	Count() (loadcell.Count, error)
}

// Enrolment maps a tag UID to the face of the tile it is glued to.
type Enrolment interface {
	Face(uid string) (tile.Face, bool)
}

// Slot is one reader and the zone it watches.
type Slot struct {
	Name   string // e.g. "in-07" or "mux70.3": appears in health reports
	Zone   Zone
	Reader TagReader
}

// Source is anything that scans racks: the hardware Scanner and the simulated racks alike.
type Source interface {
	// Scan reads every zone of its rack once. The observations may be reused by the next
	// Scan: keep what is needed (a Monitor judges them at once).
	Scan(ctx context.Context) []Observation
	// Rack names the rack.
	Rack() string
}

// Scanner scans one physical rack.
type Scanner struct {
	Name     string
	Slots    []Slot
	Cells    map[Zone]Weigher
	Enrolled Enrolment

	obs [2]Observation // reused scan to scan: In, On
}

var _ Source = (*Scanner)(nil)

// Rack names the rack.
func (s *Scanner) Rack() string { return s.Name }

// Scan reads every slot and load cell once, in order. A scan cut short by ctx returns nothing:
// half a rack must not look like a rack with fewer tiles.
func (s *Scanner) Scan(ctx context.Context) []Observation {
	obs := s.obs[:]
	idx := func(z Zone) *Observation {
		if z == On {
			return &obs[1]
		}
		return &obs[0]
	}
	for i, z := range Zones {
		obs[i] = Observation{Rack: s.Name, Zone: z, Readers: obs[i].Readers[:0], Tags: obs[i].Tags[:0]}
	}
	for _, sl := range s.Slots {
		if ctx.Err() != nil {
			break
		}
		o := idx(sl.Zone)
		o.Tagged = true
		ri := len(o.Readers)
		o.Readers = append(o.Readers, ReaderRead{Name: sl.Name})
		uids, err := sl.Reader.ReadTags()
		if err != nil {
			kind := BusError
			if errors.Is(err, ErrSilent) {
				kind = Silent
			}
			o.Readers[ri].Fault, o.Readers[ri].Detail = kind, err.Error()
			o.Faults = append(o.Faults, Fault{s.Name, sl.Zone, sl.Name, kind, err.Error()})
			continue
		}
		for _, u := range uids {
			f, ok := s.Enrolled.Face(u)
			if !ok {
				f = tile.NoFace
				o.Faults = append(o.Faults, Fault{s.Name, sl.Zone, sl.Name, Unenrolled, "tag " + u})
			} else {
				o.Tiles[f]++
			}
			o.Tags = append(o.Tags, TagRead{UID: u, Face: f, Reader: ri})
		}
	}
	if ctx.Err() != nil {
		return nil
	}
	for z, c := range s.Cells {
		if !z.Valid() {
			continue
		}
		o := idx(z)
		o.HasCell = true
		n, err := c.Count()
		if err != nil {
			o.Faults = append(o.Faults, Fault{s.Name, z, "loadcell-" + string(z), LoadCellError, err.Error()})
			continue
		}
		o.Weighed, o.WeightTiles, o.WeightSure, o.WeightGrams = true, n.Tiles, n.Sure, n.Grams
	}
	for i := range obs {
		CheckWeight(&obs[i])
	}
	return obs
}

// CheckWeight adds a mismatch fault when a weighed, tagged zone with no other fault counts a
// different number of tiles by weight than by tag.
func CheckWeight(o *Observation) {
	if !o.Tagged || !o.Weighed || !o.WeightSure || len(o.Faults) > 0 {
		return
	}
	if n := o.Tiles.Total(); n != o.WeightTiles {
		o.Faults = append(o.Faults, Fault{o.Rack, o.Zone, "loadcell-" + string(o.Zone), WeightMismatch,
			fmt.Sprintf("weight says %d tiles, tags say %d", o.WeightTiles, n)})
	}
}
