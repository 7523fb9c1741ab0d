package card

import (
	"github.com/siamesetable/siamesed/engine/tile"
)

// Away is how far some tiles are from one hand.
type Away struct {
	Hand   *Hand         `json:"-"`
	HandID string        `json:"hand"`
	Value  int           `json:"value"`
	Limit  int           `json:"limit,omitempty"` // a limit hand's limits (Value is then the same)
	Away   int           `json:"away"`            // fewest tiles still to acquire
	Groups [][]tile.Face `json:"groups"`          // the closest concrete hand (read-only)
}

// Away returns, for every hand the exposures still allow, the fewest tiles missing from the
// concealed tiles held (jokers held fill joker-able gaps). Hands the exposures rule out are
// left out; the result is in card order.
func (c *Card) Away(concealed tile.Counts, exposed []Exposure) []Away {
	return c.AppendAway(make([]Away, 0, len(c.Hands)), concealed, exposed, nil)
}

// AppendAway is Away appending to dst, so a caller can reuse its slice (then it allocates
// nothing). With a table, hands whose tiles are out of reach (dead, or beyond the set) are
// left out too.
func (c *Card) AppendAway(dst []Away, concealed tile.Counts, exposed []Exposure, t *Table) []Away {
	if len(exposed) > 0 {
		return c.appendAwayExposed(dst, &concealed, exposed, t)
	}
	ix := &c.index
	s := ix.scratch.Get().(*awayScratch)
	defer ix.scratch.Put(s)
	ix.accumulate(s, &concealed)
	if t != nil {
		ix.markOutOfReach(s, t)
	}
	jokers := int(concealed[tile.Joker])
	for _, hand := range c.Hands {
		if vi, away := ix.best(s, hand.first, hand.end, jokers); away < 255 {
			dst = append(dst, Away{Hand: hand, HandID: hand.ID, Value: hand.Value, Limit: hand.Limit, Away: away, Groups: c.variants[vi].faces})
		}
	}
	return dst
}

// appendAwayExposed is AppendAway for a rack with exposures: each variant's groups that can
// take them are set aside first.
func (c *Card) appendAwayExposed(dst []Away, concealed *tile.Counts, exposed []Exposure, t *Table) []Away {
	var caps tile.Counts
	if t != nil {
		caps = t.caps(exposed)
	}
	for _, hand := range c.Hands {
		if hand.Concealed {
			continue
		}
		best, bestV := 255, -1
		for vi := hand.first; vi < hand.end; vi++ {
			if a, ok := c.variants[vi].restAway(exposed, concealed, t, &caps); ok && a < best {
				best, bestV = a, vi
			}
		}
		if bestV >= 0 {
			dst = append(dst, Away{Hand: hand, HandID: hand.ID, Value: hand.Value, Limit: hand.Limit, Away: best, Groups: c.variants[bestV].faces})
		}
	}
	return dst
}

// awayFrom counts the tiles missing from h for needs given as full multisets: natural tiles
// for singles and pairs, then joker-able gaps less the jokers held.
func awayFrom(h, fixed, jok *tile.Counts) int {
	missingFixed, gaps := 0, 0
	for f := tile.Face(0); f < tile.Joker; f++ {
		x := h[f]
		if x < fixed[f] {
			missingFixed += int(fixed[f] - x)
			gaps += int(jok[f])
			continue
		}
		if spare := x - fixed[f]; spare < jok[f] {
			gaps += int(jok[f] - spare)
		}
	}
	return missingFixed + max(0, gaps-int(h[tile.Joker]))
}

// Possible returns the hands a rack's exposures still allow, in card order: none means the rack
// is dead (rules: "a hand should be declared dead if the combined exposures do not match a hand").
func (c *Card) Possible(exposed []Exposure) []*Hand {
	var out []*Hand
	for _, hand := range c.Hands {
		if hand.Concealed && len(exposed) > 0 {
			continue
		}
		for vi := hand.first; vi < hand.end; vi++ {
			if c.variants[vi].placements(exposed, func(_, _ *tile.Counts) bool { return true }) {
				out = append(out, hand)
				break
			}
		}
	}
	return out
}

// restAway is the fewest tiles missing from concealed for the variant once the exposures are
// laid on its groups, over every way to lay them; with a table, only ways whose remaining tiles
// are within caps count. ok is false when no way fits.
func (v *variant) restAway(exp []Exposure, concealed *tile.Counts, t *Table, caps *tile.Counts) (best int, ok bool) {
	best = -1
	v.placements(exp, func(fixed, jok *tile.Counts) bool {
		if t != nil && !reachable(fixed, jok, caps) {
			return false
		}
		a := awayFrom(concealed, fixed, jok)
		if best < 0 || a < best {
			best = a
		}
		return a == 0
	})
	return best, best >= 0
}
