package journal

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/siamesetable/siamesed/engine/game"
)

// writeGame journals p.acts[:n] under a new data directory and returns the directory and log.
func writeGame(t testing.TB, p played, n int) (*Dir, string) {
	t.Helper()
	d, err := OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	w, err := d.Create(p.header, p.card)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range p.acts[:n] {
		if err := w.Append(a); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return d, w.Path()
}

// sameState fails unless got is want as everyone sees it: the public view, every seat's view
// (its concealed tiles too), the phase, sequence number and result.
func sameState(t testing.TB, got, want game.State) {
	t.Helper()
	views := func(s game.State) string {
		parts := []any{s.Phase, s.Seq, s.Result, s.PublicView()}
		for i := range s.Seats {
			parts = append(parts, s.SeatView(i))
		}
		b, err := json.Marshal(parts)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if g, w := views(got), views(want); g != w {
		t.Fatalf("state differs:\n got %.400s\nwant %.400s", g, w)
	}
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRoundTrip: a game appended act by act and resumed is the game played in memory, with the
// same verdicts, and goes on from there; the log replays with the card copy the journal kept.
func TestRoundTrip(t *testing.T) {
	p := playGame(t, "royale-4", "2026-11-23T19-04-11Z", 7, 300)
	d, path := writeGame(t, p, 200)
	w, g, err := d.Resume(path, Sources{})
	if err != nil {
		t.Fatal(err)
	}
	if g.Torn != nil {
		t.Fatalf("torn: %v", g.Torn)
	}
	sameState(t, g.State, p.states[200])
	for _, a := range p.acts[200:] {
		if err := w.Append(a); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	g, err = Load(path, Sources{})
	if err != nil {
		t.Fatal(err)
	}
	sameState(t, g.State, p.states[300])
	_, want, err := game.Replay(p.header.Start(g.Rules, p.card.Card), p.acts)
	if err != nil {
		t.Fatal(err)
	}
	gotV, _ := json.Marshal(g.Verdicts)
	wantV, _ := json.Marshal(want)
	if !bytes.Equal(gotV, wantV) {
		t.Errorf("verdicts differ after the journal:\n got %.300s\nwant %.300s", gotV, wantV)
	}
	if g.Card.Path != filepath.Join(d.Root(), GamesDir, "..", CardsDir, p.header.Card.SHA256+".yaml") {
		t.Errorf("card read from %q, not the journal's copy", g.Card.Path)
	}
	if n := bytes.Count(readFile(t, path), []byte("\n")); n != 301 {
		t.Errorf("%d lines, want the header and 300 actions", n)
	}
}

// TestCreateRefuses: a bad or used id, a header that is not one, or a card the header does not
// name start no game, and a used id's log is left as it was.
func TestCreateRefuses(t *testing.T) {
	p := playGame(t, "siamese", "g1", 1, 0)
	d, path := writeGame(t, p, 0)
	before := readFile(t, path)
	other := p
	other.card.Data = append(bytes.Clone(p.card.Data), '\n')
	for _, c := range []struct {
		name string
		edit func(h *game.Header)
		p    played
		want string
	}{
		{"used id", func(h *game.Header) {}, p, `game id "g1" is already used`},
		{"no id", func(h *game.Header) { h.Game = "" }, p, "no game id"},
		{"path in id", func(h *game.Header) { h.Game = "../g2" }, p, `'.' at byte 0`},
		{"separator in id", func(h *game.Header) { h.Game = "a/b" }, p, `'/' at byte 1`},
		{"hidden id", func(h *game.Header) { h.Game = ".g" }, p, `'.' at byte 0`},
		{"long id", func(h *game.Header) { h.Game = strings.Repeat("a", 65) }, p, "more than 64"},
		{"no version", func(h *game.Header) { h.Game, h.Version = "g2", 0 }, p, "version 0"},
		{"other card", func(h *game.Header) { h.Game = "g3" }, other, "but the card given is"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := c.p.header
			c.edit(&h)
			w, err := d.Create(h, c.p.card)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err %v, want %q", err, c.want)
			}
			if w != nil {
				t.Error("a writer with an error")
			}
		})
	}
	if !bytes.Equal(readFile(t, path), before) {
		t.Error("the used id's log changed")
	}
	ents, err := os.ReadDir(filepath.Join(d.Root(), GamesDir))
	if err != nil || len(ents) != 1 {
		t.Errorf("games/ holds %d entries (%v), want only g1's log", len(ents), err)
	}
}

// TestAppendRefusesWhatWouldNotReadBack: an action that would be damage in the log is not
// written; nor is anything after Close.
func TestAppendRefusesWhatWouldNotReadBack(t *testing.T) {
	p := playGame(t, "siamese", "g", 1, 3)
	d, err := OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	w, err := d.Create(p.header, p.card)
	if err != nil {
		t.Fatal(err)
	}
	before := readFile(t, w.Path())
	for _, a := range []game.Action{
		{Seat: 0, Act: game.ActDraw},
		{Seat: 0, Act: game.ActDraw, Tiles: p.acts[2].Tiles, Rack: 3},
		{Seat: 0, Act: "juggle"},
	} {
		if err := w.Append(a); err == nil || !strings.Contains(err.Error(), "would not read back") {
			t.Errorf("%+v: err %v", a, err)
		}
	}
	if !bytes.Equal(readFile(t, w.Path()), before) {
		t.Error("a refused action was written")
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Append(p.acts[0]); !errors.Is(err, ErrClosed) {
		t.Errorf("append after close: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Errorf("second close: %v", err)
	}
}

// failing is an appender whose writes fail, like a disk that is full.
type failing struct{ appends int }

func (f *failing) Append([]byte) error { f.appends++; return errors.New("no space left on device") }
func (f *failing) Close() error        { return nil }

// TestWriterStopsAfterAFailedWrite: after one failed write nothing more is written, since only a
// replay knows what reached the disk.
func TestWriterStopsAfterAFailedWrite(t *testing.T) {
	p := playGame(t, "siamese", "g", 1, 3)
	f := &failing{}
	w := &Writer{path: "g.jsonl", app: f}
	if err := w.Append(p.acts[0]); err == nil || !strings.Contains(err.Error(), "no space") {
		t.Fatalf("first append: %v", err)
	}
	if err := w.Append(p.acts[1]); err == nil || !strings.Contains(err.Error(), "resume the game") {
		t.Fatalf("second append: %v", err)
	}
	if f.appends != 1 {
		t.Errorf("%d writes tried, want 1", f.appends)
	}
}

// TestCardCopy: Create keeps the card as cards/<sha256>.yaml, and rewrites a copy whose bytes
// no longer match its name, since replay trusts it.
func TestCardCopy(t *testing.T) {
	p := playGame(t, "siamese", "g1", 1, 0)
	d, _ := writeGame(t, p, 0)
	copyPath := filepath.Join(d.Root(), CardsDir, p.header.Card.SHA256+".yaml")
	if !bytes.Equal(readFile(t, copyPath), p.card.Data) {
		t.Fatal("the card copy is not the card")
	}
	writeBytes(t, copyPath, []byte("name: damaged\n"))
	h := p.header
	h.Game = "g2"
	w, err := d.Create(h, p.card)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(readFile(t, copyPath), p.card.Data) {
		t.Error("a damaged card copy was kept")
	}
}
