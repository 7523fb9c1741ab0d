package simtable

import (
	"fmt"
	"slices"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/hw/rack"
)

// What a person enrolling the set's tags does at the simulated table: takes a tile of the
// face asked for that they have not shown yet (Tags lists them all), sets it on one reader's
// antenna (PutTag) and lifts it off again (TakeTag).

// Tags lists the tags of the set's tiles of face f, in the table's order (the first is the one
// Put takes first).
func (t *Table) Tags(f tile.Face) []string {
	if f >= tile.NumFaces {
		return nil
	}
	out := make([]string, len(t.byFace[f]))
	for i, id := range t.byFace[f] {
		out[i] = t.tiles[id].uid
	}
	return out
}

// PutTag sets the tile carrying tag uid, which must be off the racks, in the slot of the
// reader named reader (as the build names it, e.g. "in-00@mux70.0") on rack rackName.
func (t *Table) PutTag(rackName, reader, uid string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	id, err := t.byUID(uid)
	if err != nil {
		return err
	}
	if t.where[id].zone != nil {
		return fmt.Errorf("simtable: the tile of tag %s is on %s/%s already", uid, t.where[id].zone.rack.name, t.where[id].zone.zone)
	}
	r, err := t.rack(rackName)
	if err != nil {
		return err
	}
	for _, zs := range r.zones {
		for i, sl := range zs.slots {
			if sl.name == reader && sl.kind != noReader {
				t.lay(zs, i, id)
				return nil
			}
		}
	}
	return fmt.Errorf("%w: %s on %s", ErrNoSlot, reader, rackName)
}

// TakeTag lifts the tile carrying tag uid off the rack it is on.
func (t *Table) TakeTag(uid string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	id, err := t.byUID(uid)
	if err != nil {
		return err
	}
	if t.where[id].zone == nil {
		return fmt.Errorf("%w: the tile of tag %s is on no rack", ErrNotThere, uid)
	}
	t.lift(id)
	return nil
}

func (t *Table) byUID(uid string) (int, error) {
	i := slices.IndexFunc(t.tiles, func(p physTile) bool { return p.uid == uid })
	if i < 0 {
		return 0, fmt.Errorf("%w: no tile carries tag %s", ErrNoTile, uid)
	}
	return i, nil
}

// SetWeight lays grams that are no tile on a zone (a known weight, to calibrate its load
// cell), or takes it off with 0.
func (t *Table) SetWeight(rackName string, z rack.Zone, grams float64) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	zs, err := t.zone(rackName, z)
	if err != nil {
		return err
	}
	zs.extra = grams
	return nil
}
