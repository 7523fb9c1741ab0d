// Package card is the card language of American Mah Jongg: its parser, and a matcher that says
// which hands a rack completes, how many tiles each hand is away, which hands a rack's exposures
// still allow, and, for Siamese play, which pair of hands a player's two racks should aim for.
//
// A card compiles once into concrete variants (every suit assignment and base number of every
// pattern), each a short list of (face, natural tiles needed, joker-able tiles needed). Matching is
// then a mask test and a few byte comparisons per variant, with no allocation.
package card

import (
	"github.com/siamesetable/siamesed/engine/tile"
)

// Card is a loaded, compiled card.
type Card struct {
	Name         string
	Year         int
	FlowerJokers bool // jokers may stand in flower groups of three or more
	Jokers       bool // jokers may stand in groups of three or more (false: a list for a set without jokers)
	Limits       bool // every hand is valued in limits (a Wright-Patterson list), not points
	Hands        []*Hand

	variants []variant // all hands' variants, grouped by hand in hand order
	lowest   int
	index    awayIndex // the variants by face, for tiles-away
}

// Hand is one printed line of the card.
type Hand struct {
	ID        string   `json:"id"`
	Section   string   `json:"section"`
	Patterns  []string `json:"patterns"`
	Value     int      `json:"value"`           // points, or the number of limits of a limit hand
	Limit     int      `json:"limit,omitempty"` // 1, 2, 3: a single, double or triple limit; 0 for points
	Concealed bool     `json:"concealed"`
	Note      string   `json:"note,omitempty"`

	// SinglesAndPairs: no group of three or more identical tiles, so no joker can ever be used.
	SinglesAndPairs bool `json:"singles_and_pairs"`
	// Quint: some group of five or more identical tiles.
	Quint bool `json:"quint"`

	index    int    // position in Card.Hands
	first    int    // variants[first:end] are this hand's
	end      int    //
	unionMsk uint64 // faces any variant of this hand uses
}

// Index is the hand's position on the card.
func (h *Hand) Index() int { return h.index }

// Variants is how many concrete variants the hand compiled to.
func (h *Hand) Variants() int { return h.end - h.first }

// Exposure is one group laid face up on a rack: a pung, kong, quint or sextet (possibly with
// jokers), or, once Mah Jongg is declared, any group of the hand.
type Exposure []tile.Face

// jokerRule says where jokers may stand in this card's groups of three or more.
func (c *Card) jokerRule() jokerRule {
	return jokerRule{any: c.Jokers, flowers: c.Jokers && c.FlowerJokers}
}

// Lowest is the lowest value on the card (what a dead player pays four times in Siamese).
func (c *Card) Lowest() int { return c.lowest }

// HandByID finds a hand by its ID.
func (c *Card) HandByID(id string) (*Hand, bool) {
	for _, h := range c.Hands {
		if h.ID == id {
			return h, true
		}
	}
	return nil, false
}

// NumVariants is the number of concrete variants the whole card compiled to.
func (c *Card) NumVariants() int { return len(c.variants) }

// maxVariants bounds the concrete hands of a whole card (the fast tiles-away indexes them
// with 16 bits); a real card compiles to a few thousand.
const maxVariants = 1<<16 - 1

// describe records what the hand's variants have in common: the faces any of them uses, and
// whether any has a pung or more (not singles and pairs) or a quint or more.
func (h *Hand) describe(vs []variant) {
	h.SinglesAndPairs, h.Quint = true, false
	for _, v := range vs {
		h.unionMsk |= v.mask
		for _, g := range v.groups {
			if identical(g.tiles) {
				h.SinglesAndPairs = false
				h.Quint = h.Quint || len(g.tiles) >= 5
			}
		}
	}
}
