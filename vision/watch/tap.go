package watch

import (
	"context"
	"errors"
	"sync"
	"time"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/internal/clock"
)

// frameTap keeps the frames of a camera that does not watch yet, for the pictures: the frame
// loop offers it every frame, and it copies one only when a picture is asked for, or once a
// keepEvery (so that a camera that stopped still shows its last frame). Its time is clk's.
type frameTap struct {
	clk       clock.Clock
	keepEvery time.Duration

	mu     sync.Mutex
	last   gocv.Mat // zero until a frame is kept
	lastAt time.Time
	asked  chan struct{} // closed when a frame asked for is kept; nil: none asked for
	closed bool
}

// offer is called by the frame loop with each frame it reads.
func (t *frameTap) offer(frame gocv.Mat) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.clk.Now()
	if t.closed || (t.asked == nil && !t.lastAt.IsZero() && now.Sub(t.lastAt) < t.keepEvery) {
		return
	}
	if t.lastAt.IsZero() {
		t.last = gocv.NewMat()
	}
	frame.CopyTo(&t.last)
	t.lastAt = now
	if t.asked != nil {
		close(t.asked)
		t.asked = nil
	}
}

// latest waits up to wait for the camera's next frame; failing it, the last one kept.
func (t *frameTap) latest(ctx context.Context, wait time.Duration) LatestFrame {
	return func(dst *gocv.Mat) error {
		t.mu.Lock()
		if t.asked == nil {
			t.asked = make(chan struct{})
		}
		asked := t.asked
		t.mu.Unlock()
		timer, fired := t.clk.NewTimer(wait)
		defer timer.Stop()
		select {
		case <-asked:
		case <-fired:
		case <-ctx.Done():
			return ctx.Err()
		}
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.lastAt.IsZero() {
			return errors.New("the camera has given no frame yet")
		}
		t.last.CopyTo(dst)
		return nil
	}
}

// close frees the frame kept.
func (t *frameTap) close() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.lastAt.IsZero() && !t.closed {
		t.last.Close()
	}
	t.closed = true
}
