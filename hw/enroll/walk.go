package enroll

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/hw/rack"
	"github.com/siamesetable/siamesed/internal/clock"
)

// Walk is Loop run in the background for the set-up page: started on one reader, stopped,
// started again, as often as the person placing tiles likes (the Store keeps every tag as it
// is added, so stopping loses nothing). State says what the page shows: the face to place
// next, what the reader read last, the progress. The walk advances by itself when a new tag is
// read: the page needs no action per tile.
type Walk struct {
	store  *Store
	clk    clock.Clock
	period time.Duration

	mu     sync.Mutex
	cancel context.CancelCauseFunc
	done   chan struct{}
	st     WalkState
	// prompt is the latest prompt, said again once a problem has passed; trouble, the kind
	// of event the problem shown came from (a tag refused, the reader failing).
	prompt  string
	trouble EventKind
}

// WalkState is what the page shows of a walk.
type WalkState struct {
	Running bool   `json:"running"`
	Reader  string `json:"reader,omitempty"` // the reader it reads (or last read)
	// Next is the face to place next ("" once the set is complete).
	Next  string `json:"next"`
	Done  int    `json:"done"`
	Total int    `json:"total"`
	// Seq counts the walk's events, so a page sees each one once.
	Seq uint64 `json:"seq"`
	// Last is the latest tag read: enrolled, or rejected with why (or forgotten).
	Last *WalkStep `json:"last,omitempty"`
	// Enrolled is the tag enrolled last, which Forget can take back (nil once it did).
	Enrolled *WalkStep `json:"enrolled,omitempty"`
	// Message is what to tell the person now, in words.
	Message string `json:"message"`
	// Problem is set when Message is an error (a tag refused, the reader failing, the walk
	// stopped by something other than the person).
	Problem bool `json:"problem"`
}

// WalkStep is one tag read during a walk.
type WalkStep struct {
	Kind EventKind `json:"kind"` // enrolled or rejected
	UID  string    `json:"uid"`
	Face string    `json:"face"` // as enrolled; for a tag already enrolled, its face
}

// ErrWalking is Start's error while the walk runs.
var ErrWalking = errors.New("enroll: the enrolment walk is already running")

// NewWalk walks the enrolment of store, reading every period on clk.
func NewWalk(store *Store, clk clock.Clock, period time.Duration) *Walk {
	w := &Walk{store: store, clk: clk, period: period}
	w.st = w.idle("")
	return w
}

func (w *Walk) idle(msg string) WalkState {
	st := WalkState{Reader: w.st.Reader, Seq: w.st.Seq, Last: w.st.Last, Enrolled: w.st.Enrolled, Message: msg}
	st.Done, st.Total = w.store.Progress()
	if f := w.store.Next(); f != tile.NoFace {
		st.Next = f.String()
	}
	return st
}

// Start walks on reader r (named name for the page). allowed is asked before every read: when
// it says no, the walk stops with its reason (a game has begun at the table).
func (w *Walk) Start(name string, r rack.TagReader, allowed func() error) error {
	if err := allowed(); err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.st.Running {
		return fmt.Errorf("%w on %s", ErrWalking, w.st.Reader)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	w.cancel, w.done = cancel, make(chan struct{})
	w.st.Reader = name
	w.st = w.idle("")
	w.prompt, w.trouble = "", ""
	w.st.Running = true
	g := guarded{r: r, allowed: allowed, stop: cancel, read: w.read}
	go func() {
		defer close(w.done)
		err := Loop(ctx, w.clk, w.store, g, w.period, 0, func(e Event) { w.note(ctx, e) })
		w.mu.Lock()
		defer w.mu.Unlock()
		if err != nil {
			w.st = w.idle(fmt.Sprintf("stopped: %v", err))
			w.st.Problem = true
		}
		w.st.Running = false
	}()
	return nil
}

// Stop ends the walk, if it runs, and waits for it; the tags enrolled stay.
func (w *Walk) Stop() {
	w.mu.Lock()
	cancel, done := w.cancel, w.done
	w.mu.Unlock()
	if cancel == nil {
		return
	}
	cancel(nil)
	<-done
}

// Forget removes the tag enrolled last (a tile of another face set down by mistake): the walk
// asks for its face again. Only the tag the walk shows as enrolled last can be forgotten, once.
func (w *Walk) Forget(uid string) (tile.Face, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.st.Enrolled == nil || w.st.Enrolled.UID != uid {
		return tile.NoFace, fmt.Errorf("%w: %s is not the tag enrolled last", ErrNotEnrolled, uid)
	}
	f, _ := w.store.Face(uid)
	if err := w.store.Remove(uid); err != nil {
		return tile.NoFace, err
	}
	w.st.Seq++
	w.st.Last = &WalkStep{Kind: Forgotten, UID: uid, Face: f.String()}
	w.st.Enrolled = nil
	w.st.Done, w.st.Total = w.store.Progress()
	w.st.Problem = false
	w.st.Message = fmt.Sprintf("tag %s forgotten (it was enrolled as %s): take that tile off and place a %s", uid, f, f)
	if !w.st.Running {
		w.st.Next = f.String()
		if n := w.store.Next(); n != tile.NoFace {
			w.st.Next = n.String()
		}
	}
	return f, nil
}

// State is the walk now.
func (w *Walk) State() WalkState {
	w.mu.Lock()
	defer w.mu.Unlock()
	st := w.st
	if !st.Running {
		// Progress made elsewhere (the terminal command on the same file at another time).
		st.Done, st.Total = w.store.Progress()
	}
	return st
}

// note turns one event of the loop into what the page shows.
func (w *Walk) note(ctx context.Context, e Event) {
	w.mu.Lock()
	defer w.mu.Unlock()
	st := &w.st
	st.Seq++
	st.Done, st.Total = e.Done, e.Total
	st.Problem, w.trouble = false, ""
	switch e.Kind {
	case Prompt:
		st.Next = e.Face.String()
		st.Message = fmt.Sprintf("place a %s on %s (tile %d of %d)", e.Face, st.Reader, e.Done+1, e.Total)
		w.prompt = st.Message
	case Enrolled:
		st.Last = &WalkStep{Kind: Enrolled, UID: e.UID, Face: e.Face.String()}
		st.Enrolled = st.Last
		st.Message = fmt.Sprintf("%s enrolled as %s: take it off", e.UID, e.Face)
	case Rejected:
		st.Last = &WalkStep{Kind: Rejected, UID: e.UID}
		st.Problem, w.trouble = true, Rejected
		if e.Face != tile.NoFace {
			st.Last.Face = e.Face.String()
			st.Message = fmt.Sprintf("tag %s is already enrolled, as %s: nothing was saved; take it off and place a %s not enrolled yet", e.UID, e.Face, st.Next)
		} else {
			st.Message = fmt.Sprintf("tag %s refused: %v; nothing was saved", e.UID, e.Err)
		}
	case ReaderError:
		st.Problem, w.trouble = true, ReaderError
		st.Message = fmt.Sprintf("the reader failed: %v (the walk goes on)", e.Err)
	case Complete:
		st.Next = ""
		st.Message = fmt.Sprintf("every tile of the set is enrolled (%d)", e.Total)
	case Stopped:
		st.Message = fmt.Sprintf("stopped at %d of %d: start again to resume", e.Done, e.Total)
		if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) {
			st.Message = fmt.Sprintf("stopped at %d of %d: %v", e.Done, e.Total, cause)
			st.Problem = true
		}
	}
}

// read hears every read of the walk's reader: a problem shown passes once the tag refused has
// left the field, or the reader answers again, and the prompt is shown again.
func (w *Walk) read(uids []string, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	st := &w.st
	if err != nil || !st.Problem || w.prompt == "" {
		return
	}
	if w.trouble == ReaderError || w.trouble == Rejected && st.Last != nil && !slices.Contains(uids, st.Last.UID) {
		st.Seq++
		st.Problem, st.Message, w.trouble = false, w.prompt, ""
	}
}

// guarded reads r while allowed says yes; when it says no, it stops the walk with the reason.
type guarded struct {
	r       rack.TagReader
	allowed func() error
	stop    context.CancelCauseFunc
	read    func([]string, error)
}

func (g guarded) ReadTags() ([]string, error) {
	if err := g.allowed(); err != nil {
		g.stop(err)
		return nil, nil
	}
	uids, err := g.r.ReadTags()
	g.read(uids, err)
	return uids, err
}
