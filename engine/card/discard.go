package card

import (
	"cmp"
	"slices"

	"github.com/siamesetable/siamesed/engine/tile"
)

// Discard is one tile a Siamese player could throw, with the best pair of hands the tiles left
// make (nil when no pair of hands remains possible).
type Discard struct {
	Tile tile.Face `json:"tile"`
	Best *Advice   `json:"best"`
}

// AdviseDiscards answers "which tile to throw" for a Siamese player after the draw: for each
// kind of concealed tile, the best pair of hands (one a rack) the other tiles leave, ranked by
// that pair's tiles-away, then its value. With a table, the thrown tile counts as dead (a
// player cannot call back a discard of their own) and hands needing dead tiles are out.
func (c *Card) AdviseDiscards(s Siamese, t *Table) []Discard {
	var out []Discard
	for f := tile.Face(0); f < tile.NumFaces; f++ {
		if s.Concealed[f] == 0 {
			continue
		}
		rest := s
		rest.Concealed[f]--
		var tt *Table
		if t != nil {
			after := *t
			after.Dead[f]++
			tt = &after
		}
		d := Discard{Tile: f}
		if adv := c.AdviseSiamese(rest, 1, tt); len(adv) > 0 {
			d.Best = &adv[0]
		}
		out = append(out, d)
	}
	slices.SortStableFunc(out, compareDiscards)
	return out
}

// compareDiscards orders the best throw first: closest remaining pair, then most valuable;
// a throw that leaves no possible pair comes last.
func compareDiscards(a, b Discard) int {
	switch {
	case a.Best == nil || b.Best == nil:
		return cmp.Compare(boolInt(a.Best == nil), boolInt(b.Best == nil))
	case a.Best.Away != b.Best.Away:
		return cmp.Compare(a.Best.Away, b.Best.Away)
	}
	return cmp.Compare(b.Best.Value, a.Best.Value)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
