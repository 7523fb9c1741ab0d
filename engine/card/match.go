package card

import (
	"fmt"

	"github.com/siamesetable/siamesed/engine/tile"
)

// Match is a hand that a rack's 14 tiles complete.
type Match struct {
	Hand      *Hand         `json:"-"`
	HandID    string        `json:"hand"`
	Value     int           `json:"value"`
	Jokerless bool          `json:"jokerless"`
	Groups    [][]tile.Face `json:"groups"` // the concrete hand the tiles make, group by group
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
			dst = append(dst, Match{Hand: hand, HandID: hand.ID, Value: hand.Value, Jokerless: jokers == 0, Groups: v.groupFaces()})
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
	fixed, jok, ok := v.rest(exp)
	if !ok {
		return false
	}
	for f := tile.Face(0); f < tile.Joker; f++ {
		x := concealed[f]
		if x < fixed[f] || x > fixed[f]+jok[f] {
			return false
		}
	}
	return true
}

// rest assigns each exposure to its own group of the variant and returns what the unassigned
// groups still need. ok is false when the exposures do not fit the variant.
func (v *variant) rest(exp []Exposure) (fixed, jok tile.Counts, ok bool) {
	var used uint32
	if !assign(v.groups, exp, &used) {
		return fixed, jok, false
	}
	for gi, g := range v.groups {
		if used&(1<<gi) != 0 {
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
	return fixed, jok, true
}

// assign matches exposures to distinct groups by backtracking (a rack has at most a handful).
func assign(groups []cgroup, exp []Exposure, used *uint32) bool {
	if len(exp) == 0 {
		return true
	}
	for gi := range groups {
		if *used&(1<<gi) != 0 || !groups[gi].takes(exp[0]) {
			continue
		}
		*used |= 1 << gi
		if assign(groups, exp[1:], used) {
			return true
		}
		*used &^= 1 << gi
	}
	return false
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
