package track

import (
	"slices"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/sim"
)

// callTable is call_test's table: East holds 6C J for a call of West's 6C. East has thrown
// its 9D, West has drawn a 6C and thrown it; East is to call or West's turn to pass.
func callTable(t *testing.T) (*fakeTable, *Tracker) {
	t.Helper()
	ft, tr := dealtTable(t, loadRules(t, "siamese"), loadCard(t), [4]string{
		"2B 2B 2B 4B 4B 6B 6B 6B 8B 8B 6C J 1D 9D",
		"1C 1C 1C 2C 2C 2C 3C 3C 3C 4C 4C 4C 5C 5C",
		"2D 2D 2D 3D 3D 3D 4D 4D 4D 5D 5D 5D 6D",
		"E E E S S S W W W N N N RD RD",
	})
	steps := hands(ft, tr, 2*time.Second, take(0, 1, sim.In, "9D"), lands("9D"))
	steps = append(steps, hands(ft, tr, 2*time.Second, put(1, 1, sim.In, "6C"))...)
	steps = append(steps, hands(ft, tr, 2*time.Second, take(1, 1, sim.In, "6C"), lands("6C"))...)
	want := []string{
		act(game.Action{Seat: 0, Act: game.ActDiscard, Tiles: []tile.Face{face("9D")}, Rack: 1}, game.Applied),
		act(game.Action{Seat: 1, Act: game.ActDraw, Tiles: []tile.Face{face("6C")}, Rack: 1}, game.Applied),
		act(game.Action{Seat: 1, Act: game.ActDiscard, Tiles: []tile.Face{face("6C")}, Rack: 1}, game.Applied),
	}
	if !slices.Equal(acts(steps), want) {
		t.Fatalf("set-up: acts %v, want %v (questions %+v)", acts(steps), want, tr.Questions())
	}
	return ft, tr
}

// TestACallWaitsForTheCameraToSeeTheDiscardTaken pins the camera-taken check of calls: East
// lays 6C 6C J on its rack, two tiles gone from it, but the working camera has not seen
// West's 6C leave the discards (it still lies there: East laid a 6C of its own and a joker,
// and has not yet reached for it). No call is played on the racks' word alone; once the
// camera sees the 6C taken, the call is.
func TestACallWaitsForTheCameraToSeeTheDiscardTaken(t *testing.T) {
	ft, tr := callTable(t)
	group, _ := tile.ParseList("6C 6C J")
	steps := hands(ft, tr, 3*time.Second,
		take(0, 1, sim.In, "6C"), take(0, 1, sim.In, "J"),
		sim.Op{Kind: sim.Put, Place: sim.Place{Seat: 0, Rack: 1, Zone: sim.On}, Tiles: group})
	if len(steps) != 0 {
		t.Fatalf("played before the camera saw the discard taken: %v", acts(steps))
	}
	steps = hands(ft, tr, 3*time.Second, sim.Op{Kind: sim.TakeDiscard, Tiles: []tile.Face{face("6C")}})
	want := []string{act(game.Action{Seat: 0, Act: game.ActCall, Tiles: group, Rack: 1}, game.Applied)}
	if !slices.Equal(acts(steps), want) {
		t.Fatalf("once the camera saw the 6C taken: acts %v, want %v (questions %+v)", acts(steps), want, tr.Questions())
	}
}

// TestTheLaterOfTwoSameFaceArrivalsIsTheDiscardOfTheSeatNotToPlay pins seenEvent's latest:
// West draws a 5C and throws it at once (no rack shows it), then East draws a 9D and takes a
// 5C of its own from rack 2, holding it a second before throwing it. East's rack reads the 5C
// gone nearer in time to West's throw than to East's own, but East's discard comes after
// West's turn: it is the later 5C the camera saw. West's draw and throw are played first,
// then East's draw and discard, none faulty, as soon as West's throw has lain the grace period
// (taking West's 5C for East's discard, out of turn, would hold them back as a fault until
// East's throw had lain as long).
func TestTheLaterOfTwoSameFaceArrivalsIsTheDiscardOfTheSeatNotToPlay(t *testing.T) {
	ft, tr := siameseTable(t)
	steps := hands(ft, tr, 2*time.Second, take(0, 1, sim.In, "5B"), lands("5B"))
	if want := []string{act(game.Action{Seat: 0, Act: game.ActDiscard, Tiles: []tile.Face{face("5B")}, Rack: 1}, game.Applied)}; !slices.Equal(acts(steps), want) {
		t.Fatalf("East's discard: %v, want %v", acts(steps), want)
	}
	throw(ft, "5C", true) // West's drawn 5C, thrown at once
	steps = ft.runUntil(tr, ft.now.Add(200*time.Millisecond))
	steps = append(steps, hands(ft, tr, time.Second, put(0, 1, sim.In, "9D"), take(0, 2, sim.In, "5C"))...)
	throw(ft, "5C", true) // East's 5C, a second after it left the rack
	// West's throw has lain the grace period before East's has: the evidence is clear then,
	// and nothing breaks a rule, so nothing waits for East's throw to lie as long.
	for range 12 {
		steps = append(steps, ft.runUntil(tr, ft.now.Add(100*time.Millisecond))...)
	}
	want := []string{
		act(game.Action{Seat: 1, Act: game.ActDraw, Tiles: []tile.Face{face("5C")}, Rack: 1}, game.Applied),
		act(game.Action{Seat: 1, Act: game.ActDiscard, Tiles: []tile.Face{face("5C")}, Rack: 1}, game.Applied),
		act(game.Action{Seat: 0, Act: game.ActDraw, Tiles: []tile.Face{face("9D")}, Rack: 1}, game.Applied),
		act(game.Action{Seat: 0, Act: game.ActDiscard, Tiles: []tile.Face{face("5C")}, Rack: 2}, game.Applied),
	}
	if !slices.Equal(acts(steps), want) {
		t.Fatalf("acts %v\nwant %v (questions %+v)", acts(steps), want, tr.Questions())
	}
	for _, s := range steps {
		if game.HasFaults(s.Verdicts) {
			t.Fatalf("%v faulty: %+v", s.Action, s.Verdicts)
		}
	}
}

// TestAnUnnamedArrivalBeforeTheRackReadsItsTileGone pins arrivalSlack: the camera's reading
// of an unnamed tile landing is taken for East's 5B gone from its rack when it came a little
// before the rack read the tile gone (the rack lags the hand), but not when it came seconds
// before: that was another tile, and the players are asked.
func TestAnUnnamedArrivalBeforeTheRackReadsItsTileGone(t *testing.T) {
	discard := act(game.Action{Seat: 0, Act: game.ActDiscard, Tiles: []tile.Face{face("5B")}, Rack: 1}, game.Applied)
	t.Run("a little before", func(t *testing.T) {
		ft, tr := siameseTable(t)
		throw(ft, "5B", false)
		steps := ft.runUntil(tr, ft.now.Add(500*time.Millisecond)) // landed 200 ms before the rack was touched
		steps = append(steps, hands(ft, tr, 3*time.Second, take(0, 1, sim.In, "5B"))...)
		if want := []string{discard}; !slices.Equal(acts(steps), want) {
			t.Fatalf("acts %v, want %v (questions %+v)", acts(steps), want, tr.Questions())
		}
		if qs := tr.Questions(); len(qs) != 0 {
			t.Fatalf("questions left: %+v", qs)
		}
	})
	t.Run("seconds before", func(t *testing.T) {
		ft, tr := siameseTable(t)
		throw(ft, "5B", false)
		steps := ft.runUntil(tr, ft.now.Add(2500*time.Millisecond)) // landed 2.2 s before the rack was touched
		steps = append(steps, hands(ft, tr, 4*time.Second, take(0, 1, sim.In, "5B"))...)
		if len(steps) != 0 {
			t.Fatalf("played %v, want nothing (the camera missed East's throw)", acts(steps))
		}
		if len(tr.Questions()) == 0 {
			t.Fatalf("no question about the 5B gone and the unnamed tile")
		}
	})
}

// TestActsAfterAnUnnamedThrowWait pins earlierUnnamed: West draws a 7D and throws it at once,
// and the camera cannot name it; East then draws a 9C into rack 2 and throws a 5B from rack 1,
// which the camera names. East's racks show its draw and discard, but they come after West's
// unnamed throw: played first, they would be out of turn. They wait, however long, and the
// players are asked; once a player enters West's draw by hand, West's turn and then East's
// are played in order, none faulty.
func TestActsAfterAnUnnamedThrowWait(t *testing.T) {
	ft, tr := siameseTable(t)
	steps := hands(ft, tr, 2*time.Second, take(0, 1, sim.In, "5B"), lands("5B"))
	if want := []string{act(game.Action{Seat: 0, Act: game.ActDiscard, Tiles: []tile.Face{face("5B")}, Rack: 1}, game.Applied)}; !slices.Equal(acts(steps), want) {
		t.Fatalf("East's discard: %v, want %v", acts(steps), want)
	}
	throw(ft, "7D", false) // West's drawn 7D, thrown before its rack was read
	steps = ft.runUntil(tr, ft.now.Add(2*time.Second))
	steps = append(steps, hands(ft, tr, time.Second, put(0, 2, sim.In, "9C"), take(0, 1, sim.In, "5B"))...)
	throw(ft, "5B", true)
	for range 100 {
		steps = append(steps, ft.runUntil(tr, ft.now.Add(100*time.Millisecond))...)
	}
	if len(steps) != 0 {
		t.Fatalf("played before West's throw was known: %v", acts(steps))
	}
	if len(tr.Questions()) == 0 {
		t.Fatalf("no question about West's unnamed throw")
	}
	drew := game.Action{Seat: 1, Act: game.ActDraw, Tiles: []tile.Face{face("7D")}, Rack: 1}
	st, err := tr.Command(Command{Seat: 1, Kind: CmdAct, Action: &drew, At: ft.now})
	if err != nil {
		t.Fatalf("%v entered by hand: %v", drew, err)
	}
	steps = append(st, ft.runUntil(tr, ft.now.Add(3*time.Second))...)
	want := []string{
		act(drew, game.Applied),
		act(game.Action{Seat: 1, Act: game.ActDiscard, Tiles: []tile.Face{face("7D")}, Rack: 1}, game.Applied),
		act(game.Action{Seat: 0, Act: game.ActDraw, Tiles: []tile.Face{face("9C")}, Rack: 2}, game.Applied),
		act(game.Action{Seat: 0, Act: game.ActDiscard, Tiles: []tile.Face{face("5B")}, Rack: 1}, game.Applied),
	}
	if !slices.Equal(acts(steps), want) {
		t.Fatalf("acts %v\nwant %v (questions %+v)", acts(steps), want, tr.Questions())
	}
	for _, s := range steps {
		if game.HasFaults(s.Verdicts) {
			t.Fatalf("%v faulty: %+v", s.Action, s.Verdicts)
		}
	}
}

// TestALoneSeatsLaterDrawWaitsForItsUnnamedThrow pins unnamedThrow: West, playing on alone
// and to draw, picks a 4D and throws it at once, and the camera cannot name it; a moment
// later, before the camera has reported the throw, West picks a 3B into rack 2. Its racks
// show only the 3B come, read as arriving before the unnamed tile landed, but that pick is
// West's next turn: played now it would take the place of the draw the unnamed throw began
// with. West's acts wait, however long, and the players are asked; once a player enters the
// 4D's draw by hand, the unnamed tile is its discard and the 3B's draw follows.
func TestALoneSeatsLaterDrawWaitsForItsUnnamedThrow(t *testing.T) {
	ft, tr := westAlone(t)
	throw(ft, "4D", false)
	steps := ft.runUntil(tr, ft.now.Add(100*time.Millisecond))
	steps = append(steps, hands(ft, tr, 100*time.Millisecond, put(1, 2, sim.In, "3B"))...)
	steps = append(steps, ticks(ft, tr, 80)...)
	if len(steps) != 0 {
		t.Fatalf("played before West's throw was known: %v", acts(steps))
	}
	if len(tr.Questions()) == 0 {
		t.Fatalf("no question about West's unnamed throw")
	}
	drew := game.Action{Seat: 1, Act: game.ActDraw, Tiles: []tile.Face{face("4D")}, Rack: 1}
	st, err := tr.Command(Command{Seat: 1, Kind: CmdAct, Action: &drew, At: ft.now})
	if err != nil {
		t.Fatalf("%v entered by hand: %v", drew, err)
	}
	steps = append(st, ticks(ft, tr, 30)...)
	want := []string{
		act(drew, game.Applied),
		act(game.Action{Seat: 1, Act: game.ActDiscard, Tiles: []tile.Face{face("4D")}, Rack: 1}, game.Applied),
		act(game.Action{Seat: 1, Act: game.ActDraw, Tiles: []tile.Face{face("3B")}, Rack: 2}, game.Applied),
	}
	if !slices.Equal(acts(steps), want) {
		t.Fatalf("acts %v\nwant %v (questions %+v)", acts(steps), want, tr.Questions())
	}
	for _, s := range steps {
		if game.HasFaults(s.Verdicts) {
			t.Fatalf("%v faulty: %+v", s.Action, s.Verdicts)
		}
	}
}

// TestNothingIsPlayedWhileAnUnnamedTileIsLanding pins unnamedArrival: East throws its 5B and
// the camera cannot name it; most of a second later West moves a 1D from rack 1 to rack 2,
// read while the unnamed tile has not yet lain the grace period. No act is played until it
// has (a tile gone from a rack may still be on its way to the other): then East's discard,
// and West's move after it, in the order they happened.
func TestNothingIsPlayedWhileAnUnnamedTileIsLanding(t *testing.T) {
	ft, tr := siameseTable(t)
	ft.do(take(0, 1, sim.In, "5B"))
	throw(ft, "5B", false)
	steps := ft.runUntil(tr, ft.now.Add(800*time.Millisecond))
	steps = append(steps, hands(ft, tr, 100*time.Millisecond, take(1, 1, sim.In, "1D"), put(1, 2, sim.In, "1D"))...)
	steps = append(steps, ticks(ft, tr, 30)...)
	want := []string{
		act(game.Action{Seat: 0, Act: game.ActDiscard, Tiles: []tile.Face{face("5B")}, Rack: 1}, game.Applied),
		act(game.Action{Seat: 1, Act: game.ActMove, Tiles: []tile.Face{face("1D")}, Rack: 1, To: 2}, game.Applied),
	}
	if !slices.Equal(acts(steps), want) {
		t.Fatalf("acts %v\nwant %v (questions %+v)", acts(steps), want, tr.Questions())
	}
	for _, s := range steps {
		if game.HasFaults(s.Verdicts) {
			t.Fatalf("%v faulty: %+v", s.Action, s.Verdicts)
		}
	}
}
