package card

import (
	"errors"
	"fmt"

	"github.com/siamesetable/siamesed/engine/tile"
)

// Table is what the rest of the table tells a player about the tiles: the set in play, and the
// tiles of it that player can no longer get, so that tiles-away can count a hand needing them as
// out of reach (all four of a face discarded or exposed, say).
type Table struct {
	Set  tile.Counts // the tiles in play: tile.American().Count, or a Royale set
	Dead tile.Counts // out of reach: discards (jokers included) and other racks' exposures
}

// ErrTooManyTiles is wrapped when tiles held, exposed and dead exceed what the set holds.
var ErrTooManyTiles = errors.New("more tiles than the set holds")

// Check reports an error when a player's concealed tiles and exposures, with the dead tiles,
// hold more of a face than the set has (forty 1B, or a fifth north).
func (t *Table) Check(concealed tile.Counts, exposed ...[]Exposure) error {
	all := concealed
	for _, es := range exposed {
		for _, e := range es {
			for _, f := range e {
				if f >= tile.NumFaces {
					return fmt.Errorf("card: exposure holds %v: %w", f, tile.ErrNotation)
				}
				all[f]++
			}
		}
	}
	for f := tile.Face(0); f < tile.NumFaces; f++ {
		if n := int(all[f]) + int(t.Dead[f]); n > int(t.Set[f]) {
			if t.Dead[f] > 0 {
				return fmt.Errorf("card: %w: %d %v held and %d dead, the set has %d", ErrTooManyTiles, all[f], f, t.Dead[f], t.Set[f])
			}
			return fmt.Errorf("card: %w: %d %v, the set has %d", ErrTooManyTiles, all[f], f, t.Set[f])
		}
	}
	return nil
}

// caps returns, for each face, how many tiles of it a player whose rack shows these exposures
// can ever hold in the rest of the hand: the set less the dead tiles and the exposed ones.
func (t *Table) caps(exposed []Exposure) tile.Counts {
	var c tile.Counts
	for f := range c {
		c[f] = t.Set[f] - min(t.Set[f], t.Dead[f])
	}
	for _, e := range exposed {
		for _, f := range e {
			if f < tile.NumFaces && c[f] > 0 {
				c[f]--
			}
		}
	}
	return c
}

// reachable reports whether needs (fixed naturals and joker-able tiles per face, beyond the
// exposures) fit within caps, the jokers included.
func reachable(fixed, jok, caps *tile.Counts) bool {
	mustJokers := 0
	for f := tile.Face(0); f < tile.Joker; f++ {
		if fixed[f] > caps[f] {
			return false
		}
		if t := fixed[f] + jok[f]; t > caps[f] {
			mustJokers += int(t - caps[f])
		}
	}
	return mustJokers <= int(caps[tile.Joker])
}
