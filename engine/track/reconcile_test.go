package track

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/sim"
)

// TestRacksRightPlaysTheActsThatExplainThem: East throws 9D but the camera never sees it
// land: the table asks where the 9D went. The players say the racks are right as they are: the
// tracker plays East's discard and asks nothing more, and West's pick after it is played as
// usual, none faulty.
func TestRacksRightPlaysTheActsThatExplainThem(t *testing.T) {
	ft, tr := dealtTable(t, loadRules(t, "siamese"), loadCard(t), [4]string{
		"2B 2B 2B 4B 4B 6B 6B 6B 8B 8B 6C J 1D 9D",
		"1C 1C 1C 2C 2C 2C 3C 3C 3C 4C 4C 4C 5C 5C",
		"2D 2D 2D 3D 3D 3D 4D 4D 4D 5D 5D 5D 6D",
		"E E E S S S W W W N N N RD RD",
	})
	steps := hands(ft, tr, 8*time.Second, take(0, 1, sim.In, "9D")) // the camera saw nothing land
	if len(steps) != 0 || len(tr.Questions()) == 0 {
		t.Fatalf("before: acts %v, questions %+v: want none played and a question", acts(steps), tr.Questions())
	}
	st, err := tr.Command(Command{Seat: 1, Kind: CmdRacksRight, At: ft.now})
	if err != nil {
		t.Fatal(err)
	}
	discard := act(game.Action{Seat: 0, Act: game.ActDiscard, Tiles: []tile.Face{face("9D")}, Rack: 1}, game.Applied)
	if got := acts(st); !slices.Equal(got, []string{discard}) || st[0].Source != "reconciled" {
		t.Fatalf("reconciled with %v (source %q), want %v", got, st[0].Source, discard)
	}
	if len(tr.Questions()) != 0 {
		t.Fatalf("after: questions %+v, want none", tr.Questions())
	}
	later := hands(ft, tr, 8*time.Second, put(1, 1, sim.In, "9C"))
	pick := act(game.Action{Seat: 1, Act: game.ActDraw, Tiles: []tile.Face{face("9C")}, Rack: 1}, game.Applied)
	if got := acts(later); !slices.Equal(got, []string{pick}) || len(tr.Questions()) != 0 {
		t.Fatalf("after: acts %v, want %v; questions %+v", got, pick, tr.Questions())
	}
}

// TestRacksRightNamesWhatNoActExplains: East lays three tiles on its rack with no discard to
// call. No legal act explains that: the players are told which rack and what, and nothing is
// played.
func TestRacksRightNamesWhatNoActExplains(t *testing.T) {
	ft, tr := dealtTable(t, loadRules(t, "siamese"), loadCard(t), [4]string{
		"2B 2B 2B 4B 4B 6B 6B 6B 8B 8B 6C J 1D 9D",
		"1C 1C 1C 2C 2C 2C 3C 3C 3C 4C 4C 4C 5C 5C",
		"2D 2D 2D 3D 3D 3D 4D 4D 4D 5D 5D 5D 6D",
		"E E E S S S W W W N N N RD RD",
	})
	group, _ := tile.ParseList("2B 2B 2B")
	hands(ft, tr, 8*time.Second, sim.Op{Kind: sim.Take, Place: sim.Place{Seat: 0, Rack: 1, Zone: sim.In}, Tiles: group},
		sim.Op{Kind: sim.Put, Place: sim.Place{Seat: 0, Rack: 1, Zone: sim.On}, Tiles: group})
	seq := tr.State().Seq
	st, err := tr.Command(Command{Seat: 0, Kind: CmdRacksRight, At: ft.now})
	if !errors.Is(err, ErrUnreconciled) || len(st) != 0 {
		t.Fatalf("got %v, %v: want ErrUnreconciled and nothing played", acts(st), err)
	}
	for _, what := range []string{"seat 0 rack 1", "[2B 2B 2B] missing", "3 tiles lying on it more than its exposures", "enter the acts by hand"} {
		if !strings.Contains(err.Error(), what) {
			t.Errorf("error %q does not say %q", err, what)
		}
	}
	if tr.State().Seq != seq {
		t.Fatalf("the game moved from act %d to %d", seq, tr.State().Seq)
	}
}

// TestRacksRightJudgesADeclarationWithItsGatheredTiles: East gathers a 1D from rack 2 into rack
// 1, lays the hand face up and says "Mah Jongg!"; before the table judges it, the players say
// the racks are right. The gathering alone brings no rack closer (rack 1 stands empty, its
// tiles lying face up), so the search takes the gathering and the declaration as one step: the
// move, then the Mah Jongg, which the table had waiting.
func TestRacksRightJudgesADeclarationWithItsGatheredTiles(t *testing.T) {
	ft, tr := dealtTable(t, loadRules(t, "siamese"), loadCard(t), [4]string{
		"F F F F 1B 1B 1B 1C 1C 1C 1D 1D 1D 8B",
		"1D 2B 2B 2B 3B 3B 3B 4B 4B 4B 5B 5B 6B 6B",
		"2D 2D 2D 3D 3D 3D 4D 4D 4D 5D 5D 5D 6D",
		"E E E S S S W W W N N N RD RD",
	})
	eastThrowsWestPlays(ft, tr, take(0, 1, sim.In, "8B"), "9C")
	hands(ft, tr, 2*time.Second, put(0, 2, sim.In, "7B"))
	hand, _ := tile.ParseList("F F F F 1B 1B 1B 1C 1C 1C 1D 1D 1D 1D")
	laying := []Place{{0, 1, In}, {0, 1, On}, {0, 2, In}}
	ft.do(take(0, 2, sim.In, "1D"))
	ft.do(put(0, 1, sim.In, "1D"))
	ft.do(sim.Op{Kind: sim.Take, Place: sim.Place{Seat: 0, Rack: 1, Zone: sim.In}, Tiles: hand})
	ft.do(sim.Op{Kind: sim.Put, Place: sim.Place{Seat: 0, Rack: 1, Zone: sim.On}, Tiles: hand})
	steps := tr.Moving(laying, ft.now)
	st, err := tr.Command(Command{Seat: 0, Kind: CmdMahJongg, Rack: 1, At: ft.now})
	if err != nil {
		t.Fatal(err)
	}
	steps = append(steps, st...)
	steps = append(steps, ft.runUntil(tr, ft.now.Add(time.Second))...) // read, still held as moving
	steps = append(steps, tr.Moving(laying, ft.now)...)
	if len(steps) != 0 {
		t.Fatalf("judged before the racks were said right: %v", acts(steps))
	}
	st, err = tr.Command(Command{Seat: 1, Kind: CmdRacksRight, At: ft.now})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		(game.Action{Seat: 0, Act: game.ActMove, Tiles: []tile.Face{face("1D")}, Rack: 2, To: 1}).String(),
		(game.Action{Seat: 0, Act: game.ActMahJongg, Rack: 1}).String(),
	}
	if len(st) != len(want) {
		t.Fatalf("reconciled with %v, want %v", acts(st), want)
	}
	for i, s := range st {
		if !strings.HasPrefix(s.Action.String(), strings.TrimSuffix(want[i], "}")) || game.HasFaults(s.Verdicts) {
			t.Fatalf("reconciled with %v, want %v, none faulty", acts(st), want)
		}
	}
	if later := hands(ft, tr, 8*time.Second); len(later) != 0 {
		t.Fatalf("after: %v played again", acts(later))
	}
}

// TestRacksRightDoesNotGuessAPickNoReaderNamed: East, to pick, takes a tile from the wall and
// lays it face up with the hand at once, saying "Mah Jongg!"; the readers under the laid-down
// hand name only some of its tags, none of them the picked tile. Told the racks are right, the
// table does not guess the tile: more than one pick would complete the hand, so it says so and
// plays nothing.
func TestRacksRightDoesNotGuessAPickNoReaderNamed(t *testing.T) {
	ft, tr := dealtTable(t, loadRules(t, "siamese"), loadCard(t), [4]string{
		"F F F F 1B 1B 1B 1C 1C 1C 1D 1D 1D 8B",
		"2B 2B 2B 3B 3B 3B 4B 4B 4B 5B 5B 6B 6B 7B",
		"2D 2D 2D 3D 3D 3D 4D 4D 4D 5D 5D 5D 6D",
		"E E E S S S W W W N N N RD RD",
	})
	eastThrowsWestPlays(ft, tr, take(0, 1, sim.In, "8B"), "9C")
	hand, _ := tile.ParseList("F F F F 1B 1B 1B 1C 1C 1C 1D 1D 1D")
	laid, _ := tile.ParseList("F F F F 1B 1B 1B 1C 1C 1C 1D 1D 1D 1D")
	hands(ft, tr, time.Second, sim.Op{Kind: sim.Take, Place: sim.Place{Seat: 0, Rack: 1, Zone: sim.In}, Tiles: hand},
		sim.Op{Kind: sim.Put, Place: sim.Place{Seat: 0, Rack: 1, Zone: sim.On}, Tiles: laid})
	if _, err := tr.Command(Command{Seat: 0, Kind: CmdMahJongg, Rack: 1, At: ft.now}); err != nil {
		t.Fatal(err)
	}
	hands(ft, tr, 8*time.Second)
	seq := tr.State().Seq
	st, err := tr.Command(Command{Seat: 0, Kind: CmdRacksRight, At: ft.now})
	if !errors.Is(err, ErrUnreconciled) || !strings.Contains(err.Error(), "more than one run") || len(st) != 0 || tr.State().Seq != seq {
		t.Fatalf("got %v, %v (act %d -> %d): want more than one run named, and nothing played", acts(st), err, seq, tr.State().Seq)
	}
}
