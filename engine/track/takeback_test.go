package track

import (
	"testing"
	"time"

	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/tile"
)

// TestResumedTableTakesBackActsBeforeTheRestart: a tracker resumed from a journal's replay
// (game.ReplayUndo) can take back the acts played before the restart, the last takeBackDepth
// of them, and no more.
func TestResumedTableTakesBackActsBeforeTheRestart(t *testing.T) {
	r, c := loadRules(t, "siamese"), loadCard(t)
	racks := []string{"2B 2B 2B 4B 4B 6B 6B 6B 8B 8B 6C J 1D 9D", "1C 1C 1C 2C 2C 2C 3C 3C 3C 4C 4C 4C 5C 5C", "2D 2D 2D 3D 3D 3D 4D 4D 4D 5D 5D 5D 6D", "E E E S S S W W W N N N RD RD"}
	var log []game.Action
	for i, tiles := range racks {
		fs, err := tile.ParseList(tiles)
		if err != nil {
			t.Fatal(err)
		}
		log = append(log, game.Action{Seat: i / 2, Act: game.ActDeal, Tiles: fs, Rack: i%2 + 1})
	}
	for _, n := range []string{"0 discard 9D r1", "1 draw 9C r1", "1 discard 9C r1", "0 draw 7B r1", "0 discard 7B r1", "1 draw 8C r1", "1 discard 8C r1", "0 draw 7C r1"} {
		a, err := game.ParseNotation(n)
		if err != nil {
			t.Fatal(err)
		}
		log = append(log, a)
	}
	s, _, undo, err := game.ReplayUndo(game.New(r, c), log, takeBackDepth)
	if err != nil {
		t.Fatal(err)
	}
	tr := Resume(DefaultConfig(), s, undo)
	at := time.Unix(0, 0)
	for i := len(log) - 1; i >= len(log)-takeBackDepth; i-- {
		steps, err := tr.Command(Command{Seat: 1, Kind: CmdTakeBack, At: at})
		if err != nil {
			t.Fatalf("taking back %s: %v", log[i].Notation(), err)
		}
		if len(steps) != 1 || steps[0].Action.Act != game.ActTakeBack || steps[0].Action.Seat != log[i].Seat {
			t.Fatalf("taking back %s played %v", log[i].Notation(), acts(steps))
		}
	}
	if got := tr.State().InEffect(); got != len(log)-takeBackDepth {
		t.Fatalf("%d acts in effect, want %d", got, len(log)-takeBackDepth)
	}
	if _, err := tr.Command(Command{Seat: 1, Kind: CmdTakeBack, At: at}); err == nil {
		t.Fatal("took back more than the tracker keeps")
	}
}
