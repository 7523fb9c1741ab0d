package daemon

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/history"
	"github.com/siamesetable/siamesed/internal/clock"
	"github.com/siamesetable/siamesed/journal"
)

// playedGame plays one simulated game into a fresh data directory and returns the directory
// and the game's journal.
func playedGame(t *testing.T) (dir, path string, lines [][]byte) {
	t.Helper()
	dir = t.TempDir()
	r := runSim(t, fastConfig(1, 0.01), dir)
	if len(r.games) != 1 {
		t.Fatalf("%d games", len(r.games))
	}
	r.d.close()
	path = filepath.Join(dir, journal.GamesDir, r.games[0].id+journal.LogExt)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return dir, path, bytes.SplitAfter(b, []byte("\n"))
}

// startDaemon builds a daemon on dir as `siamesed run` would after a restart.
func startDaemon(t *testing.T, cfg Config, dir string, log *logBuffer) (*daemon, error) {
	t.Helper()
	d := &daemon{cfg: cfg, opt: Options{DataDir: dir, Log: log.Logger()}, log: log.Logger(), clk: clock.NewFake(time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC))}
	if err := d.build(); err != nil {
		return nil, err
	}
	t.Cleanup(d.close)
	return d, nil
}

// TestRestartCarriesOnTheGameInPlay: a daemon stopped mid-game, its last line half written,
// restarts to exactly the state its journal holds (the torn line cut and reported), loses no
// act, and the players then finish the game, which the history records.
func TestRestartCarriesOnTheGameInPlay(t *testing.T) {
	dir, path, lines := playedGame(t)
	if err := os.Remove(history.Path(dir)); err != nil {
		t.Fatal(err)
	}
	keep := len(lines) / 2
	cut := bytes.Join(lines[:keep], nil)
	torn := append(bytes.Clone(cut), lines[keep][:len(lines[keep])/2]...)
	if err := os.WriteFile(path, torn, 0o644); err != nil {
		t.Fatal(err)
	}
	want, err := journal.Read(path, bytes.NewReader(cut), journal.Sources{})
	if err != nil {
		t.Fatal(err)
	}

	log := newLogBuffer()
	d, err := startDaemon(t, fastConfig(1, 0.01), dir, log)
	if err != nil {
		t.Fatal(err)
	}
	if got := d.table.Game(); got.Digest() != want.State.Digest() {
		t.Fatalf("resumed at act %d (%s), the journal holds %d (%s)", got.Seq, got.Digest(), want.State.Seq, want.State.Digest())
	}
	if !log.Has("torn last line was cut") || !log.Has("digest="+want.State.Digest()) {
		t.Errorf("the restart did not report the torn line and the state it resumed:\n%s", log)
	}
	if err := d.runFast(t.Context()); err != errDone {
		t.Fatalf("the resumed game did not finish: %v", err)
	}
	if !d.table.Waiting() || d.table.Game().Result == nil {
		t.Fatal("the resumed game is not over")
	}
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(after, cut) {
		t.Fatal("the journal after the restart does not begin with every act journaled before it")
	}
	again, err := journal.Load(path, journal.Sources{})
	if err != nil {
		t.Fatalf("the journal written on after the restart cannot be read: %v", err)
	}
	if again.State.Digest() != d.table.Game().Digest() {
		t.Fatal("the journal replayed does not end where the daemon ended the game")
	}
	assertRecorded(t, dir, filepath.Base(strings.TrimSuffix(path, journal.LogExt)))
}

func assertRecorded(t *testing.T, dir, id string) {
	t.Helper()
	db, err := history.Open(history.Path(dir), history.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	g, err := db.Get(id)
	if err != nil {
		t.Fatalf("the history lacks game %s: %v", id, err)
	}
	if g.ID != id {
		t.Fatalf("history gave %s for %s", g.ID, id)
	}
}

// TestRestartRecordsAGameEndedButNotRecorded: stopped between journaling a game's last act
// and recording it, the daemon records it on its next start.
func TestRestartRecordsAGameEndedButNotRecorded(t *testing.T) {
	dir, path, _ := playedGame(t)
	if err := os.Remove(history.Path(dir)); err != nil {
		t.Fatal(err)
	}
	log := newLogBuffer()
	if _, err := startDaemon(t, fastConfig(1, 0), dir, log); err != nil {
		t.Fatal(err)
	}
	assertRecorded(t, dir, strings.TrimSuffix(filepath.Base(path), journal.LogExt))
	if !log.Has("missing from the history was recorded") {
		t.Errorf("the recovery was not logged:\n%s", log)
	}
}

// TestRestartRefusesADamagedJournal: damage before a journal's end stops the start with the
// file and line named, and the file is left as it was.
func TestRestartRefusesADamagedJournal(t *testing.T) {
	dir, path, lines := playedGame(t)
	if err := os.Remove(history.Path(dir)); err != nil {
		t.Fatal(err)
	}
	lines[5] = []byte("{\"seat\": 1, \"act\": \"dr\n")
	damaged := bytes.Join(lines[:len(lines)/2], nil)
	if err := os.WriteFile(path, damaged, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := startDaemon(t, fastConfig(1, 0), dir, newLogBuffer())
	if err == nil || !strings.Contains(err.Error(), path+": damaged game log: line 6") || !strings.Contains(err.Error(), "set-aside") {
		t.Fatalf("start over a damaged journal: %v, want the file, line 6 and how to set it aside", err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(after, damaged) {
		t.Fatal("the damaged journal was changed")
	}
}

// TestNewGameNeverTakesAPlayedGamesFile: a clock set back names the new game like an old one;
// the new game gets a suffix and the old file is untouched.
func TestNewGameNeverTakesAPlayedGamesFile(t *testing.T) {
	d, err := startDaemon(t, fastConfig(1, 0), t.TempDir(), newLogBuffer())
	if err != nil {
		t.Fatal(err)
	}
	first := d.table.GameID()
	before, err := os.ReadFile(d.table.dir.GamePath(first))
	if err != nil {
		t.Fatal(err)
	}
	at := d.clk.Now()
	for _, want := range []string{first + "-2", first + "-3"} {
		d.table.waiting = true
		if err := d.table.NewGame(at); err != nil {
			t.Fatal(err)
		}
		if d.table.GameID() != want {
			t.Fatalf("new game %s, want %s", d.table.GameID(), want)
		}
	}
	if after, _ := os.ReadFile(d.table.dir.GamePath(first)); !bytes.Equal(after, before) {
		t.Fatal("the first game's journal changed")
	}
}

// logBuffer keeps what a daemon logs, for a test to read.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func newLogBuffer() *logBuffer { return &logBuffer{} }

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) Logger() *slog.Logger { return slog.New(slog.NewTextHandler(l, nil)) }

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// Has reports whether anything logged contains s.
func (l *logBuffer) Has(s string) bool { return strings.Contains(l.String(), s) }
