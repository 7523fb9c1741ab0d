package enroll

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/internal/clock"
)

// scripted is a reader that answers each read with the next line of a script.
type scripted struct {
	reads [][]string
	errs  []error
	n     int
}

func (s *scripted) ReadTags() ([]string, error) {
	i := s.n
	s.n++
	if i >= len(s.reads) {
		return nil, nil
	}
	return s.reads[i], s.errs[i]
}

// TestLoopTakesOneNewTagAtATime: a tag left lying on the reader is not taken twice, an enrolled
// tag placed again is rejected, a reader error is reported and the loop goes on, and the loop
// stops at its limit with every tag saved.
func TestLoopTakesOneNewTagAtATime(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tags.yaml")
	store, err := Open(path, tile.American())
	if err != nil {
		t.Fatal(err)
	}
	r := &scripted{
		reads: [][]string{{"AA:00:00:01"}, {"AA:00:00:01"}, nil, {"BB:00:00:02"}, {"AA:00:00:01"}, nil, {"CC:00:00:03", "DD:00:00:04"}},
		errs:  []error{nil, nil, errors.New("bus"), nil, nil, nil, nil},
	}
	clk := clock.NewFake(time.Unix(0, 0))
	var events []Event
	done := make(chan error)
	go func() {
		done <- Loop(context.Background(), clk, store, r, 50*time.Millisecond, 3, func(e Event) { events = append(events, e) })
	}()
	for i := 0; i < 20; i++ {
		for clk.Pending() == 0 {
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
				goto finished
			default:
				time.Sleep(time.Millisecond)
			}
		}
		clk.Advance(50 * time.Millisecond)
	}
	t.Fatal("the loop never stopped")
finished:
	var kinds []EventKind
	for _, e := range events {
		kinds = append(kinds, e.Kind)
	}
	want := []EventKind{Prompt, Enrolled, Prompt, ReaderError, Enrolled, Prompt, Rejected, Enrolled}
	if len(kinds) != len(want) {
		t.Fatalf("events %v, want %v", kinds, want)
	}
	for i := range want {
		if kinds[i] != want[i] {
			t.Fatalf("events %v, want %v", kinds, want)
		}
	}
	again, err := Open(path, tile.American())
	if err != nil {
		t.Fatal(err)
	}
	if done, _ := again.Progress(); done != 3 {
		t.Fatalf("%d tags saved, want 3", done)
	}
	if f, ok := again.Face("CC:00:00:03"); !ok || f != events[len(events)-1].Face {
		t.Fatalf("CC saved as %v %v", f, ok)
	}
}
