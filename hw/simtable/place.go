package simtable

import (
	"fmt"
	"slices"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/hw/rack"
)

// Put places tiles from off the table (the wall, a hand, the discards) on a rack, as a person
// would. In the "in" zone each tile goes to the emptiest slot: one tile a slot while there are
// free slots, then a second. In the "on" zone the tiles are one exposure, laid together on the
// emptiest position (Spread lays a Mah Jongg over all of them). Nothing moves if a tile is
// missing: every tile of a face may already be on the racks.
func (t *Table) Put(rackName string, z rack.Zone, fs ...tile.Face) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	zs, ids, err := t.takeFromPool(rackName, z, fs)
	if err != nil {
		return err
	}
	if z == rack.On {
		t.lay(zs, zs.emptiest(), ids...)
		return nil
	}
	for _, id := range ids {
		t.lay(zs, zs.emptiest(), id)
	}
	return nil
}

// Spread lays tiles over the "on" positions in turn, as a declared Mah Jongg is laid out: the
// antennas reach two tiles of each position, the load cell weighs them all.
func (t *Table) Spread(rackName string, fs ...tile.Face) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	zs, ids, err := t.takeFromPool(rackName, rack.On, fs)
	if err != nil {
		return err
	}
	start := zs.emptiest()
	for i, id := range ids {
		t.lay(zs, (start+i)%len(zs.slots), id)
	}
	return nil
}

// Take lifts tiles off a rack zone, back off the table. Nothing moves if one is not there.
func (t *Table) Take(rackName string, z rack.Zone, fs ...tile.Face) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	zs, err := t.zone(rackName, z)
	if err != nil {
		return err
	}
	ids, err := t.find(zs, fs)
	if err != nil {
		return err
	}
	for _, id := range ids {
		t.lift(id)
	}
	return nil
}

// Exchange puts a tile of face in where a tile of face out lies (the same slot or exposure),
// and takes out off the table: a joker exchanged for the natural tile it stands for.
func (t *Table) Exchange(rackName string, z rack.Zone, out, in tile.Face) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	zs, err := t.zone(rackName, z)
	if err != nil {
		return err
	}
	old, err := t.find(zs, []tile.Face{out})
	if err != nil {
		return err
	}
	nu, err := t.free([]tile.Face{in})
	if err != nil {
		return err
	}
	p := t.where[old[0]]
	sl := zs.slots[p.slot]
	for i, id := range sl.tiles {
		if id == old[0] {
			sl.tiles[i] = nu[0]
		}
	}
	t.where[nu[0]], t.where[old[0]] = p, place{}
	t.tiles[nu[0]].off = t.noise.OffCentre > 0 && t.placing.Float64() < t.noise.OffCentre
	return nil
}

// Clear takes every tile off every rack (a new game).
func (t *Table) Clear() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, r := range t.racks {
		for _, zs := range r.zones {
			for _, sl := range zs.slots {
				sl.tiles = sl.tiles[:0]
			}
		}
	}
	clear(t.where)
}

// Contents returns the tiles really in a rack zone.
func (t *Table) Contents(rackName string, z rack.Zone) (tile.Counts, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	zs, err := t.zone(rackName, z)
	if err != nil {
		return tile.Counts{}, err
	}
	var c tile.Counts
	for _, sl := range zs.slots {
		for _, id := range sl.tiles {
			c[t.tiles[id].face]++
		}
	}
	return c, nil
}

// Visible returns the tiles of a zone the readers can name with no noise: every tile in an
// "in" slot, at most two of an "on" position; a PN532 lists at most two, an MFRC522 one and
// nothing when two answer at once; a zone without readers shows none (but on kind sim, where
// one reader a zone reads every tile).
func (t *Table) Visible(rackName string, z rack.Zone) (tile.Counts, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	zs, err := t.zone(rackName, z)
	if err != nil {
		return tile.Counts{}, err
	}
	var c tile.Counts
	for _, sl := range zs.slots {
		reach := sl.tiles
		if sl.inRange > 0 && len(reach) > sl.inRange {
			reach = reach[:sl.inRange]
		}
		switch {
		case sl.kind == pn532Reader:
			reach = reach[:min(len(reach), 2)]
		case sl.kind == mfrcReader && len(reach) == 1, sl.kind == anyReader:
		default:
			reach = nil
		}
		for _, id := range reach {
			c[t.tiles[id].face]++
		}
	}
	return c, nil
}

// Racks lists the rack names in profile order.
func (t *Table) Racks() []string {
	names := make([]string, len(t.racks))
	for i, r := range t.racks {
		names[i] = r.name
	}
	return names
}

func (t *Table) zone(rackName string, z rack.Zone) (*zoneState, error) {
	r, err := t.rack(rackName)
	if err != nil {
		return nil, err
	}
	return r.zone(z)
}

// takeFromPool finds the zone and a free tile of each face.
func (t *Table) takeFromPool(rackName string, z rack.Zone, fs []tile.Face) (*zoneState, []int, error) {
	zs, err := t.zone(rackName, z)
	if err != nil {
		return nil, nil, err
	}
	ids, err := t.free(fs)
	if err != nil {
		return nil, nil, fmt.Errorf("simtable: putting on %s/%s: %w", rackName, z, err)
	}
	return zs, ids, nil
}

// free picks, for each face, a tile of that face that is off the racks (the lowest numbered).
func (t *Table) free(fs []tile.Face) ([]int, error) {
	ids := make([]int, 0, len(fs))
	for _, f := range fs {
		if f >= tile.NumFaces {
			return nil, fmt.Errorf("simtable: face %d is not a tile", f)
		}
		found := -1
		for _, id := range t.byFace[f] {
			if t.where[id].zone == nil && !slices.Contains(ids, id) {
				found = id
				break
			}
		}
		if found < 0 {
			return nil, fmt.Errorf("%w: %s (the set has %d)", ErrNoTile, f, len(t.byFace[f]))
		}
		ids = append(ids, found)
	}
	return ids, nil
}

// find picks, for each face, a tile of that face in the zone: from the last slot holding one,
// the tile laid last.
func (t *Table) find(zs *zoneState, fs []tile.Face) ([]int, error) {
	ids := make([]int, 0, len(fs))
	for _, f := range fs {
		found := -1
		for s := len(zs.slots) - 1; s >= 0 && found < 0; s-- {
			tl := zs.slots[s].tiles
			for i := len(tl) - 1; i >= 0; i-- {
				if t.tiles[tl[i]].face == f && !slices.Contains(ids, tl[i]) {
					found = tl[i]
					break
				}
			}
		}
		if found < 0 {
			return nil, fmt.Errorf("%w: %s on %s/%s", ErrNotThere, f, zs.rack.name, zs.zone)
		}
		ids = append(ids, found)
	}
	return ids, nil
}

// lay puts tiles in slot s of a zone, each set down off its antenna with chance
// Noise.OffCentre (drawn at every laying: a tile lifted and laid again may sit right).
func (t *Table) lay(zs *zoneState, s int, ids ...int) {
	for _, id := range ids {
		zs.slots[s].tiles = append(zs.slots[s].tiles, id)
		t.where[id] = place{zone: zs, slot: s}
		t.tiles[id].off = t.noise.OffCentre > 0 && t.placing.Float64() < t.noise.OffCentre
	}
}

// lift takes one tile off the rack it is on.
func (t *Table) lift(id int) {
	p := t.where[id]
	sl := p.zone.slots[p.slot]
	for i, o := range sl.tiles {
		if o == id {
			sl.tiles = append(sl.tiles[:i], sl.tiles[i+1:]...)
			break
		}
	}
	t.where[id] = place{}
}

// emptiest is the slot holding the fewest tiles, the first of them on a tie.
func (zs *zoneState) emptiest() int {
	best := 0
	for i, sl := range zs.slots {
		if len(sl.tiles) < len(zs.slots[best].tiles) {
			best = i
		}
	}
	return best
}
