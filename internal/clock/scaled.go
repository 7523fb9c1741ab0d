package clock

import (
	"sync"
	"time"
)

// Scaled is another clock (the wall clock, in the daemon) run Factor times as fast from a start.
// A simulated table watched at a game a minute runs its whole clock faster than life: the hands,
// the racks' scans and settle windows, the tracker's grace periods and the camera's frames keep
// their proportions, so the table plays as it would at life speed, only sooner. A slower
// movement of the hands alone (a shorter pace) would outrun the racks, which no player can.
type Scaled struct {
	wall   Clock
	factor float64
	wall0  time.Time // the wall clock's time at start
	start  time.Time // the scaled clock's time at start
}

// NewScaled returns a clock that reads start now and then runs factor times as fast as wall
// (factor > 0; 1 is wall's own pace).
func NewScaled(wall Clock, start time.Time, factor float64) *Scaled {
	if factor <= 0 {
		panic("clock: a scaled clock's factor must be above 0")
	}
	return &Scaled{wall: wall, factor: factor, wall0: wall.Now(), start: start}
}

// Factor is how many times as fast as its wall clock the clock runs.
func (s *Scaled) Factor() float64 { return s.factor }

// Now returns the scaled time.
func (s *Scaled) Now() time.Time {
	return s.start.Add(time.Duration(float64(s.wall.Now().Sub(s.wall0)) * s.factor))
}

// onWall is how long d of this clock takes on the wall clock.
func (s *Scaled) onWall(d time.Duration) time.Duration {
	return time.Duration(float64(d) / s.factor)
}

// NewTimer returns a timer that sends the scaled time on its channel after d of scaled time.
// As with time.Timer since Go 1.23, no stale time is received after Stop or Reset returns.
func (s *Scaled) NewTimer(d time.Duration) (Timer, <-chan time.Time) {
	c := make(chan time.Time, 1)
	t := &scaledTimer{clock: s, c: c}
	t.Reset(d)
	return t, c
}

// AfterFunc calls f in its own goroutine after d of scaled time.
func (s *Scaled) AfterFunc(d time.Duration, f func()) Timer {
	t := &scaledTimer{clock: s, fn: f}
	t.Reset(d)
	return t
}

var _ Clock = (*Scaled)(nil)

// scaledTimer is a wall-clock timer armed anew at each Reset, numbered so that a firing of an
// earlier arming (already under way when it was stopped) sends nothing.
type scaledTimer struct {
	clock *Scaled
	c     chan time.Time // a NewTimer's channel
	fn    func()         // an AfterFunc's function

	mu      sync.Mutex
	inner   Timer
	arming  uint64
	pending bool
}

// Stop stops the timer; it reports whether it was pending.
func (t *scaledTimer) Stop() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.stopLocked()
}

// Reset re-arms the timer d of scaled time from now; it reports whether it was pending.
func (t *scaledTimer) Reset(d time.Duration) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	was := t.stopLocked()
	t.arming++
	arming := t.arming
	t.pending = true
	t.inner = t.clock.wall.AfterFunc(t.clock.onWall(d), func() { t.fire(arming) })
	return was
}

func (t *scaledTimer) stopLocked() bool {
	was := t.pending
	if t.inner != nil {
		t.inner.Stop()
	}
	t.arming++ // a firing under way is now stale
	t.pending = false
	if t.c != nil {
		select {
		case <-t.c:
		default:
		}
	}
	return was
}

func (t *scaledTimer) fire(arming uint64) {
	t.mu.Lock()
	if arming != t.arming {
		t.mu.Unlock()
		return
	}
	t.pending = false
	if t.c != nil { // sent under the lock, so that a Stop or Reset after it drains it
		select {
		case t.c <- t.clock.Now():
		default:
		}
	}
	t.mu.Unlock()
	if t.fn != nil {
		t.fn()
	}
}
