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

// siameseTable is a Siamese game dealt at a fake table, East to discard.
func siameseTable(t *testing.T) (*fakeTable, *Tracker) {
	t.Helper()
	return dealtTable(t, loadRules(t, "siamese"), loadCard(t), [4]string{
		"1B 1B 1B 2B 2B 2B 3B 3B 3B 4B 4B 4B 5B 5B",
		"1C 1C 1C 2C 2C 2C 3C 3C 3C 4C 4C 4C 5C 5C",
		"1D 1D 1D 2D 2D 2D 3D 3D 3D 4D 4D 4D 5D",
		"E E E S S S W W W N N N RD RD",
	})
}

// throw has a tile arrive in the discards, named by the camera or not.
func throw(ft *fakeTable, f string, named bool) { seeDiscards(ft, sim.Discard, f, named) }

// seeDiscards has a tile arrive in the discards (sim.Discard) or leave them (sim.TakeDiscard),
// named by the camera or not.
func seeDiscards(ft *fakeTable, kind sim.OpKind, f string, named bool) {
	unknown := ft.noise.Unknown
	ft.noise.Unknown = map[bool]float64{true: 0, false: 1}[named]
	ft.do(sim.Op{Kind: kind, Tiles: []tile.Face{face(f)}})
	ft.noise.Unknown = unknown
}

// TestAnUnnamedThrowIsAskedAndTheTableWaits: West draws a tile and throws it at once, and the
// camera cannot name it; East then plays on. The tracker never guesses the tile: it asks, and
// East's acts wait (played first they would be out of turn); once a player enters West's draw
// by hand, the unnamed tile is its discard, East's acts follow in order and no fault is named.
func TestAnUnnamedThrowIsAskedAndTheTableWaits(t *testing.T) {
	ft, tr := siameseTable(t)
	var steps []Step
	ft.do(take(0, 1, sim.In, "5B"))
	throw(ft, "5B", true)
	steps = append(steps, ft.runUntil(tr, ft.now.Add(2*time.Second))...)
	if want := []string{act(game.Action{Seat: 0, Act: game.ActDiscard, Tiles: []tile.Face{face("5B")}, Rack: 1}, game.Applied)}; !slices.Equal(acts(steps), want) {
		t.Fatalf("East's discard: %v, want %v", acts(steps), want)
	}
	throw(ft, "7D", false) // West's drawn 7D, thrown before its rack was read
	steps = ft.runUntil(tr, ft.now.Add(2*time.Second))
	steps = append(steps, hands(ft, tr, 2*time.Second, put(0, 2, sim.In, "9C"))...)
	steps = append(steps, hands(ft, tr, 8*time.Second, take(0, 2, sim.In, "9C"))...)
	throw(ft, "9C", true)
	steps = append(steps, ft.runUntil(tr, ft.now.Add(8*time.Second))...)
	if len(steps) != 0 {
		t.Fatalf("played before West's throw was known: %v", acts(steps))
	}
	if qs := tr.Questions(); !slices.ContainsFunc(qs, func(q Question) bool { return strings.Contains(q.Text, "not recognised") }) {
		t.Fatalf("questions %+v, want one about the unnamed discard", qs)
	}
	// A player enters the draw; the unnamed tile in the discards is then its discard.
	drew := game.Action{Seat: 1, Act: game.ActDraw, Tiles: []tile.Face{face("7D")}, Rack: 1}
	st, err := tr.Command(Command{Seat: 1, Kind: CmdAct, Action: &drew, At: ft.now})
	if err != nil {
		t.Fatalf("%v entered by hand: %v", drew, err)
	}
	steps = append(steps, st...)
	steps = append(steps, ft.runUntil(tr, ft.now.Add(3*time.Second))...)
	want := []string{
		act(game.Action{Seat: 1, Act: game.ActDraw, Tiles: []tile.Face{face("7D")}, Rack: 1}, game.Applied),
		act(game.Action{Seat: 1, Act: game.ActDiscard, Tiles: []tile.Face{face("7D")}, Rack: 1}, game.Applied),
		act(game.Action{Seat: 0, Act: game.ActDraw, Tiles: []tile.Face{face("9C")}, Rack: 1}, game.Applied),    // thrown at once:
		act(game.Action{Seat: 0, Act: game.ActDiscard, Tiles: []tile.Face{face("9C")}, Rack: 1}, game.Applied), // which rack, nobody saw
	}
	if !slices.Equal(acts(steps), want) {
		t.Fatalf("acts %v, want %v", acts(steps), want)
	}
	if qs := tr.Questions(); len(qs) != 0 {
		t.Errorf("questions left: %+v", qs)
	}
}

// TestACameraMisreadingIsAnsweredAway: the camera reports a tile arriving that no rack lost (a
// hand, a shadow); the tracker asks, and a player's answer that nothing moved drops the report:
// no act is played for it, the question goes, and play goes on.
func TestACameraMisreadingIsAnsweredAway(t *testing.T) {
	ft, tr := siameseTable(t)
	throw(ft, "9D", true) // nothing left a rack
	steps := ft.runUntil(tr, ft.now.Add(8*time.Second))
	qs := tr.Questions()
	if len(steps) != 0 || len(qs) != 1 || len(qs[0].Options) != 1 || qs[0].Options[0].Key != "misread" {
		t.Fatalf("played %v; questions %+v, want one with a misread answer", acts(steps), qs)
	}
	st, err := tr.Command(Command{Seat: 1, Kind: CmdAnswer, Question: qs[0].ID, Option: "misread", At: ft.now})
	if err != nil || len(st) != 0 {
		t.Fatalf("answered misread: played %v, %v", acts(st), err)
	}
	if qs := tr.Questions(); len(qs) != 0 {
		t.Fatalf("questions after the answer: %+v", qs)
	}
	ft.do(take(0, 1, sim.In, "5B"))
	throw(ft, "5B", true)
	steps = ft.runUntil(tr, ft.now.Add(3*time.Second))
	if want := []string{act(game.Action{Seat: 0, Act: game.ActDiscard, Tiles: []tile.Face{face("5B")}, Rack: 1}, game.Applied)}; !slices.Equal(acts(steps), want) {
		t.Fatalf("East's discard after the answer: %v, want %v", acts(steps), want)
	}
}

// TestAHandEnteredDiscardTakesAnOldUnnamedReading: the camera saw a tile it could not name
// land, and East's rack read its 5B gone only seconds later (a reader slow to answer), too far
// apart to match. The players enter East's discard by hand; it takes that old reading, so
// nothing is left owing, and the camera's next report, West's 9C, is West's discard: a debt
// must not swallow it.
func TestAHandEnteredDiscardTakesAnOldUnnamedReading(t *testing.T) {
	ft, tr := siameseTable(t)
	throw(ft, "5B", false)
	steps := ft.runUntil(tr, ft.now.Add(6*time.Second))
	steps = append(steps, hands(ft, tr, 3*time.Second, take(0, 1, sim.In, "5B"))...)
	if len(steps) != 0 || len(tr.Questions()) == 0 {
		t.Fatalf("before the players answer: played %v, questions %+v", acts(steps), tr.Questions())
	}
	discard := game.Action{Seat: 0, Act: game.ActDiscard, Tiles: []tile.Face{face("5B")}, Rack: 1}
	if _, err := tr.Command(Command{Seat: 0, Kind: CmdAct, Action: &discard, At: ft.now}); err != nil {
		t.Fatalf("%v entered by hand: %v", discard, err)
	}
	steps = hands(ft, tr, 3*time.Second, put(1, 1, sim.In, "9C"))
	steps = append(steps, hands(ft, tr, 3*time.Second, take(1, 1, sim.In, "9C"), lands("9C"))...)
	want := []string{
		act(game.Action{Seat: 1, Act: game.ActDraw, Tiles: []tile.Face{face("9C")}, Rack: 1}, game.Applied),
		act(game.Action{Seat: 1, Act: game.ActDiscard, Tiles: []tile.Face{face("9C")}, Rack: 1}, game.Applied),
	}
	if !slices.Equal(acts(steps), want) {
		t.Fatalf("West's turn: %v, want %v (questions %+v)", acts(steps), want, tr.Questions())
	}
	if qs := tr.Questions(); len(qs) != 0 {
		t.Errorf("questions left: %+v", qs)
	}
}

// TestADebtAwaitsItsOwnFace: East's discard, which the camera missed, is entered by hand, so
// the camera's reading of it is still owed; West then picks and throws a 9C at once. The 9C
// is not the 5B owed: it is West's discard.
func TestADebtAwaitsItsOwnFace(t *testing.T) {
	ft, tr := siameseTable(t)
	steps := hands(ft, tr, 6*time.Second, take(0, 1, sim.In, "5B"))
	if len(steps) != 0 || len(tr.Questions()) == 0 {
		t.Fatalf("before the players answer: played %v, questions %+v", acts(steps), tr.Questions())
	}
	discard := game.Action{Seat: 0, Act: game.ActDiscard, Tiles: []tile.Face{face("5B")}, Rack: 1}
	if _, err := tr.Command(Command{Seat: 0, Kind: CmdAct, Action: &discard, At: ft.now}); err != nil {
		t.Fatalf("%v entered by hand: %v", discard, err)
	}
	throw(ft, "9C", true)
	steps = ft.runUntil(tr, ft.now.Add(3*time.Second))
	want := []string{
		act(game.Action{Seat: 1, Act: game.ActDraw, Tiles: []tile.Face{face("9C")}, Rack: 1}, game.Applied),
		act(game.Action{Seat: 1, Act: game.ActDiscard, Tiles: []tile.Face{face("9C")}, Rack: 1}, game.Applied),
	}
	if !slices.Equal(acts(steps), want) {
		t.Fatalf("West's turn: %v, want %v (questions %+v)", acts(steps), want, tr.Questions())
	}
}
