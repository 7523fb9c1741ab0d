package game

import (
	"errors"
	"fmt"

	"github.com/siamesetable/siamesed/engine/card"
)

// checkWrightPatterson checks the fields the Wright-Patterson rules brought: the set's jokers
// and flowers, the limits and the bouquet.
func (r *Ruleset) checkWrightPatterson() []string {
	var probs []string
	bad := func(cond bool, msg string) {
		if cond {
			probs = append(probs, msg)
		}
	}
	bad(r.Jokers != nil && (*r.Jokers < 0 || *r.Jokers > 16), "jokers must be 0 to 16")
	bad(r.Flowers != nil && (*r.Flowers < 0 || *r.Flowers > 16), "flowers must be 0 to 16")
	sc := &r.Scoring
	if len(sc.LimitPoints) > 0 {
		bad(len(sc.LimitPoints) != 3, "limit_points must give a single, a double and a triple limit")
		for _, p := range sc.LimitPoints {
			bad(p <= 0, "limit_points must be positive")
		}
	}
	bad(sc.WallGamePot < 0 || sc.Bouquet < 0 || sc.BouquetFlowers < 0, "wall_game_pot, bouquet and bouquet_flowers cannot be negative")
	bad(sc.Bouquet > 0 && (sc.BouquetFlowers == 0 || !r.FlowerWall), "a bouquet needs bouquet_flowers and flower_wall (flowers laid on the racks)")
	return probs
}

// ErrCardKind is wrapped when a card's values do not suit the ruleset: a limit list under a
// ruleset that pays points, or a points card under one that pays limits.
var ErrCardKind = errors.New("card does not suit the ruleset")

// CheckCard tells whether c can be played by r: a ruleset that pays limits (Wright-Patterson)
// needs a limit list, every other ruleset a card valued in points.
func (r *Ruleset) CheckCard(c *card.Card) error {
	switch limits := len(r.Scoring.LimitPoints) > 0; {
	case limits && !c.Limits:
		return fmt.Errorf("game: %w: %s pays limits, but the card %q values its hands in points: give it a limit list (values single-limit, double-limit, triple-limit)", ErrCardKind, r.Name, c.Name)
	case !limits && c.Limits:
		return fmt.Errorf("game: %w: the card %q values its hands in limits, which %s does not pay: play it with wright-patterson-siamese", ErrCardKind, c.Name, r.Name)
	}
	return nil
}

// handValue is what a hand the card matched is worth under the ruleset: its points, or its
// limit's points.
func (r *Ruleset) handValue(m card.Match) int {
	if m.Limit > 0 && m.Limit <= len(r.Scoring.LimitPoints) {
		return r.Scoring.LimitPoints[m.Limit-1]
	}
	return m.Value
}
