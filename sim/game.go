package sim

import (
	"fmt"
	"math/rand/v2"

	"github.com/siamesetable/siamesed/engine/card"
	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/tile"
)

// Fault kinds a player commits on purpose.
const (
	DrawTwice        = "draw_twice"         // picks a second tile before discarding
	DrawOutOfTurn    = "draw_out_of_turn"   // picks again right after discarding
	WrongRack        = "wrong_rack"         // lays a called exposure on the rack it does not fit
	JokerFromMahJong = "joker_from_mahjong" // swaps a natural for a joker in an exposed Mah Jongg
)

// Deliberate is a rule a player broke on purpose: the referee must name it.
type Deliberate struct {
	Seq  int    // the act's number in the game
	Seat int    // who broke it
	Kind string // one of the fault kinds
}

// Turn is one act with what it means at the table. Undo, for an act the referee refuses, is
// what the players do to put the table back.
type Turn struct {
	Act  game.Action
	Ops  []Op
	Undo []Op
}

// Game is a whole game played by virtual players: the true game, from which a simulated
// table's sensors are driven. It is not safe for concurrent use.
type Game struct {
	State      game.State
	Players    []*Player
	Deliberate []Deliberate
	// FaultRate is the chance, per turn, that the player to play breaks a rule on purpose.
	FaultRate float64

	wall  []tile.Face
	rng   *rand.Rand
	log   []game.Action
	rolls []game.Action // rolls for East still to enter (rolls)
}

// NewGame shuffles a wall and seats virtual players.
func NewGame(r *game.Ruleset, c *card.Card, seed uint64, faultRate float64) *Game {
	g := &Game{State: game.New(r, c), rng: rand.New(rand.NewPCG(seed, 0x51a)), FaultRate: faultRate}
	g.wall = g.State.Unseen.Faces()
	g.rng.Shuffle(len(g.wall), func(i, j int) { g.wall[i], g.wall[j] = g.wall[j], g.wall[i] })
	for i := range g.State.Seats {
		g.Players = append(g.Players, &Player{Seat: i, card: c, rng: rand.New(rand.NewPCG(seed, uint64(i)+1))})
	}
	return g
}

// Log is every act played so far.
func (g *Game) Log() []game.Action { return g.log }

// Over reports whether the game has ended.
func (g *Game) Over() bool { return g.State.Phase == game.PhaseOver }

// Next plays the next act of the game and returns it with its handling at the table. ok is
// false once the game is over.
func (g *Game) Next() (Turn, bool) {
	if g.Over() {
		return Turn{}, false
	}
	a, fault := g.choose()
	ops := Handle(&g.State, a)
	n, vs, err := game.Apply(g.State, a)
	if err != nil {
		panic(fmt.Sprintf("sim: seat %d chose an impossible act %v: %v", a.Seat, a, err)) // a bug in the players
	}
	t := Turn{Act: a, Ops: ops}
	if game.OutcomeOf(vs) == game.NotApplied {
		t.Undo = undo(ops)
	}
	if fault != "" {
		g.Deliberate = append(g.Deliberate, Deliberate{Seq: n.Seq, Seat: a.Seat, Kind: fault})
	}
	g.State = n
	g.log = append(g.log, a)
	return t, true
}

// choose decides the next act, and names the rule it breaks on purpose, if any.
func (g *Game) choose() (game.Action, string) {
	s := &g.State
	if a, ok := g.rollNext(); ok {
		return a, ""
	}
	if a, ok := g.flowerNext(); ok {
		return a, ""
	}
	if s.Phase == game.PhaseDeal {
		if !dealt(s) {
			return g.dealNext(), ""
		}
		if s.Rules.EastDraws {
			return g.drawOrCall()
		}
		return g.turn()
	}
	if s.Phase == game.PhaseDraw {
		return g.drawOrCall()
	}
	if st := &s.Seats[s.Turn]; st.Racks[0].Concealed.Total()+st.Racks[1].Concealed.Total() == 0 {
		// Nothing left to discard (everything lies on the racks): the next seat plays on.
		return g.drawOrCall()
	}
	return g.turn()
}

// dealNext deals the next four tiles (the last three to the non-East seats) in turn order,
// into the rack with fewer tiles.
func (g *Game) dealNext() game.Action {
	s := &g.State
	seat := 0
	for i := range s.Seats {
		if s.Seats[i].Dealt < want(s, i) && (s.Seats[seat].Dealt >= want(s, seat) || s.Seats[i].Dealt < s.Seats[seat].Dealt) {
			seat = i
		}
	}
	n := min(4, want(s, seat)-s.Seats[seat].Dealt)
	rack := 1
	if s.Seats[seat].Racks[1].Count() < s.Seats[seat].Racks[0].Count() {
		rack = 2
	}
	return game.Action{Seat: seat, Act: game.ActDeal, Tiles: g.pop(n), Rack: rack}
}

// dealt reports whether every seat holds its deal.
func dealt(s *game.State) bool {
	for i := range s.Seats {
		if s.Seats[i].Dealt < want(s, i) {
			return false
		}
	}
	return true
}

func want(s *game.State, seat int) int {
	if seat == 0 {
		return s.Rules.DealEast
	}
	return s.Rules.DealOthers
}

func (g *Game) pop(n int) []tile.Face {
	fs := g.wall[len(g.wall)-n:]
	g.wall = g.wall[:len(g.wall)-n]
	return append([]tile.Face(nil), fs...)
}

// drawOrCall: a seat closest to the discarder that wants the discard calls it; otherwise the
// seat to play draws, or the game ends when the wall is used up.
func (g *Game) drawOrCall() (game.Action, string) {
	s := &g.State
	if s.Last != nil {
		n := len(s.Seats)
		for k := 1; k < n; k++ {
			seat := (s.Last.Seat + k) % n
			p := g.Players[seat]
			if a, ok := p.call(s); ok {
				return g.maybeWrongRack(a)
			}
		}
	}
	if len(g.wall) == 0 || s.WallLeft == 0 {
		return game.Action{Seat: s.Turn, Act: game.ActWallEnd}, ""
	}
	seat := s.Turn
	if s.Phase == game.PhaseDiscard { // the seat to play stopped: the next live seat draws
		seat = nextLive(s, s.Turn)
	}
	fault := ""
	if last := s.Last; last != nil && s.Phase == game.PhaseDraw && g.fault() && s.Seats[last.Seat].Live() && last.Seat != seat {
		seat, fault = last.Seat, DrawOutOfTurn // the discarder picks again before the next seat
	}
	f := g.pop(1)[0]
	p := g.Players[seat]
	return game.Action{Seat: seat, Act: game.ActDraw, Tiles: []tile.Face{f}, Rack: p.drawRack(s, p.lastPlan, f)}, fault
}

// turn is the seat's act after picking or calling: Mah Jongg, or a rearrangement, or a discard.
func (g *Game) turn() (game.Action, string) {
	s := &g.State
	seat := s.Turn
	p := g.Players[seat]
	st := &s.Seats[seat]
	if st.Live() {
		if r, moves, ok := p.mahjong(s); ok {
			if len(moves) > 0 {
				return moves[0], ""
			}
			return game.Action{Seat: seat, Act: game.ActMahJongg, Rack: r}, ""
		}
		if s.Pending != nil && s.Pending.Seat == seat { // called for Mah Jongg: declare it, right or wrong
			return game.Action{Seat: seat, Act: game.ActMahJongg, Rack: s.Pending.Rack}, ""
		}
		if g.fault() {
			if a, kind, ok := g.breakRule(seat); ok {
				return a, kind
			}
		}
	}
	pl := p.plan(s)
	if st.Live() && g.rng.IntN(6) == 0 { // now and then, tidy the racks
		if a, ok := tidy(seat, st, pl); ok {
			return a, ""
		}
	}
	f, r := p.discard(s, pl)
	return game.Action{Seat: seat, Act: game.ActDiscard, Tiles: []tile.Face{f}, Rack: r}, ""
}

func (g *Game) fault() bool { return g.FaultRate > 0 && g.rng.Float64() < g.FaultRate }

// breakRule picks a rule to break now: a second draw, or a joker taken from an exposed Mah
// Jongg when there is one to take.
func (g *Game) breakRule(seat int) (game.Action, string, bool) {
	s := &g.State
	if t, f, ok := jokerInMahJongg(s, seat); ok && g.rng.IntN(2) == 0 {
		return game.Action{Seat: seat, Act: game.ActExchange, Tiles: []tile.Face{f}, Target: &t}, JokerFromMahJong, true
	}
	if len(g.wall) > 0 && s.WallLeft > 0 {
		f := g.pop(1)[0]
		p := g.Players[seat]
		return game.Action{Seat: seat, Act: game.ActDraw, Tiles: []tile.Face{f}, Rack: p.drawRack(s, p.lastPlan, f)}, DrawTwice, true
	}
	return game.Action{}, "", false
}

// maybeWrongRack now and then lays a called exposure on the player's other rack, where it fits
// no hand.
func (g *Game) maybeWrongRack(a game.Action) (game.Action, string) {
	s := &g.State
	if a.For == "mahjong" || !g.fault() {
		return a, ""
	}
	other := &s.Seats[a.Seat].Racks[2-a.Rack]
	if !other.Live() {
		return a, ""
	}
	ex := append(exposures(other), a.Tiles)
	if len(g.Players[a.Seat].card.Possible(ex)) > 0 {
		return a, "" // it would fit there too: no rule broken
	}
	a.Rack = 3 - a.Rack
	return a, WrongRack
}

// jokerInMahJongg finds an exposed Mah Jongg holding a joker for a natural the seat holds.
func jokerInMahJongg(s *game.State, seat int) (game.Target, tile.Face, bool) {
	st := &s.Seats[seat]
	for ts := range s.Seats {
		for r := 1; r <= 2; r++ {
			rk := &s.Seats[ts].Racks[r-1]
			if rk.MahJongg == nil {
				continue
			}
			for i, e := range rk.Exposures {
				if naturalOfGroup(e.Tiles) == tile.NoFace {
					continue
				}
				f := naturalOfGroup(e.Tiles)
				hasJ := false
				for _, x := range e.Tiles {
					hasJ = hasJ || x == tile.Joker
				}
				if hasJ && st.Racks[0].Concealed[f]+st.Racks[1].Concealed[f] > 0 {
					return game.Target{Seat: ts, Rack: r, Exposure: i}, f, true
				}
			}
		}
	}
	return game.Target{}, tile.NoFace, false
}

func naturalOfGroup(fs []tile.Face) tile.Face {
	face := tile.NoFace
	for _, f := range fs {
		if f == tile.Joker {
			continue
		}
		if face != tile.NoFace && f != face {
			return tile.NoFace
		}
		face = f
	}
	return face
}

// tidy moves one tile the other rack's hand wants over to it.
func tidy(seat int, st *game.Seat, pl plan) (game.Action, bool) {
	for r := 1; r <= 2; r++ {
		other := 3 - r
		if !st.Racks[other-1].Live() {
			continue
		}
		for _, f := range st.Racks[r-1].Concealed.Faces() {
			if f != tile.Joker && pl.want[other-1][f] > 0 && pl.want[r-1][f] == 0 {
				return game.Action{Seat: seat, Act: game.ActMove, Tiles: []tile.Face{f}, Rack: r, To: other}, true
			}
		}
	}
	return game.Action{}, false
}

// undo reverses what hands did, last first.
func undo(ops []Op) []Op {
	var out []Op
	for i := len(ops) - 1; i >= 0; i-- {
		o := ops[i]
		switch o.Kind {
		case Put:
			o.Kind = Take
		case Take:
			o.Kind = Put
		case Discard:
			o.Kind = TakeDiscard
		case TakeDiscard:
			o.Kind = Discard
		default:
			continue
		}
		out = append(out, o)
	}
	return out
}

// nextLive is the next seat after from that still plays.
func nextLive(s *game.State, from int) int {
	n := len(s.Seats)
	for i := 1; i <= n; i++ {
		if k := (from + i) % n; s.Seats[k].Live() {
			return k
		}
	}
	return from
}

// Resume seats virtual players at a game already under way (a daemon restarted from its
// journal): the tiles not yet seen are shuffled into a new wall.
func Resume(s game.State, c *card.Card, seed uint64, faultRate float64) *Game {
	g := &Game{State: s, rng: rand.New(rand.NewPCG(seed, 0x51b)), FaultRate: faultRate}
	g.wall = s.Unseen.Faces()
	g.rng.Shuffle(len(g.wall), func(i, j int) { g.wall[i], g.wall[j] = g.wall[j], g.wall[i] })
	for i := range s.Seats {
		g.Players = append(g.Players, &Player{Seat: i, card: c, rng: rand.New(rand.NewPCG(seed, uint64(i)+11))})
	}
	return g
}

// Layout is the table a state shows: the tiles standing in and lying on each seat's racks,
// [seat][rack-1], as Put ops from an empty table (exposures one group each).
func Layout(s *game.State) []Op {
	var ops []Op
	for i := range s.Seats {
		for r := 1; r <= 2; r++ {
			rk := &s.Seats[i].Racks[r-1]
			if fs := rk.Concealed.Faces(); len(fs) > 0 {
				ops = append(ops, Op{Kind: Put, Place: Place{i, r, In}, Tiles: fs})
			}
			for _, e := range rk.Exposures {
				ops = append(ops, Op{Kind: Put, Place: Place{i, r, On}, Tiles: e.Tiles})
			}
			for n := 0; n < rk.Flowers; n++ {
				ops = append(ops, Op{Kind: Put, Place: Place{i, r, On}, Tiles: []tile.Face{tile.Flower}})
			}
		}
	}
	return ops
}
