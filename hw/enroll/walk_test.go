package enroll

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/internal/clock"
)

// field is a reader's field that a test's hand sets tiles in.
type field struct {
	mu   sync.Mutex
	uids []string
}

func (f *field) set(uids ...string) {
	f.mu.Lock()
	f.uids = uids
	f.mu.Unlock()
}

func (f *field) ReadTags() ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.uids...), nil
}

// walker drives a walk on a fake clock.
type walker struct {
	t   *testing.T
	w   *Walk
	clk *clock.Fake
}

// until advances the clock a period at a time until cond holds of the walk's state.
func (k walker) until(what string, cond func(WalkState) bool) WalkState {
	k.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		st := k.w.State()
		if cond(st) {
			return st
		}
		if time.Now().After(deadline) {
			k.t.Fatalf("waiting for %s: the walk is %+v", what, st)
		}
		if k.clk.Pending() > 0 {
			k.clk.Advance(50 * time.Millisecond)
		} else {
			time.Sleep(time.Millisecond)
		}
	}
}

// TestWalkAdvancesByItselfAndResumes: the walk asks for the set's faces in order and takes each
// new tag read as the face asked for, with no action between tiles; a tag already enrolled is
// named with its face and nothing saved changes; stopped, it keeps every tag, and a walk on the
// same file goes on from there; the prompt comes back once the tag refused is taken off; it cannot start while it runs, nor while allowed says no, and
// it stops, saying why, when allowed says no as it runs.
func TestWalkAdvancesByItselfAndResumes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tags.yaml")
	store, err := Open(path, tile.American())
	if err != nil {
		t.Fatal(err)
	}
	clk := clock.NewFake(time.Unix(0, 0))
	k := walker{t: t, w: NewWalk(store, clk, 50*time.Millisecond), clk: clk}
	hand := &field{}
	var refuse error
	var mu sync.Mutex
	allowed := func() error { mu.Lock(); defer mu.Unlock(); return refuse }
	if st := k.w.State(); st.Running || st.Next != "1B" || st.Total != 152 {
		t.Fatalf("before the walk: %+v", st)
	}
	if err := k.w.Start("p1a/in-00", hand, allowed); err != nil {
		t.Fatal(err)
	}
	if err := k.w.Start("p1a/in-01", hand, allowed); !errors.Is(err, ErrWalking) {
		t.Fatalf("a second start: %v", err)
	}
	k.until("the first prompt", func(s WalkState) bool { return strings.HasPrefix(s.Message, "place a 1B on p1a/in-00") })
	uids := []string{"04:00:00:01", "04:00:00:02", "04:00:00:03", "04:00:00:04", "04:00:00:05"}
	for i, u := range uids[:4] {
		hand.set(u)
		st := k.until("tile "+u, func(s WalkState) bool { return s.Done == i+1 })
		if st.Last == nil || st.Last.UID != u || st.Last.Face != "1B" || st.Last.Kind != Enrolled {
			t.Fatalf("tile %d: %+v", i, st.Last)
		}
		hand.set()
		k.until("the field empty", func(s WalkState) bool { return s.Seq > st.Seq || i == 3 })
	}
	k.until("the next face", func(s WalkState) bool { return s.Next == "2B" })

	// A tag already enrolled: named, nothing saved changes.
	before, _ := os.ReadFile(path)
	hand.set(uids[1])
	st := k.until("the duplicate named", func(s WalkState) bool { return s.Last.Kind == Rejected })
	if !st.Problem || !strings.Contains(st.Message, "04:00:00:02 is already enrolled, as 1B") || !strings.Contains(st.Message, "nothing was saved") || st.Done != 4 {
		t.Fatalf("a duplicate: %+v", st)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Fatalf("the duplicate changed the file:\n%s\nto\n%s", before, after)
	}
	hand.set()
	// Once it is taken off, the prompt is back.
	k.until("the prompt again", func(s WalkState) bool { return !s.Problem && strings.HasPrefix(s.Message, "place a 2B") })

	// Stopped and resumed, from another walk on the same file.
	k.w.Stop()
	if st := k.w.State(); st.Running || !strings.Contains(st.Message, "stopped at 4 of 152") || st.Problem {
		t.Fatalf("stopped: %+v", st)
	}
	again, err := Open(path, tile.American())
	if err != nil {
		t.Fatal(err)
	}
	k.w = NewWalk(again, clk, 50*time.Millisecond)
	if st := k.w.State(); st.Done != 4 || st.Next != "2B" {
		t.Fatalf("resumed: %+v", st)
	}
	if err := k.w.Start("p1a/in-00", hand, allowed); err != nil {
		t.Fatal(err)
	}
	hand.set(uids[4])
	if st := k.until("the fifth tile", func(s WalkState) bool { return s.Done == 5 }); st.Last.Face != "2B" {
		t.Fatalf("the fifth tile: %+v", st.Last)
	}

	// A game begins: the walk stops, saying why; it cannot start again.
	mu.Lock()
	refuse = errors.New("a game is in play")
	mu.Unlock()
	st = k.until("the walk stopped", func(s WalkState) bool { return !s.Running })
	if !st.Problem || !strings.Contains(st.Message, "a game is in play") {
		t.Fatalf("stopped by the game: %+v", st)
	}
	if err := k.w.Start("p1a/in-00", hand, allowed); err == nil || !strings.Contains(err.Error(), "a game is in play") {
		t.Fatalf("started in a game: %v", err)
	}
	if f, ok := again.Face(uids[4]); !ok || f != tile.Face(1) {
		t.Fatalf("the fifth tile saved as %v %v", f, ok)
	}
}
