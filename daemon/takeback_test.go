package daemon

import (
	"bytes"
	"os"
	"testing"

	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/track"
	"github.com/siamesetable/siamesed/history"
	"github.com/siamesetable/siamesed/journal"
)

// TestTakeBackIsJournaledAndOutlivesARestart: a take back a player gives is journaled as a
// take_back line and logged with the seat that gave it; the daemon restarted resumes to the
// game with the act taken back, and can take back the act before it, played before either
// restart.
func TestTakeBackIsJournaledAndOutlivesARestart(t *testing.T) {
	dir, path, lines := playedGame(t)
	if err := os.Remove(history.Path(dir)); err != nil { // the game still in play
		t.Fatal(err)
	}
	cut := bytes.Join(lines[:len(lines)/2], nil) // the game in play, half way
	if err := os.WriteFile(path, cut, 0o644); err != nil {
		t.Fatal(err)
	}
	before, err := journal.Read(path, bytes.NewReader(cut), journal.Sources{})
	if err != nil {
		t.Fatal(err)
	}
	n := len(before.Actions)
	last, previous := before.Actions[n-1], before.Actions[n-2]

	log := newLogBuffer()
	d, err := startDaemon(t, fastConfig(1, 0.01), dir, log)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.table.Command(track.Command{Seat: 1, Kind: track.CmdTakeBack, At: d.table.now}); err != nil {
		t.Fatalf("taking back %s: %v", last.Notation(), err)
	}
	if !log.Has("kind=take_back") || !log.Has("seat=1") {
		t.Errorf("the take back is not logged with the seat that gave it:\n%s", log)
	}
	d.close()
	after, err := journal.Load(path, journal.Sources{})
	if err != nil {
		t.Fatal(err)
	}
	if got := after.Actions[len(after.Actions)-1]; got.Act != game.ActTakeBack || got.Seat != last.Seat {
		t.Fatalf("the journal ends with %s, want a take_back of seat %d's %s", got.Notation(), last.Seat, last.Notation())
	}
	if after.State.InEffect() != n-1 || after.State.TakenBack != 1 {
		t.Fatalf("the journal replays to %d acts in effect, %d taken back: want %d and 1", after.State.InEffect(), after.State.TakenBack, n-1)
	}

	d, err = startDaemon(t, fastConfig(1, 0.01), dir, newLogBuffer())
	if err != nil {
		t.Fatal(err)
	}
	if got := d.table.Game(); got.Digest() != after.State.Digest() {
		t.Fatalf("restarted at %s, the journal holds %s", got.Digest(), after.State.Digest())
	}
	if err := d.table.Command(track.Command{Seat: 0, Kind: track.CmdTakeBack, At: d.table.now}); err != nil {
		t.Fatalf("after the restart, taking back %s: %v", previous.Notation(), err)
	}
	if got := d.table.Game(); got.InEffect() != n-2 || got.TakenBack != 2 {
		t.Fatalf("after the restart's take back: %d acts in effect, %d taken back; want %d and 2", got.InEffect(), got.TakenBack, n-2)
	}
}
