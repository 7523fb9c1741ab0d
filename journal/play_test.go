package journal

import (
	"math/rand/v2"
	"testing"

	"github.com/siamesetable/siamesed/configs"
	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/tile"
)

// played is a game played in memory: its header, card, actions, and the state after each.
type played struct {
	header game.Header
	card   configs.Card
	acts   []game.Action
	states []game.State // states[i] is the state after acts[:i]
}

// playGame plays up to n actions of a game by rules with a shuffled wall (seed): the deal, then
// every seat draws and discards what it drew, until n actions or the wall ends the game.
func playGame(t testing.TB, rules, id string, seed uint64, n int) played {
	t.Helper()
	r, err := configs.LoadRuleset(rules)
	if err != nil {
		t.Fatal(err)
	}
	c, err := configs.LoadCard("")
	if err != nil {
		t.Fatal(err)
	}
	h := game.NewHeader(r, c.Card, c.Data, []string{"Ann", "Bea", "Cy", "Dee"})
	h.Game, h.Started = id, "2026-11-23T19:04:11Z"
	p := played{header: h, card: c}
	s := h.Start(r, c.Card)
	p.states = append(p.states, s)
	do := func(a game.Action) {
		next, _, err := game.Apply(s, a)
		if err != nil {
			t.Fatalf("action %d %+v: %v", len(p.acts)+1, a, err)
		}
		s = next
		p.acts = append(p.acts, a)
		p.states = append(p.states, s)
	}
	set := r.TileSet().Count
	wall := set.Faces()
	rand.New(rand.NewPCG(seed, 1)).Shuffle(len(wall), func(i, j int) { wall[i], wall[j] = wall[j], wall[i] })
	take := func(k int) []tile.Face { out := wall[:k]; wall = wall[k:]; return out }
	last := make([]tile.Face, r.Players) // each seat's newest tile, which it discards
	for seat := range r.Players {
		k := r.DealOthers
		if seat == 0 {
			k = r.DealEast
		}
		dealt := take(k)
		last[seat] = dealt[k-1]
		do(game.Action{Seat: seat, Act: game.ActDeal, Tiles: dealt})
	}
	for len(p.acts) < n && s.Phase != game.PhaseOver {
		seat := s.Turn
		switch {
		case s.Phase == game.PhaseDiscard || s.Phase == game.PhaseDeal && !r.EastDraws:
			do(game.Action{Seat: seat, Act: game.ActDiscard, Tiles: []tile.Face{last[seat]}, Rack: 1})
		case s.WallLeft == 0:
			do(game.Action{Seat: seat, Act: game.ActWallEnd})
		default:
			last[seat] = take(1)[0]
			do(game.Action{Seat: seat, Act: game.ActDraw, Tiles: []tile.Face{last[seat]}, Rack: 1})
		}
	}
	return p
}

// TestPlayGame: the helper plays what the tests need, a long game that the wall ends.
func TestPlayGame(t *testing.T) {
	p := playGame(t, "royale-4", "g", 1, 10000)
	final := p.states[len(p.states)-1]
	if len(p.acts) < 300 || final.Phase != game.PhaseOver || final.Result == nil || final.Result.Reason != "wall_game" {
		t.Fatalf("%d actions, phase %s, result %+v", len(p.acts), final.Phase, final.Result)
	}
}
