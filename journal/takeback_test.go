package journal

import (
	"testing"

	"github.com/siamesetable/siamesed/engine/game"
)

// TestResumeTakesBackAcrossARestart: a log whose last acts were taken back resumes to the game
// without them, and the game resumed can still take back the acts before: the states the
// replay passed through come with it.
func TestResumeTakesBackAcrossARestart(t *testing.T) {
	p := playGame(t, "siamese", "2026-11-26T20-00-00Z", 9, 60)
	d, path := writeGame(t, p, 50)
	w, _, err := d.Resume(path, Sources{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 49; i >= 48; i-- {
		a := game.Action{Seat: p.acts[i].Seat, Act: game.ActTakeBack}
		if err := w.Append(a); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	w, g, err := d.Resume(path, Sources{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if g.State.Seq != 52 || g.State.InEffect() != 48 {
		t.Fatalf("seq %d, %d acts in effect: want 52 lines and 48 acts", g.State.Seq, g.State.InEffect())
	}
	sameView(t, g.State, p.states[48])
	if g.Undo == nil || g.Undo.Depth() != game.TakeBackDepth {
		t.Fatalf("the resumed game can take back %v acts, want the last %d", g.Undo, game.TakeBackDepth)
	}
	back, _, err := g.Undo.TakeBack(g.State, game.Action{Seat: p.acts[47].Seat, Act: game.ActTakeBack})
	if err != nil {
		t.Fatal(err)
	}
	sameView(t, back, p.states[47])
}

// sameView fails unless got is want but for the lines of the log (Seq and TakenBack).
func sameView(t testing.TB, got, want game.State) {
	t.Helper()
	got.Seq, got.TakenBack = want.Seq, want.TakenBack
	sameState(t, got, want)
}
