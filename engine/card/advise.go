package card

import (
	"cmp"
	"slices"

	"github.com/siamesetable/siamesed/engine/tile"
)

// Advice is one pair of target hands for a Siamese player's two racks.
type Advice struct {
	Rack1 Away `json:"rack1"`
	Rack2 Away `json:"rack2"`
	// Away is the fewest tiles still to acquire for both hands together, from disjoint tiles:
	// at least Rack1.Away + Rack2.Away, more where the two hands want the same tiles.
	Away  int `json:"away"`
	Value int `json:"value"` // the two hands' values added
}

// target is one variant as a rack's goal: what it still needs once the rack's exposures are
// placed, and how far the whole pool is from it alone (a lower bound for any pair).
type target struct {
	v          int32
	alone      int
	fixed []need // the unexposed groups. needs, sparse
}

// Advise ranks pairs of hands, one for each of a Siamese player's racks, built from disjoint
// tiles: the concealed tiles (which move freely between the racks) plus each rack's own
// exposures. It returns the best top pairs by total tiles-away, then total value. With no
// exposures on either rack the two racks are alike and each pair is listed once.
func (c *Card) Advise(concealed tile.Counts, exposed1, exposed2 []Exposure, top int) []Advice {
	if top <= 0 {
		return nil
	}
	t1 := c.targets(&concealed, exposed1)
	t2 := t1
	symmetric := len(exposed1) == 0 && len(exposed2) == 0
	if !symmetric {
		t2 = c.targets(&concealed, exposed2)
	}
	if len(t1) == 0 || len(t2) == 0 {
		return nil
	}
	best := newTopPairs(top)
	var scratchF, scratchJ tile.Counts
	for i := range t1 {
		a := &t1[i]
		if a.alone+t2[0].alone > best.bound() {
			break
		}
		for j := range t2 {
			b := &t2[j]
			if a.alone+b.alone > best.bound() {
				break
			}
			if symmetric && b.v < a.v {
				continue
			}
			h1, h2 := c.variants[a.v].hand, c.variants[b.v].hand
			value := c.Hands[h1].Value + c.Hands[h2].Value
			if !best.wants(h1, h2, a.alone+b.alone, value) {
				continue
			}
			away := pairAway(&concealed, a, b, &scratchF, &scratchJ)
			best.offer(pairResult{h1: h1, h2: h2, v1: a.v, v2: b.v, away: away, value: value})
		}
	}
	out := make([]Advice, 0, len(best.list))
	for _, p := range best.sorted() {
		out = append(out, Advice{
			Rack1: c.awayOf(p.v1, &concealed, exposed1),
			Rack2: c.awayOf(p.v2, &concealed, exposed2),
			Away:  p.away,
			Value: p.value,
		})
	}
	return out
}

// targets lists every variant the exposures allow, sorted by its distance alone.
func (c *Card) targets(concealed *tile.Counts, exposed []Exposure) []target {
	out := make([]target, 0, len(c.variants))
	for vi := range c.variants {
		v := &c.variants[vi]
		if c.Hands[v.hand].Concealed && len(exposed) > 0 {
			continue
		}
		fixed, jok, ok := v.rest(exposed, concealed)
		if !ok {
			continue
		}
		t := target{v: int32(vi), alone: awayFrom(concealed, &fixed, &jok)}
		for f := tile.Face(0); f < tile.Joker; f++ {
			if fixed[f]+jok[f] > 0 {
				t.fixed = append(t.fixed, need{face: f, fixed: fixed[f], jok: jok[f]})
			}
		}
		out = append(out, t)
	}
	slices.SortStableFunc(out, func(a, b target) int { return cmp.Compare(a.alone, b.alone) })
	return out
}

// pairAway is the tiles-away of two targets drawing on one pool of concealed tiles.
func pairAway(h *tile.Counts, a, b *target, fixed, jok *tile.Counts) int {
	for _, n := range a.fixed {
		fixed[n.face] += n.fixed
		jok[n.face] += n.jok
	}
	for _, n := range b.fixed {
		fixed[n.face] += n.fixed
		jok[n.face] += n.jok
	}
	missingFixed, gaps := 0, 0
	sum := func(ns []need) {
		for _, n := range ns {
			f := n.face
			if fixed[f] == 0 && jok[f] == 0 {
				continue // counted already via the other target
			}
			x := h[f]
			if x < fixed[f] {
				missingFixed += int(fixed[f] - x)
				gaps += int(jok[f])
			} else if spare := x - fixed[f]; spare < jok[f] {
				gaps += int(jok[f] - spare)
			}
			fixed[f], jok[f] = 0, 0 // also resets the scratch for the next pair
		}
	}
	sum(a.fixed)
	sum(b.fixed)
	return missingFixed + max(0, gaps-int(h[tile.Joker]))
}

// awayOf describes one rack's target for the result.
func (c *Card) awayOf(vi int32, concealed *tile.Counts, exposed []Exposure) Away {
	v := &c.variants[vi]
	fixed, jok, _ := v.rest(exposed, concealed)
	h := c.Hands[v.hand]
	return Away{Hand: h, HandID: h.ID, Value: h.Value, Away: awayFrom(concealed, &fixed, &jok), Groups: v.groupFaces()}
}
