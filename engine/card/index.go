package card

import (
	"sync"

	"github.com/siamesetable/siamesed/engine/tile"
)

// faceUse is what one variant needs of one face: t tiles in all, fix of them natural.
type faceUse struct {
	v      uint16
	t, fix uint8
}

// awayIndex turns the card inside out for tiles-away: for each face, the variants that use it.
// A rack holds about ten distinct faces, so tiles-away visits only the variants' needs of those
// faces (a few thousand entries) instead of every need of every variant, and scores each variant
// with two sums it can keep in one 16-bit counter.
type awayIndex struct {
	uses    []faceUse             // grouped by face
	start   [tile.Joker + 1]int32 // uses[start[f]:start[f+1]] are face f's
	maxT    [tile.Joker]uint8     // the most tiles of a face any variant needs
	empty   []uint16              // per variant: the counter with nothing held, 14<<8 | naturals needed
	scratch sync.Pool             // *awayScratch sized to the card
	// targetBufs holds *[2]targetBuf, one for each rack's targets in Siamese advice.
	targetBufs sync.Pool
}

// awayScratch holds one call's per-variant counters.
type awayScratch struct {
	// acc per variant: tiles missing << 8 | natural tiles missing (singles, pairs, rows), each
	// counted down from empty as held tiles fill the variant. outOfReach marks a variant whose
	// tiles the table has made impossible.
	acc   []uint16
	short []uint8 // per variant: jokers it must have for lack of naturals; shortImpossible: never
}

// outOfReach is a counter no variant reaches: 255 tiles missing.
const outOfReach = 0xffff

// shortImpossible marks a variant whose natural tiles are out of reach.
const shortImpossible = 255

// buildIndex fills c.index from c.variants.
func (c *Card) buildIndex() {
	ix := &c.index
	var count [tile.Joker]int32
	for vi := range c.variants {
		for _, n := range c.variants[vi].need {
			if n.face < tile.Joker {
				count[n.face]++
			}
		}
	}
	for f := tile.Face(0); f < tile.Joker; f++ {
		ix.start[f+1] = ix.start[f] + count[f]
	}
	ix.uses = make([]faceUse, ix.start[tile.Joker])
	next := ix.start
	ix.empty = make([]uint16, len(c.variants))
	for vi := range c.variants {
		ix.empty[vi] = 14 << 8
		for _, n := range c.variants[vi].need {
			ix.uses[next[n.face]] = faceUse{v: uint16(vi), t: n.fixed + n.jok, fix: n.fixed}
			next[n.face]++
			ix.maxT[n.face] = max(ix.maxT[n.face], n.fixed+n.jok)
			ix.empty[vi] += uint16(n.fixed)
		}
	}
	nv := len(c.variants)
	ix.scratch.New = func() any {
		return &awayScratch{acc: make([]uint16, nv), short: make([]uint8, nv)}
	}
	ix.targetBufs.New = func() any { return new([2]targetBuf) }
}

// accumulate fills s.acc for the held tiles h (jokers aside).
func (ix *awayIndex) accumulate(s *awayScratch, h *tile.Counts) {
	copy(s.acc, ix.empty)
	for f := tile.Face(0); f < tile.Joker; f++ {
		x := h[f]
		if x == 0 {
			continue
		}
		for _, u := range ix.uses[ix.start[f]:ix.start[f+1]] {
			s.acc[u.v] -= uint16(min(x, u.t))<<8 | uint16(min(x, u.fix))
		}
	}
}

// shortages fills s.short for tiles out of reach: caps[f] is how many tiles of face f the
// player can ever hold. A variant needing more naturals of a face than that is impossible; its
// other tiles of that face must be jokers.
func (ix *awayIndex) shortages(s *awayScratch, caps *tile.Counts) {
	clear(s.short)
	for f := tile.Face(0); f < tile.Joker; f++ {
		cf := caps[f]
		if cf >= ix.maxT[f] {
			continue
		}
		for _, u := range ix.uses[ix.start[f]:ix.start[f+1]] {
			switch {
			case u.fix > cf:
				s.short[u.v] = shortImpossible
			case u.t > cf && s.short[u.v] != shortImpossible:
				s.short[u.v] = uint8(min(int(s.short[u.v])+int(u.t-cf), shortImpossible-1))
			}
		}
	}
}

// best returns the closest of variants [first, end) and its tiles-away given the jokers held,
// or away >= 255 when all are out of reach. A variant lacks its missing tiles; jokers fill
// any of them except the naturals. Branch-free: the variant rides in the low bits of the key.
func (ix *awayIndex) best(s *awayScratch, first, end int, jokers int) (vi, away int) {
	best := int(^uint(0) >> 1)
	for v, a := range s.acc[first:end] {
		k := max(int(a&0xff), int(a>>8)-jokers)<<16 | v
		best = min(best, k)
	}
	return first + best&0xffff, best >> 16
}

// markOutOfReach sets the counters of variants the table makes impossible to outOfReach.
func (ix *awayIndex) markOutOfReach(s *awayScratch, t *Table) {
	caps := t.caps(nil)
	ix.shortages(s, &caps)
	for vi, short := range s.short {
		if short > caps[tile.Joker] {
			s.acc[vi] = outOfReach
		}
	}
}
