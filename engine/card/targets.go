package card

import (
	"slices"

	"github.com/siamesetable/siamesed/engine/tile"
)

// target is one variant as a rack's goal: what it still needs once the rack's exposures are
// placed, and how far the whole pool is from it alone (a lower bound for any pair).
type target struct {
	v     int32
	alone int
	need  []need // the unexposed groups' needs, by face (shared read-only with the variant when the rack has no exposures)
}

// targetBuf holds one rack's targets between calls, so that advice allocates little.
type targetBuf struct {
	raw, sorted []target
	needs       []need
}

// targets lists every variant the exposures (and the table) allow, closest alone first, in card
// order among equals. The result lives in buf until its next use.
func (c *Card) targets(buf *targetBuf, concealed *tile.Counts, exposed []Exposure, t *Table) []target {
	if len(exposed) == 0 {
		buf.raw = c.targetsUnexposed(buf.raw[:0], concealed, t)
	} else {
		buf.raw, buf.needs = c.targetsExposed(buf.raw[:0], buf.needs[:0], concealed, exposed, t)
	}
	buf.sorted = sortByAlone(buf.sorted[:0], buf.raw)
	return buf.sorted
}

// targetsUnexposed scores every variant at once through the index.
func (c *Card) targetsUnexposed(out []target, concealed *tile.Counts, t *Table) []target {
	ix := &c.index
	s := ix.scratch.Get().(*awayScratch)
	defer ix.scratch.Put(s)
	ix.accumulate(s, concealed)
	if t != nil {
		ix.markOutOfReach(s, t)
	}
	jokers := int(concealed[tile.Joker])
	for vi, a := range s.acc {
		if a == outOfReach {
			continue
		}
		alone := max(int(a&0xff), int(a>>8)-jokers)
		out = append(out, target{v: int32(vi), alone: alone, need: c.variants[vi].need})
	}
	return out
}

// targetsExposed scores every variant that can take the rack's exposures, keeping what each
// still needs beyond them in one shared buffer.
func (c *Card) targetsExposed(out []target, buf []need, concealed *tile.Counts, exposed []Exposure, t *Table) ([]target, []need) {
	var caps tile.Counts
	if t != nil {
		caps = t.caps(exposed)
	}
	for vi := range c.variants {
		v := &c.variants[vi]
		if c.Hands[v.hand].Concealed {
			continue
		}
		var fixed, jok tile.Counts
		alone := -1
		v.placements(exposed, func(f, j *tile.Counts) bool {
			if t != nil && !reachable(f, j, &caps) {
				return false
			}
			if a := awayFrom(concealed, f, j); alone < 0 || a < alone {
				alone, fixed, jok = a, *f, *j
			}
			return alone == 0
		})
		if alone < 0 {
			continue
		}
		start := len(buf)
		for f := tile.Face(0); f < tile.Joker; f++ {
			if fixed[f]+jok[f] > 0 {
				buf = append(buf, need{face: f, fixed: fixed[f], jok: jok[f]})
			}
		}
		out = append(out, target{v: int32(vi), alone: alone, need: buf[start:len(buf):len(buf)]})
	}
	return out, buf
}

// sortByAlone appends ts to out ordered by their distance alone, stably (a counting sort:
// distances are 0..14).
func sortByAlone(out, ts []target) []target {
	var count [16]int
	for i := range ts {
		count[min(ts[i].alone, 15)]++
	}
	pos := 0
	for d := range count {
		count[d], pos = pos, pos+count[d]
	}
	out = slices.Grow(out, len(ts))[:len(ts)]
	for i := range ts {
		d := min(ts[i].alone, 15)
		out[count[d]] = ts[i]
		count[d]++
	}
	return out
}

// pairScratch is the per-face totals of two targets, kept zero between pairs.
type pairScratch struct {
	fixed, jok tile.Counts
}

// pairAway is the tiles-away of two targets drawing on one pool of concealed tiles h; with a
// table, ok is false when together they need tiles out of reach.
func (s *pairScratch) pairAway(h *tile.Counts, a, b []need, t *Table, caps *tile.Counts) (away int, ok bool) {
	for _, n := range a {
		s.fixed[n.face] += n.fixed
		s.jok[n.face] += n.jok
	}
	for _, n := range b {
		s.fixed[n.face] += n.fixed
		s.jok[n.face] += n.jok
	}
	missingFixed, gaps, mustJokers := 0, 0, 0
	ok = true
	sum := func(ns []need) {
		for _, n := range ns {
			f := n.face
			fixed, jok := s.fixed[f], s.jok[f]
			if fixed == 0 && jok == 0 {
				continue // counted already via the other target
			}
			x := h[f]
			if x < fixed {
				missingFixed += int(fixed - x)
				gaps += int(jok)
			} else if spare := x - fixed; spare < jok {
				gaps += int(jok - spare)
			}
			if t != nil {
				ok = ok && fixed <= caps[f]
				mustJokers += max(0, int(fixed)+int(jok)-int(caps[f]))
			}
			s.fixed[f], s.jok[f] = 0, 0 // also resets the scratch for the next pair
		}
	}
	sum(a)
	sum(b)
	if t != nil && mustJokers > int(caps[tile.Joker]) {
		ok = false
	}
	return missingFixed + max(0, gaps-int(h[tile.Joker])), ok
}
