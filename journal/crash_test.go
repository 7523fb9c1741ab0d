package journal

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/siamesetable/siamesed/engine/game"
)

func writeBytes(t testing.TB, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestResumeCutsATornTail: a last line cut short (half an action, or zeros where a write never
// landed) is reported and cut off; the game goes on from the action before, and the next
// append lands on a clean line that replays.
func TestResumeCutsATornTail(t *testing.T) {
	p := playGame(t, "siamese", "g", 3, 40)
	for _, c := range []struct{ name, tail string }{
		{"half a line", `{"seat":1,"act":"dra`},
		{"zeros", strings.Repeat("\x00", 37)},
		{"half a line then zeros", `{"seat":1,"act":"draw","ti` + strings.Repeat("\x00", 12)},
		{"a whole action with a byte wrong", `{"seat":1,"act":"draw","tiles":["5X"]}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, path := writeGame(t, p, 30)
			good := readFile(t, path)
			writeBytes(t, path, append(bytes.Clone(good), c.tail...))
			w, g, err := d.Resume(path, Sources{})
			if err != nil {
				t.Fatal(err)
			}
			if g.Torn == nil || g.Torn.Offset != int64(len(good)) || g.Torn.Line != 32 {
				t.Fatalf("torn %+v, want line 32 at offset %d", g.Torn, len(good))
			}
			sameState(t, g.State, p.states[30])
			if got := readFile(t, path); !bytes.Equal(got, good) {
				t.Fatalf("the torn tail was not cut: %d bytes, want %d", len(got), len(good))
			}
			for _, a := range p.acts[30:] {
				if err := w.Append(a); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			g, err = Load(path, Sources{})
			if err != nil || g.Torn != nil {
				t.Fatalf("after going on: %v, torn %v", err, g.Torn)
			}
			sameState(t, g.State, p.states[40])
		})
	}
}

// TestResumeRefusesDamage: a bad line with more after it, or an act that cannot have happened,
// stops the resume with the file and line, and the file stays byte for byte as it was.
func TestResumeRefusesDamage(t *testing.T) {
	p := playGame(t, "siamese", "g", 3, 20)
	impossible := `{"seat":0,"act":"discard","tiles":["J"],"rack":1}` // seat 0 holds no joker in this deal
	for _, c := range []struct {
		name string
		edit func(lines []string) []string
		want string
	}{
		{"a bad line in the middle", func(l []string) []string { l[5] = `{"seat":1,"act":"dra`; return l }, ": damaged game log: line 6: "},
		{"zeros in the middle", func(l []string) []string { l[5] = strings.Repeat("\x00", 20); return l }, ": damaged game log: line 6: "},
		{"a second header", func(l []string) []string { l[9] = l[0]; return l }, "line 10: a header line is only allowed first"},
		{"an impossible act in the middle", func(l []string) []string { l[7] = impossible; return l }, ": :8: impossible action"},
		{"an impossible last act", func(l []string) []string { l[20] = impossible; return l }, ": :21: impossible action"},
		{"a bad last line with its newline", func(l []string) []string { l[20] = `{"seat":1,"act":"dra`; return l }, ": damaged game log: line 21: "},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, path := writeGame(t, p, 20)
			lines := strings.SplitAfter(string(readFile(t, path)), "\n")
			lines = lines[:len(lines)-1] // the empty string after the last newline
			lines = c.edit(lines)
			for i, l := range lines {
				if !strings.HasSuffix(l, "\n") {
					lines[i] = l + "\n"
				}
			}
			damaged := []byte(strings.Join(lines, ""))
			writeBytes(t, path, damaged)
			w, _, err := d.Resume(path, Sources{})
			if err == nil || w != nil {
				t.Fatalf("resumed a damaged log (err %v)", err)
			}
			msg := strings.ReplaceAll(err.Error(), path, "")
			if !strings.Contains(err.Error(), path) || !strings.Contains(msg, c.want) || !strings.Contains(msg, "games/set-aside/") {
				t.Errorf("error %q does not name the file, %q and where to set it aside", err, c.want)
			}
			if got := readFile(t, path); !bytes.Equal(got, damaged) {
				t.Error("the damaged file was changed")
			}
		})
	}
}

// TestKillAtEveryByte: a power cut at any moment of the last append, simulated by cutting the
// file at every byte of the last line (and by zeros where the rest never landed), resumes to
// the state before that action or after it, never an error, and the game goes on.
func TestKillAtEveryByte(t *testing.T) {
	p := playGame(t, "siamese", "g", 5, 12)
	d, path := writeGame(t, p, 12)
	full := readFile(t, path)
	start := bytes.LastIndexByte(full[:len(full)-1], '\n') + 1
	for cut := start; cut <= len(full); cut++ {
		for _, zeros := range []bool{false, true} {
			b := bytes.Clone(full[:cut])
			if zeros {
				b = append(b, make([]byte, len(full)-cut)...)
			}
			writeBytes(t, path, b)
			w, g, err := d.Resume(path, Sources{})
			if err != nil {
				t.Fatalf("cut at %d (zeros %v): %v", cut, zeros, err)
			}
			n := g.State.Seq
			if n != 11 && n != 12 {
				t.Fatalf("cut at %d: %d actions", cut, n)
			}
			sameState(t, g.State, p.states[n])
			if n == 11 {
				err = w.Append(p.acts[11])
			}
			if cerr := w.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := readFile(t, path); !bytes.Equal(got, full) {
				t.Fatalf("cut at %d (zeros %v): the log after going on is not the whole log:\n%q", cut, zeros, got[start:])
			}
		}
	}
}

// TestConcurrentAppends: two goroutines appending to one Writer are serialised: every line is
// whole and every action is there once.
func TestConcurrentAppends(t *testing.T) {
	p := playGame(t, "royale-4", "g", 9, 200)
	d, err := OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	w, err := d.Create(p.header, p.card)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	for half := range 2 {
		wg.Go(func() {
			for _, a := range p.acts[half*100 : half*100+100] {
				if err := w.Append(a); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	if err := errors.Join(<-errs, <-errs, w.Close()); err != nil {
		t.Fatal(err)
	}
	l, err := game.ReadLog(bytes.NewReader(readFile(t, w.Path())))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, a := range l.Actions {
		line, _ := actionLine(a)
		seen[string(line)]++
	}
	for _, a := range p.acts[:200] {
		line, _ := actionLine(a)
		seen[string(line)]--
	}
	for line, n := range seen {
		if n != 0 {
			t.Errorf("%d too many of %s", n, line)
		}
	}
}
