package track

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/sim"
)

// TestALoneSeatsThrowsArePlayedInTheCamerasOrder: West, playing on alone, picks a tile and
// throws it at once (its racks never show it), then picks another and throws a tile from its
// rack, all before the rack settles. The camera saw the first throw land first: the discards
// are played in that order, each after its pick.
func TestALoneSeatsThrowsArePlayedInTheCamerasOrder(t *testing.T) {
	ft, tr := westAlone(t)
	from := len(tr.State().Discards)
	steps := hands(ft, tr, 100*time.Millisecond, put(1, 1, sim.In, "4D"))
	steps = append(steps, hands(ft, tr, 100*time.Millisecond, take(1, 1, sim.In, "4D"), lands("4D"))...)
	steps = append(steps, hands(ft, tr, 100*time.Millisecond, put(1, 2, sim.In, "3B"))...)
	steps = append(steps, hands(ft, tr, 100*time.Millisecond, take(1, 2, sim.In, "5D"), lands("5D"))...)
	steps = append(steps, ticks(ft, tr, 80)...)
	want := []string{
		act(game.Action{Seat: 1, Act: game.ActDraw, Tiles: []tile.Face{face("4D")}, Rack: 1}, game.Applied),
		act(game.Action{Seat: 1, Act: game.ActDiscard, Tiles: []tile.Face{face("4D")}, Rack: 1}, game.Applied),
		act(game.Action{Seat: 1, Act: game.ActDraw, Tiles: []tile.Face{face("3B")}, Rack: 2}, game.Applied),
		act(game.Action{Seat: 1, Act: game.ActDiscard, Tiles: []tile.Face{face("5D")}, Rack: 2}, game.Applied),
	}
	got := acts(steps)
	if len(got) != len(want) {
		t.Fatalf("acts %v\nwant %v (questions %+v)", got, want, tr.Questions())
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("acts %v\nwant %v", got, want)
		}
	}
	if d := tr.State().Discards[from:]; len(d) != 2 || d[0] != face("4D") || d[1] != face("5D") {
		t.Fatalf("discards %v, want 4D 5D", d)
	}
}

// TestALoneSeatThrowsPicksAndThrowsAgain: West, playing on alone and to discard, throws a tile
// from rack 1, picks another of the same face into rack 1 and throws a tile from rack 2, before
// rack 1 settles: rack 1 never shows its tile gone. Then West plays on quickly, its rack 2
// never still for the grace period. The camera saw the first throw land first: the discards
// are played in the order they landed, each pick between them, and without waiting for the
// players to be asked.
func TestALoneSeatThrowsPicksAndThrowsAgain(t *testing.T) {
	ft, tr := westAlone(t)
	hands(ft, tr, 3*time.Second, put(1, 2, sim.In, "3B"))
	if s := tr.State(); s.Turn != 1 || s.Phase != game.PhaseDiscard {
		t.Fatalf("before: seat %d to %s (questions %+v)", s.Turn, s.Phase, tr.Questions())
	}
	from := len(tr.State().Discards)
	throw := func(rack int, f string) []sim.Op {
		return []sim.Op{take(1, rack, sim.In, f), {Kind: sim.Discard, Tiles: []tile.Face{face(f)}}}
	}
	steps := script(ft, tr, 60, map[int][]sim.Op{
		0: throw(1, "6D"), 1: {put(1, 1, sim.In, "6D")}, 3: throw(2, "3B"),
		10: {put(1, 2, sim.In, "7B")}, 14: throw(2, "E"),
		21: {put(1, 2, sim.In, "8B")}, 25: throw(2, "S"),
		32: {put(1, 2, sim.In, "9B")}, 36: throw(2, "W"),
	})
	var want []string
	for _, a := range []game.Action{
		{Seat: 1, Act: game.ActDiscard, Tiles: []tile.Face{face("6D")}, Rack: 1},
		{Seat: 1, Act: game.ActDraw, Tiles: []tile.Face{face("6D")}, Rack: 1},
		{Seat: 1, Act: game.ActDiscard, Tiles: []tile.Face{face("3B")}, Rack: 2},
		{Seat: 1, Act: game.ActDraw, Tiles: []tile.Face{face("7B")}, Rack: 2},
		{Seat: 1, Act: game.ActDiscard, Tiles: []tile.Face{face("E")}, Rack: 2},
		{Seat: 1, Act: game.ActDraw, Tiles: []tile.Face{face("8B")}, Rack: 2},
		{Seat: 1, Act: game.ActDiscard, Tiles: []tile.Face{face("S")}, Rack: 2},
		{Seat: 1, Act: game.ActDraw, Tiles: []tile.Face{face("9B")}, Rack: 2},
		{Seat: 1, Act: game.ActDiscard, Tiles: []tile.Face{face("W")}, Rack: 2},
	} {
		want = append(want, act(a, game.Applied))
	}
	if got := acts(steps); !slices.Equal(got, want) {
		t.Fatalf("acts %v\nwant %v (questions %+v)", got, want, tr.Questions())
	}
	if d := tr.State().Discards[from:]; fmt.Sprint(d) != "[6D 3B E S W]" {
		t.Fatalf("discards %v, want 6D 3B E S W", d)
	}
}

// TestALoneSeatsPickWaitsForItsEarlierThrow: West, playing on alone, picks a tile and throws it
// at once, then picks another, which its rack reads; when the grace period for the first throw
// ends, West is already taking the next tile to throw from its rack. The second pick must not
// be played before the first pick and throw the camera saw: played first, the tile thrown at
// once would follow as a second pick, or out of order.
func TestALoneSeatsPickWaitsForItsEarlierThrow(t *testing.T) {
	ft, tr := westAlone(t)
	from := len(tr.State().Discards)
	rack2 := []Place{{1, 2, In}}
	var steps []Step
	for i := range 60 {
		var moving []Place
		switch i {
		case 0:
			ft.do(put(1, 1, sim.In, "4D"))
		case 1:
			ft.do(take(1, 1, sim.In, "4D"))
			ft.do(lands("4D"))
		case 6:
			ft.do(put(1, 2, sim.In, "3B"))
		case 17:
			ft.do(take(1, 2, sim.In, "5D"))
			ft.do(lands("5D"))
		}
		if i >= 17 && i < 20 {
			moving = rack2 // the hand at rack 2 until its reading settles
		}
		steps = append(steps, tr.Moving(moving, ft.now)...)
		steps = append(steps, ft.runUntil(tr, ft.now.Add(100*time.Millisecond))...)
	}
	want := []string{
		act(game.Action{Seat: 1, Act: game.ActDraw, Tiles: []tile.Face{face("4D")}, Rack: 1}, game.Applied),
		act(game.Action{Seat: 1, Act: game.ActDiscard, Tiles: []tile.Face{face("4D")}, Rack: 1}, game.Applied),
		act(game.Action{Seat: 1, Act: game.ActDraw, Tiles: []tile.Face{face("3B")}, Rack: 2}, game.Applied),
		act(game.Action{Seat: 1, Act: game.ActDiscard, Tiles: []tile.Face{face("5D")}, Rack: 2}, game.Applied),
	}
	if got := acts(steps); !slices.Equal(got, want) {
		t.Fatalf("acts %v\nwant %v (questions %+v)", got, want, tr.Questions())
	}
	if d := tr.State().Discards[from:]; len(d) != 2 || d[0] != face("4D") || d[1] != face("5D") {
		t.Fatalf("discards %v, want 4D 5D", d)
	}
}

// TestAStoppedSeatsThrowComesBeforeTheNextPick: East, its hand dead in its turn, throws a tile to
// complete the turn (siamese 10) while still squaring its rack; West picks as soon as the tile
// lands, and West's rack settles first. West's pick waits for East's throw: played first, it
// would pass the turn without the discard, and the throw would follow out of turn.
func TestAStoppedSeatsThrowComesBeforeTheNextPick(t *testing.T) {
	ft, tr := eastDeadInTurn(t)
	square := []sim.Op{take(0, 1, sim.In, "1B"), put(0, 1, sim.In, "1B")} // East squares its rack
	steps := script(ft, tr, 50, map[int][]sim.Op{
		0: {take(0, 1, sim.In, "5B"), {Kind: sim.Discard, Tiles: []tile.Face{face("5B")}}},
		2: square, 4: square, 5: {put(1, 1, sim.In, "7C")}, 6: square, 8: square, 10: square,
	})
	want := []string{
		act(game.Action{Seat: 0, Act: game.ActDiscard, Tiles: []tile.Face{face("5B")}, Rack: 1}, game.Applied),
		act(game.Action{Seat: 1, Act: game.ActDraw, Tiles: []tile.Face{face("7C")}, Rack: 1}, game.Applied),
	}
	if got := acts(steps); !slices.Equal(got, want) {
		t.Fatalf("acts %v\nwant %v (questions %+v)", got, want, tr.Questions())
	}
}

// eastDeadInTurn is a two-seat game where East picked twice, a dead hand: East to discard.
func eastDeadInTurn(t *testing.T) (*fakeTable, *Tracker) {
	t.Helper()
	rules := loadRules(t, "siamese")
	rules.TwoDead = "play_on"
	ft, tr := dealtTable(t, rules, loadCard(t), [4]string{
		"1B 1B 1B 2B 2B 2B 3B 3B 3B 4B 4B 4B 5B 5B",
		"1C 1C 1C 2C 2C 2C 3C 3C 3C 4C 4C 4C 5C 5C",
		"2D 2D 2D 3D 3D 3D 4D 4D 4D 5D 5D 5D 6D",
		"E E E S S S W W W N N N RD 5D",
	})
	eastThrowsWestPlays(ft, tr, take(0, 2, sim.In, "5C"), "6B")
	hands(ft, tr, 2*time.Second, put(0, 1, sim.In, "7D"))
	hands(ft, tr, 8*time.Second, put(0, 1, sim.In, "9C"))
	if s := tr.State(); s.Seats[0].Racks[0].Live() || s.Seats[0].Racks[1].Live() || s.Turn != 0 || s.Phase != game.PhaseDiscard {
		t.Fatalf("before: East's racks live, or seat %d to %s (questions %+v)", s.Turn, s.Phase, tr.Questions())
	}
	return ft, tr
}

// westAlone is a two-seat game where East picked twice, a dead hand, and West, playing on
// alone, has picked and thrown once: West to pick.
func westAlone(t *testing.T) (*fakeTable, *Tracker) {
	t.Helper()
	ft, tr := eastDeadInTurn(t)
	hands(ft, tr, 2*time.Second, put(1, 1, sim.In, "7C"))
	hands(ft, tr, 3*time.Second, take(1, 1, sim.In, "7C"), lands("7C"))
	if s := tr.State(); s.Turn != 1 || s.Phase != game.PhaseDraw {
		t.Fatalf("before: seat %d to %s (questions %+v)", s.Turn, s.Phase, tr.Questions())
	}
	return ft, tr
}

// script runs the fake table n times 100 ms, doing the ops given for each step at its start;
// a rack zone touched reports itself changing until its reading settles, as the hardware does.
func script(ft *fakeTable, tr *Tracker, n int, ops map[int][]sim.Op) []Step {
	var steps []Step
	touched := map[Place]int{}
	for i := range n {
		for _, o := range ops[i] {
			ft.do(o)
			if o.Kind == sim.Put || o.Kind == sim.Take {
				touched[Place{o.Place.Seat, o.Place.Rack, Zone(o.Place.Zone)}] = i
			}
		}
		var moving []Place
		for p, at := range touched {
			if i-at < 3 {
				moving = append(moving, p)
			}
		}
		steps = append(steps, tr.Moving(moving, ft.now)...)
		steps = append(steps, ft.runUntil(tr, ft.now.Add(100*time.Millisecond))...)
	}
	return steps
}

// ticks runs the fake table n times 100 ms: the daemon's tracker hears the time every 50 ms or so.
func ticks(ft *fakeTable, tr *Tracker, n int) []Step {
	var steps []Step
	for range n {
		steps = append(steps, ft.runUntil(tr, ft.now.Add(100*time.Millisecond))...)
	}
	return steps
}
