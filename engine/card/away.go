package card

import (
	"github.com/siamesetable/siamesed/engine/tile"
)

// Away is how far some tiles are from one hand.
type Away struct {
	Hand   *Hand         `json:"-"`
	HandID string        `json:"hand"`
	Value  int           `json:"value"`
	Away   int           `json:"away"`   // fewest tiles still to acquire
	Groups [][]tile.Face `json:"groups"` // the closest concrete hand (read-only)
}

// Away returns, for every hand the exposures still allow, the fewest tiles missing from the
// concealed tiles held (jokers held fill joker-able gaps). Hands the exposures rule out are
// left out; the result is in card order.
func (c *Card) Away(concealed tile.Counts, exposed []Exposure) []Away {
	out := make([]Away, 0, len(c.Hands))
	for _, hand := range c.Hands {
		if hand.Concealed && len(exposed) > 0 {
			continue
		}
		best, bestV := 255, -1
		for vi := hand.first; vi < hand.end; vi++ {
			v := &c.variants[vi]
			var a int
			if len(exposed) == 0 {
				a = v.away(&concealed)
			} else {
				fixed, jok, ok := v.rest(exposed, &concealed)
				if !ok {
					continue
				}
				a = awayFrom(&concealed, &fixed, &jok)
			}
			if a < best {
				best, bestV = a, vi
			}
		}
		if bestV >= 0 {
			out = append(out, Away{Hand: hand, HandID: hand.ID, Value: hand.Value, Away: best, Groups: c.variants[bestV].groupFaces()})
		}
	}
	return out
}

// away counts the tiles missing from h for the variant with no exposures: natural tiles for
// singles and pairs, then joker-able gaps less the jokers held.
func (v *variant) away(h *tile.Counts) int {
	missingFixed, gaps := 0, 0
	for _, n := range v.need {
		x := h[n.face]
		if x < n.fixed {
			missingFixed += int(n.fixed - x)
			gaps += int(n.jok)
			continue
		}
		if spare := x - n.fixed; spare < n.jok {
			gaps += int(n.jok - spare)
		}
	}
	return missingFixed + max(0, gaps-int(h[tile.Joker]))
}

// awayFrom is away with the needs given as full multisets.
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
