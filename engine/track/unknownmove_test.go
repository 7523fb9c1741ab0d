package track

import (
	"slices"
	"testing"

	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/sim"
)

// TestAnUnnamedThrowAfterATileThrownAtOnce: East picks a tile and throws it at once (its racks
// never show it), and West, quick to play, picks a tile into one rack and throws one of the same
// face from the other, which the camera cannot name, while East's throw waits out the grace
// period. West's tile gone from one rack and come into the other is a pick and a throw, not a
// move: read as a move, West's pick is missing, and East's next pick is played out of turn.
func TestAnUnnamedThrowAfterATileThrownAtOnce(t *testing.T) {
	ft, tr := dealtTable(t, loadRules(t, "siamese"), loadCard(t), [4]string{
		"1B 1B 1B 2B 2B 2B 3B 3B 3B 4B 4B 4B 5B 5B",
		"1C 1C 1C 2C 2C 2C 3C 3C 3C 4C 4C 4C 5C 5C",
		"2D 2D 2D 3D 3D 3D 4D 4D 4D 5D 5D 5D 6D",
		"E E E S S S W W W N N N RD 5D",
	})
	eastThrowsWestPlays(ft, tr, take(0, 2, sim.In, "5C"), "6B")
	if s := tr.State(); s.Turn != 0 || s.Phase != game.PhaseDraw {
		t.Fatalf("before: seat %d to %s (questions %+v)", s.Turn, s.Phase, tr.Questions())
	}
	throw := func(seat, rack int, f string, known bool) []sim.Op {
		if !known {
			ft.noise.Unknown = 1
		}
		return []sim.Op{take(seat, rack, sim.In, f), {Kind: sim.Discard, Tiles: []tile.Face{face(f)}}}
	}
	steps := script(ft, tr, 2, map[int][]sim.Op{0: {{Kind: sim.Discard, Tiles: []tile.Face{face("9D")}}}})
	steps = append(steps, script(ft, tr, 3, map[int][]sim.Op{0: {put(1, 1, sim.In, "RD")}})...)
	steps = append(steps, script(ft, tr, 3, map[int][]sim.Op{0: throw(1, 2, "RD", false)})...)
	ft.noise.Unknown = 0
	steps = append(steps, script(ft, tr, 3, map[int][]sim.Op{0: {put(0, 2, sim.In, "9B")}})...)
	steps = append(steps, script(ft, tr, 3, map[int][]sim.Op{0: throw(0, 1, "1B", true)})...)
	steps = append(steps, script(ft, tr, 3, map[int][]sim.Op{0: {put(1, 2, sim.In, "8C")}})...)
	steps = append(steps, script(ft, tr, 3, map[int][]sim.Op{0: throw(1, 1, "2D", true)})...)
	steps = append(steps, ticks(ft, tr, 150)...)
	a := func(seat int, kind game.Act, f string, rack int) string {
		return act(game.Action{Seat: seat, Act: kind, Tiles: []tile.Face{face(f)}, Rack: rack}, game.Applied)
	}
	want := []string{
		a(0, game.ActDraw, "9D", 1), a(0, game.ActDiscard, "9D", 1),
		a(1, game.ActDraw, "RD", 1), a(1, game.ActDiscard, "RD", 2),
		a(0, game.ActDraw, "9B", 2), a(0, game.ActDiscard, "1B", 1),
		a(1, game.ActDraw, "8C", 2), a(1, game.ActDiscard, "2D", 1),
	}
	if got := acts(steps); !slices.Equal(got, want) {
		t.Fatalf("acts %v\nwant %v (questions %+v)", got, want, tr.Questions())
	}
}
