package card

import (
	"fmt"
	"slices"

	"github.com/siamesetable/siamesed/engine/tile"
)

// Match is a hand that a rack's 14 tiles complete.
type Match struct {
	Hand      *Hand         `json:"-"`
	HandID    string        `json:"hand"`
	Value     int           `json:"value"`
	Limit     int           `json:"limit,omitempty"` // a limit hand's limits (Value is then the same)
	Jokerless bool          `json:"jokerless"`
	Groups    [][]tile.Face `json:"groups"` // the concrete hand the tiles make, group by group (read-only)
}

// Rack is what one rack holds: concealed tiles in it, exposures on it.
type Rack struct {
	Concealed tile.Counts
	Exposed   []Exposure
}

// Total is the number of tiles on and in the rack.
func (r *Rack) Total() int {
	n := r.Concealed.Total()
	for _, e := range r.Exposed {
		n += len(e)
	}
	return n
}

// All returns the rack's tiles, concealed and exposed, as one multiset.
func (r *Rack) All() (tile.Counts, error) {
	all := r.Concealed
	for i, e := range r.Exposed {
		c, err := tile.CountsOf(e)
		if err != nil {
			return all, fmt.Errorf("card: exposure %d: %w", i+1, err)
		}
		all.Add(&c)
	}
	return all, nil
}

// Match returns every hand the rack's 14 tiles complete, in card order. A rack that does not
// hold exactly 14 tiles matches nothing.
func (c *Card) Match(r Rack) []Match {
	return c.AppendMatches(nil, r)
}

// AppendMatches is Match appending to dst, so a caller can reuse its slice.
func (c *Card) AppendMatches(dst []Match, r Rack) []Match {
	if r.Total() != 14 {
		return dst
	}
	h, err := r.All()
	if err != nil {
		return dst
	}
	jokers := h[tile.Joker]
	h[tile.Joker] = 0
	hm := h.Mask()
	for _, hand := range c.Hands {
		if hm&^hand.unionMsk != 0 || (hand.Concealed && len(r.Exposed) > 0) {
			continue
		}
		for vi := hand.first; vi < hand.end; vi++ {
			v := &c.variants[vi]
			if hm&^v.mask != 0 || v.fixedMask&^hm != 0 || !v.fits(&h) {
				continue
			}
			if len(r.Exposed) > 0 && !v.takesExposures(r.Exposed, &r.Concealed) {
				continue
			}
			dst = append(dst, Match{Hand: hand, HandID: hand.ID, Value: hand.Value, Limit: hand.Limit, Jokerless: jokers == 0, Groups: v.groupFaces()})
			break
		}
	}
	return dst
}

// fits reports whether natural tiles h (jokers not counted, 14 in all with them) make the
// variant: every face between its natural minimum and its total. The totals being equal, the
// jokers then fill exactly the joker-able gaps.
func (v *variant) fits(h *tile.Counts) bool {
	for _, n := range v.need {
		x := h[n.face]
		if x < n.fixed || x > n.fixed+n.jok {
			return false
		}
	}
	return true
}

// takesExposures reports whether the exposures are distinct groups of the variant and the
// concealed tiles fill the rest.
func (v *variant) takesExposures(exp []Exposure, concealed *tile.Counts) bool {
	return v.placements(exp, func(fixed, jok *tile.Counts) bool {
		for f := tile.Face(0); f < tile.Joker; f++ {
			x := concealed[f]
			if x < fixed[f] || x > fixed[f]+jok[f] {
				return false
			}
		}
		return true
	})
}

// placements calls fn with what the unplaced groups still need, for each distinct way of laying
// the exposures on distinct groups of the variant, until fn returns true; it reports whether fn
// did. An exposure with a natural tile fits only groups of that tile, which are interchangeable,
// so only an exposure of jokers alone (never seen in play, but possible input) really branches.
func (v *variant) placements(exp []Exposure, fn func(fixed, jok *tile.Counts) bool) bool {
	var used uint32
	return v.place(exp, &used, fn)
}

func (v *variant) place(exp []Exposure, used *uint32, fn func(fixed, jok *tile.Counts) bool) bool {
	if len(exp) == 0 {
		var fixed, jok tile.Counts
		for gi, g := range v.groups {
			if *used&(1<<gi) != 0 {
				continue
			}
			for _, f := range g.tiles {
				if g.jokerable {
					jok[f]++
				} else {
					fixed[f]++
				}
			}
		}
		return fn(&fixed, &jok)
	}
	var tried uint32 // groups equal to one tried already at this level
	for gi := range v.groups {
		g := &v.groups[gi]
		if (*used|tried)&(1<<gi) != 0 || !g.takes(exp[0]) {
			continue
		}
		for gj := gi; gj < len(v.groups); gj++ {
			if sameGroup(g, &v.groups[gj]) {
				tried |= 1 << gj
			}
		}
		*used |= 1 << gi
		if v.place(exp[1:], used, fn) {
			return true
		}
		*used &^= 1 << gi
	}
	return false
}

func sameGroup(a, b *cgroup) bool {
	return a.face == b.face && a.jokerable == b.jokerable && slices.Equal(a.tiles, b.tiles)
}

// takes reports whether an exposure is exactly this group: the same tiles, with jokers only
// where the group is a pung, kong, quint or sextet.
func (g *cgroup) takes(e Exposure) bool {
	if len(e) != len(g.tiles) {
		return false
	}
	if g.jokerable {
		for _, f := range e {
			if f != g.face && f != tile.Joker {
				return false
			}
		}
		return true
	}
	var want, got tile.Counts
	for i := range e {
		if e[i] >= tile.NumFaces {
			return false
		}
		want[g.tiles[i]]++
		got[e[i]]++
	}
	return want == got
}
