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
	steps := hands(ft, tr, 2*time.Second, take(0, 1, sim.In, "9D"), sim.Op{Kind: sim.Discard, Tiles: []tile.Face{face("9D")}})
	steps = append(steps, hands(ft, tr, 2*time.Second, put(1, 1, sim.In, "6C"))...)
	steps = append(steps, hands(ft, tr, 2*time.Second, take(1, 1, sim.In, "6C"), sim.Op{Kind: sim.Discard, Tiles: []tile.Face{face("6C")}})...)
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
