package track

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/sim"
)

// TestACallOfATileThrownAtOnce: West picks a tile and throws it at once, so West's racks
// never show it; East calls it before the camera's reading of the throw has lain the grace
// period. East's racks show a tile of that face gone and an exposure laid: a call of the
// discard still to be played, not a discard of East's own out of turn. West's pick and throw
// are played first, then the call, then East's discard, none faulty.
func TestACallOfATileThrownAtOnce(t *testing.T) {
	ft, tr := dealtTable(t, loadRules(t, "siamese"), loadCard(t), [4]string{
		"2B 2B 2B 4B 4B 6B 6B 6B 8B 8B 6C J 1D 9D",
		"1C 1C 1C 2C 2C 2C 3C 3C 3C 4C 4C 4C 5C 5C",
		"2D 2D 2D 3D 3D 3D 4D 4D 4D 5D 5D 5D 6D",
		"E E E S S S W W W N N N RD RD",
	})
	steps := hands(ft, tr, 2*time.Second, take(0, 1, sim.In, "9D"), lands("9D"))
	steps = append(steps, hands(ft, tr, 100*time.Millisecond, put(1, 1, sim.In, "6C"))...)
	steps = append(steps, hands(ft, tr, 500*time.Millisecond, take(1, 1, sim.In, "6C"), lands("6C"))...)
	group, _ := tile.ParseList("6C 6C J")
	steps = append(steps, hands(ft, tr, 3*time.Second,
		sim.Op{Kind: sim.TakeDiscard, Tiles: []tile.Face{face("6C")}},
		take(0, 1, sim.In, "6C"), take(0, 1, sim.In, "J"),
		sim.Op{Kind: sim.Put, Place: sim.Place{Seat: 0, Rack: 1, Zone: sim.On}, Tiles: group})...)
	steps = append(steps, hands(ft, tr, 8*time.Second, take(0, 1, sim.In, "1D"), lands("1D"))...)
	want := []string{
		act(game.Action{Seat: 0, Act: game.ActDiscard, Tiles: []tile.Face{face("9D")}, Rack: 1}, game.Applied),
		act(game.Action{Seat: 1, Act: game.ActDraw, Tiles: []tile.Face{face("6C")}, Rack: 1}, game.Applied),
		act(game.Action{Seat: 1, Act: game.ActDiscard, Tiles: []tile.Face{face("6C")}, Rack: 1}, game.Applied),
		act(game.Action{Seat: 0, Act: game.ActCall, Tiles: group, Rack: 1}, game.Applied),
		act(game.Action{Seat: 0, Act: game.ActDiscard, Tiles: []tile.Face{face("1D")}, Rack: 1}, game.Applied),
	}
	got := acts(steps)
	if len(got) != len(want) {
		t.Fatalf("acts %v\nwant %v (questions %+v)", got, want, tr.Questions())
	}
	for i := range want {
		if got[i] != want[i] || game.HasFaults(steps[i].Verdicts) {
			t.Fatalf("acts %v\nwant %v, none faulty", got, want)
		}
	}
}

// TestAJokerFromTheOtherRackIsNoExchange: East, holding a called exposure 6C 6C J on rack 1,
// moves a 6C from rack 1 to rack 2 and a joker from rack 2 to rack 1. Rack 1 settles first,
// showing the 6C gone and a joker come, while rack 2 is still changing: that is no joker
// exchanged from the exposure, but the two moves, played once rack 2 has settled.
func TestAJokerFromTheOtherRackIsNoExchange(t *testing.T) {
	ft, tr := dealtTable(t, loadRules(t, "siamese"), loadCard(t), [4]string{
		"2B 2B 2B 4B 4B 6B 6B 6B 8B 6C 6C J 1D 9D",
		"1C 1C 1C 2C 2C 2C 3C 3C 3C 4C 4C 4C 5C J",
		"2D 2D 2D 3D 3D 3D 4D 4D 4D 5D 5D 5D 6D",
		"E E E S S S W W W N N N RD RD",
	})
	group, _ := tile.ParseList("6C 6C J")
	hands(ft, tr, 2*time.Second, take(0, 1, sim.In, "9D"), lands("9D"))
	hands(ft, tr, 2*time.Second, put(1, 1, sim.In, "6C"))
	hands(ft, tr, 2*time.Second, take(1, 1, sim.In, "6C"), lands("6C"))
	hands(ft, tr, 3*time.Second, sim.Op{Kind: sim.TakeDiscard, Tiles: []tile.Face{face("6C")}},
		take(0, 1, sim.In, "6C"), take(0, 1, sim.In, "J"),
		sim.Op{Kind: sim.Put, Place: sim.Place{Seat: 0, Rack: 1, Zone: sim.On}, Tiles: group})
	if s := tr.State(); len(s.Seats[0].Racks[0].Exposures) != 1 || s.Turn != 0 || s.Phase != game.PhaseDiscard {
		t.Fatalf("before: East's rack 1 %+v, seat %d to %s (questions %+v)", s.Seats[0].Racks[0], s.Turn, s.Phase, tr.Questions())
	}
	var steps []Step
	for _, o := range []sim.Op{take(0, 1, sim.In, "6C"), take(0, 2, sim.In, "J"), put(0, 1, sim.In, "J"), put(0, 2, sim.In, "6C")} {
		ft.do(o)
	}
	rack2 := []Place{{0, 2, In}}
	for i := range 40 {
		if i < 10 { // rack 2 still changing for a second: a tag read, lost, read again
			ft.touch(rack2[0])
		}
		steps = append(steps, ft.runUntil(tr, ft.now.Add(100*time.Millisecond))...)
		if i < 12 { // changing until its reading settles, 300 ms after the last touch
			steps = append(steps, tr.Moving(rack2, ft.now)...)
		} else {
			steps = append(steps, tr.Moving(nil, ft.now)...)
		}
	}
	want := []string{ // in either order: nothing dates one before the other
		act(game.Action{Seat: 0, Act: game.ActMove, Tiles: []tile.Face{face("6C")}, Rack: 1, To: 2}, game.Applied),
		act(game.Action{Seat: 0, Act: game.ActMove, Tiles: []tile.Face{face("J")}, Rack: 2, To: 1}, game.Applied),
	}
	got := acts(steps)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("acts %v\nwant %v (questions %+v)", got, want, tr.Questions())
	}
}

// TestACallTakesItsTilesBeforeAMove: an exposure newly laid on a rack, with the discard it
// calls taken, takes its tiles before a move between the player's racks does. East calls West's
// F with an F and a joker from rack 1, throws a 7B from rack 2 and, against the rules, picks a J
// into rack 2, all read in one settle. A J gone from rack 1 and a J new in rack 2 look like a
// move; taken for one, the call was made of the F and the 7B (seed 14 at the default noise: two
// false rule breaks in 1,000 games).
func TestACallTakesItsTilesBeforeAMove(t *testing.T) {
	ft, tr := dealtTable(t, loadRules(t, "siamese"), loadCard(t), [4]string{
		"F 2B 2B 2B 4B 4B 6B 6B 6B 8B 8B 6C J 9D",
		"1C 1C 1C 2C 2C 2C 3C 3C 3C 4C 4C 4C 5C 7B",
		"2D 2D 2D 3D 3D 3D 4D 4D 4D 5D 5D 5D F",
		"E E E S S S W W W N N N RD RD",
	})
	eastThrowsWestPlays(ft, tr, take(0, 1, sim.In, "9D"), "F")
	if s := tr.State(); s.Last == nil || s.Last.Tile != face("F") || s.Turn != 0 {
		t.Fatalf("before: West's F is not the last discard, East to play: %+v", s.Last)
	}
	p := seatPicture{seat: 0}
	p.minus[0][face("F")], p.minus[0][face("J")] = 1, 1
	p.minus[1][face("7B")], p.plus[1][face("J")] = 1, 1
	p.onDelta[0], p.onExtra[0][face("F")] = 3, 2
	tr.taken = append(tr.taken, DiscardReading{Face: face("F"), Known: true, At: ft.now})
	tr.seen = append(tr.seen, DiscardReading{Seen: true, Face: face("7B"), Known: true, At: ft.now})
	var got []string
	for _, c := range tr.explainSeat(&p, make([]bool, len(tr.seen)), make([]bool, len(tr.taken)), false) {
		got = append(got, c.act.Notation())
	}
	if !slices.Contains(got, "0 call F F J r1") || slices.ContainsFunc(got, func(a string) bool { return strings.Contains(a, "move") }) {
		t.Fatalf("explained as %q, want the call of F F J, no move", got)
	}
}
