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
