package journal

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestUnfinished: the games whose log does not end them, newest first; finished games, games
// known done, set-aside games and temporary files are left out; a damaged log is an error
// naming it, with the readable games still listed.
func TestUnfinished(t *testing.T) {
	d, err := OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	add := func(id string, acts int, mtime time.Time) string {
		p := playGame(t, "siamese", id, 2, acts)
		w, err := d.Create(p.header, p.card)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range p.acts {
			if err := w.Append(a); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(w.Path(), mtime, mtime); err != nil {
			t.Fatal(err)
		}
		return w.Path()
	}
	t0 := time.Date(2020, 11, 23, 19, 0, 0, 0, time.UTC) // before now: a rewritten log is the newest
	add("finished", 10000, t0.Add(5*time.Minute))
	add("old", 10, t0)
	add("new", 20, t0.Add(time.Minute))
	add("recorded", 5, t0.Add(2*time.Minute))
	add("just-created", 0, t0.Add(30*time.Second))
	aside := filepath.Join(d.Root(), GamesDir, SetAsideDir)
	if err := os.Mkdir(aside, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(aside, "broken.jsonl"), []byte("{\n{\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d.Root(), GamesDir, ".x.jsonl.tmp-1"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	done := func(id string) bool { return id == "recorded" }

	open, err := d.Unfinished(done)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, g := range open {
		ids = append(ids, g.ID)
		if g.Game == nil || g.Path != d.GamePath(g.ID) {
			t.Errorf("%s: game %v, path %s", g.ID, g.Game, g.Path)
		}
	}
	if got := strings.Join(ids, " "); got != "new just-created old" {
		t.Errorf("unfinished %q, want newest first without the finished and recorded games", got)
	}
	if open[0].Game.State.Seq != 20 {
		t.Errorf("new: %d actions", open[0].Game.State.Seq)
	}
	_, over, err := d.Unrecorded(done)
	if err != nil {
		t.Fatal(err)
	}
	if len(over) != 1 || over[0].ID != "finished" || over[0].Game.State.Phase != "over" {
		t.Errorf("over but unrecorded: %v, want the finished game, not the recorded one", over)
	}

	bad := add("damaged", 10, t0.Add(3*time.Minute))
	b := readFile(t, bad)
	writeBytes(t, bad, append([]byte("#\n"), b[:len(b)-2]...)) // a comment first; the last line torn
	open, err = d.Unfinished(done)
	if err != nil {
		t.Fatalf("a torn tail is not damage: %v", err)
	}
	if open[0].ID != "damaged" || open[0].Game.Torn == nil {
		t.Fatalf("first %s, torn %v", open[0].ID, open[0].Game.Torn)
	}
	b = readFile(t, bad)
	writeBytes(t, bad, append(b, "\n{}\n"...))
	writeBytes(t, d.GamePath("damaged2"), []byte(`{"log":"siamese-table-game","version":2}`+"\n{}\n"))
	open, err = d.Unfinished(done)
	if err == nil || !strings.Contains(err.Error(), bad+": damaged game log: line") || !strings.Contains(err.Error(), "damaged2.jsonl") {
		t.Fatalf("err %v, want both damaged logs named", err)
	}
	if len(open) != 3 {
		t.Errorf("%d games listed beside the damage, want 3", len(open))
	}
}
