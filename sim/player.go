package sim

import (
	"math/rand/v2"
	"slices"

	"github.com/siamesetable/siamesed/engine/card"
	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/tile"
)

// Player is a virtual player. It sees what its seat may see (its own tiles and the table) and
// plays toward the pair of hands the card's advisor names for its two racks.
type Player struct {
	Seat int
	card *card.Card
	rng  *rand.Rand

	// The last plan and the tiles it was made for: the advisor is the costly part of a turn.
	planned  bool
	planKey  [2]tile.Counts
	planExp  int
	lastPlan plan
}

// plan is the advised pair of hands: the tiles each rack's hand is made of.
type plan struct {
	want  [2]tile.Counts // concrete tiles of each rack's hand (jokers shown as the tiles they stand for)
	group [2]tile.Counts // for each rack, faces the hand needs in groups of three or more
}

// plan asks the advisor for the best pair of hands for the seat's tiles (once per change of
// the seat's tiles).
func (p *Player) plan(s *game.State) plan {
	st := &s.Seats[p.Seat]
	key := [2]tile.Counts{st.Racks[0].Concealed, st.Racks[1].Concealed}
	exp := len(st.Racks[0].Exposures)*100 + len(st.Racks[1].Exposures)
	if p.planned && key == p.planKey && exp == p.planExp {
		return p.lastPlan
	}
	p.planned, p.planKey, p.planExp = true, key, exp
	p.lastPlan = p.advise(s)
	return p.lastPlan
}

// advise asks the advisor.
func (p *Player) advise(s *game.State) plan {
	st := &s.Seats[p.Seat]
	pool := st.Racks[0].Concealed
	pool.Add(&st.Racks[1].Concealed)
	ex := [2][]card.Exposure{exposures(&st.Racks[0]), exposures(&st.Racks[1])}
	var pl plan
	adv := p.card.Advise(pool, ex[0], ex[1], 1)
	if len(adv) == 0 {
		return pl
	}
	for r, a := range []card.Away{adv[0].Rack1, adv[0].Rack2} {
		if !st.Racks[r].Live() {
			continue
		}
		for _, g := range a.Groups {
			for _, f := range g {
				pl.want[r][f]++
			}
			if len(g) >= 3 && g[0] == g[len(g)-1] {
				pl.group[r][g[0]] = uint8(len(g))
			}
		}
	}
	return pl
}

func exposures(r *game.Rack) []card.Exposure {
	out := make([]card.Exposure, len(r.Exposures))
	for i, e := range r.Exposures {
		out[i] = e.Tiles
	}
	return out
}

// discard picks the tile to throw: one neither rack's hand wants (a joker never while a group
// could use it), from the rack it stands in.
func (p *Player) discard(s *game.State, pl plan) (tile.Face, int) {
	st := &s.Seats[p.Seat]
	want := pl.want[0]
	want.Add(&pl.want[1])
	var spare, any []struct {
		f tile.Face
		r int
	}
	for r := 1; r <= 2; r++ {
		for _, f := range st.Racks[r-1].Concealed.Faces() {
			any = append(any, struct {
				f tile.Face
				r int
			}{f, r})
			held := st.Racks[0].Concealed[f] + st.Racks[1].Concealed[f]
			if f != tile.Joker && held > want[f] {
				spare = append(spare, any[len(any)-1])
			}
		}
	}
	if len(spare) > 0 {
		c := spare[p.rng.IntN(len(spare))]
		return c.f, c.r
	}
	c := any[p.rng.IntN(len(any))]
	return c.f, c.r
}

// drawRack is the rack a drawn tile goes into: the rack whose hand wants it, else the one
// holding fewer tiles; never a Mah Jongg rack.
func (p *Player) drawRack(s *game.State, pl plan, f tile.Face) int {
	st := &s.Seats[p.Seat]
	switch {
	case st.Racks[0].MahJongg != nil:
		return 2
	case st.Racks[1].MahJongg != nil:
		return 1
	case pl.want[0][f] > 0 && pl.want[1][f] == 0:
		return 1
	case pl.want[1][f] > 0 && pl.want[0][f] == 0:
		return 2
	case st.Racks[1].Count() < st.Racks[0].Count():
		return 2
	}
	return 1
}

// call decides whether to call the last discard: for Mah Jongg when it completes a live rack,
// for an exposure when a rack's hand needs a group of that face and the seat holds enough
// naturals and jokers. It returns the call, or false.
func (p *Player) call(s *game.State) (game.Action, bool) {
	last := s.Last
	st := &s.Seats[p.Seat]
	if last == nil || last.Seat == p.Seat || !st.Live() {
		return game.Action{}, false
	}
	for r := 1; r <= 2; r++ {
		rk := &st.Racks[r-1]
		if rk.Live() && completes(p.card, rk, last.Tile) {
			return game.Action{Seat: p.Seat, Act: game.ActCall, For: "mahjong", Tiles: []tile.Face{last.Tile}, Rack: r}, true
		}
	}
	if last.Tile == tile.Joker || st.Racks[0].Concealed[last.Tile]+st.Racks[1].Concealed[last.Tile] == 0 {
		return game.Action{}, false
	}
	pl := p.plan(s)
	for r := 1; r <= 2; r++ {
		n := int(pl.group[r-1][last.Tile])
		if n < 3 || !st.Racks[r-1].Live() || p.rng.IntN(2) == 0 {
			continue
		}
		naturals := int(st.Racks[0].Concealed[last.Tile] + st.Racks[1].Concealed[last.Tile])
		jokers := int(st.Racks[0].Concealed[tile.Joker] + st.Racks[1].Concealed[tile.Joker])
		if naturals+jokers < n-1 || naturals == 0 {
			continue
		}
		tiles := []tile.Face{last.Tile}
		for i := 0; i < n-1; i++ {
			if i < naturals {
				tiles = append(tiles, last.Tile)
			} else {
				tiles = append(tiles, tile.Joker)
			}
		}
		return game.Action{Seat: p.Seat, Act: game.ActCall, Tiles: tiles, Rack: r}, true
	}
	return game.Action{}, false
}

// completes reports whether tile f makes the rack's tiles a hand on the card.
func completes(c *card.Card, rk *game.Rack, f tile.Face) bool {
	if rk.Count() != 13 {
		return false
	}
	conc := rk.Concealed
	conc[f]++
	return len(c.Match(card.Rack{Concealed: conc, Exposed: exposures(rk)})) > 0
}

// mahjong finds a rack the seat can declare, with the moves that put exactly that hand's tiles
// in it. ok is false when no rack makes a hand.
func (p *Player) mahjong(s *game.State) (rack int, moves []game.Action, ok bool) {
	st := &s.Seats[p.Seat]
	for r := 1; r <= 2; r++ {
		rk := &st.Racks[r-1]
		if !rk.Live() {
			continue
		}
		if rk.Count() == 14 && len(p.card.Match(card.Rack{Concealed: rk.Concealed, Exposed: exposures(rk)})) > 0 {
			return r, nil, true
		}
	}
	// A hand across both racks: gather it into one rack first.
	pool := st.Racks[0].Concealed
	pool.Add(&st.Racks[1].Concealed)
	for r := 1; r <= 2; r++ {
		rk := &st.Racks[r-1]
		if !rk.Live() {
			continue
		}
		for _, a := range p.card.Away(pool, exposures(rk)) {
			if a.Away != 0 {
				continue
			}
			hand, ok := handFrom(pool, a.Groups, rk)
			if !ok || len(p.card.Match(card.Rack{Concealed: hand, Exposed: exposures(rk)})) == 0 {
				continue
			}
			return r, arrange(p.Seat, st, r, hand), true
		}
	}
	return 0, nil, false
}

// handFrom picks from pool the concealed tiles of a hand (its groups less the rack's exposures):
// naturals first, jokers for the rest of groups of three or more.
func handFrom(pool tile.Counts, groups [][]tile.Face, rk *game.Rack) (tile.Counts, bool) {
	var hand tile.Counts
	left := pool
	exposed := exposures(rk)
	for _, g := range groups {
		if slices.ContainsFunc(exposed, func(e card.Exposure) bool { return len(e) == len(g) && slices.Contains(e, g[0]) }) {
			continue // this group lies on the rack already
		}
		for _, f := range g {
			switch {
			case left[f] > 0:
				left[f]--
				hand[f]++
			case len(g) >= 3 && left[tile.Joker] > 0:
				left[tile.Joker]--
				hand[tile.Joker]++
			default:
				return hand, false
			}
		}
	}
	return hand, hand.Total()+rk.Count()-rk.Concealed.Total() == 14
}

// arrange moves tiles so rack r holds exactly hand, the rest going to the other rack.
func arrange(seat int, st *game.Seat, r int, hand tile.Counts) []game.Action {
	in := st.Racks[r-1].Concealed
	out := subtract(in, hand)
	need := subtract(hand, in)
	var moves []game.Action
	if fs := out.Faces(); len(fs) > 0 {
		moves = append(moves, game.Action{Seat: seat, Act: game.ActMove, Tiles: fs, Rack: r, To: 3 - r})
	}
	if fs := need.Faces(); len(fs) > 0 {
		moves = append(moves, game.Action{Seat: seat, Act: game.ActMove, Tiles: fs, Rack: 3 - r, To: r})
	}
	return moves
}

func subtract(a, b tile.Counts) tile.Counts {
	var out tile.Counts
	for f := range a {
		if a[f] > b[f] {
			out[f] = a[f] - b[f]
		}
	}
	return out
}
