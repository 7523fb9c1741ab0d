package sim

import (
	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/tile"
)

// The acts only some rulesets have (Wright-Patterson: rolls and flowers laid on the racks and
// replaced from the flower wall), as the virtual players make them.

// rollNext is the next roll the players enter, or false when none is due: before the deal a
// roll for East per seat (a tie rolls again), after the deal East's roll for the prevailing
// wind, before the flowers are called ("East rolls for Prevailing").
//
// The players roll for East before they sit down: whoever rolls high takes East's racks, which
// the log deals as seat 0. So the rolls are drawn as a table would throw them, and the last
// round is entered with the high die at seat 0 (the referee would call anything else an
// infraction, and no player does that on purpose here).
func (g *Game) rollNext() (game.Action, bool) {
	s := &g.State
	if !s.Rules.Rolls {
		return game.Action{}, false
	}
	if !s.EastRolled && !dealtAny(s) {
		if len(g.rolls) == 0 {
			g.rolls = g.rollForEast(len(s.Seats))
		}
		a := g.rolls[0]
		g.rolls = g.rolls[1:]
		return a, true
	}
	if s.Prevailing == 0 && dealt(s) && len(s.Discards) == 0 && s.Phase == game.PhaseDeal {
		return game.Action{Seat: 0, Act: game.ActRoll, For: "prevailing", Dice: []int{g.rng.IntN(6) + 1}}, true
	}
	return game.Action{}, false
}

// rollForEast throws one die per seat until one seat is high alone, entering every round in
// seat order; in the last round the high die is seat 0's (the high roller sits East).
func (g *Game) rollForEast(seats int) []game.Action {
	var out []game.Action
	for {
		dice := make([]int, seats)
		high, highs, at := 0, 0, 0
		for i := range dice {
			dice[i] = g.rng.IntN(6) + 1
			switch {
			case dice[i] > high:
				high, highs, at = dice[i], 1, i
			case dice[i] == high:
				highs++
			}
		}
		if highs == 1 {
			dice[0], dice[at] = dice[at], dice[0]
		}
		for i, d := range dice {
			out = append(out, game.Action{Seat: i, Act: game.ActRoll, For: "east", Dice: []int{d}})
		}
		if highs == 1 {
			return out
		}
	}
}

// dealtAny reports whether any tile has been dealt.
func dealtAny(s *game.State) bool {
	for i := range s.Seats {
		if s.Seats[i].Dealt > 0 {
			return true
		}
	}
	return false
}

// flowerNext is a flower exchange due now, or false: after the deal the seats exchange in turn
// from East ("East calls for Flowers, and players exchange from the Flower Wall in turn"); in
// play a seat lays a flower it picked in its own turn, after picking. The flower goes on the
// rack that already has more flowers ("placed on either rack for the greatest value": four on
// one rack are a bouquet); its replacement into the rack whose hand wants it.
func (g *Game) flowerNext() (game.Action, bool) {
	s := &g.State
	if !s.Rules.FlowerWall || s.WallLeft == 0 || len(g.wall) == 0 {
		return game.Action{}, false
	}
	seat := -1
	switch {
	case s.Phase == game.PhaseDeal && dealt(s):
		seat = firstWithFlower(s)
	case s.Phase == game.PhaseFlowers, s.Phase == game.PhaseDiscard && s.Pending == nil:
		if holdsFlower(&s.Seats[s.Turn]) && s.Seats[s.Turn].Live() {
			seat = s.Turn
		}
	}
	if seat < 0 {
		return game.Action{}, false
	}
	st := &s.Seats[seat]
	rack := 1
	switch f1, f2 := st.Racks[0].Flowers, st.Racks[1].Flowers; {
	case f2 > f1:
		rack = 2
	case f1 == f2 && g.rng.IntN(2) == 0:
		rack = 2
	}
	f := g.pop(1)[0]
	p := g.Players[seat]
	return game.Action{Seat: seat, Act: game.ActFlower, Rack: rack, Tiles: []tile.Face{f}, To: p.drawRack(s, p.plan(s), f)}, true
}

// holdsFlower reports whether a seat holds a flower among its concealed tiles.
func holdsFlower(st *game.Seat) bool {
	return st.Racks[0].Concealed[tile.Flower]+st.Racks[1].Concealed[tile.Flower] > 0
}

// firstWithFlower is the first seat from East that holds a flower, or -1.
func firstWithFlower(s *game.State) int {
	for i := range s.Seats {
		if holdsFlower(&s.Seats[i]) {
			return i
		}
	}
	return -1
}

// flowerOps is the handling of a flower exchange: the flower taken from the rack it stands in
// (the rack it is laid on first, as the engine takes it), laid face up on its rack, and the
// replacement from the flower wall stood in rack To.
func flowerOps(s *game.State, a game.Action) []Op {
	from := holding(s, a.Seat, tile.Flower, a.Rack)
	to := a.To
	if to == 0 {
		to = rackOr1(s, game.Action{Seat: a.Seat})
	}
	fl := []tile.Face{tile.Flower}
	return []Op{{Kind: Take, Place: Place{a.Seat, from, In}, Tiles: fl}, {Kind: Put, Place: Place{a.Seat, a.Rack, On}, Tiles: fl},
		{Kind: Put, Place: Place{a.Seat, to, In}, Tiles: a.Tiles}}
}
