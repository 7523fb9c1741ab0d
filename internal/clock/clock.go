// Package clock is an injected clock in the style of tailscale's tstime: code that waits takes a
// Clock, the daemon passes Real, and tests pass a Fake that only moves when told to, so no test
// sleeps.
package clock

import (
	"sort"
	"sync"
	"time"
)

// Clock tells the time and makes timers.
type Clock interface {
	Now() time.Time
	// NewTimer returns a timer that sends the time on its channel after d.
	NewTimer(d time.Duration) (Timer, <-chan time.Time)
	// AfterFunc calls f in its own goroutine after d.
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is the part of *time.Timer both clocks provide.
type Timer interface {
	Stop() bool
	Reset(d time.Duration) bool
}

// Real is the wall clock.
type Real struct{}

// Now returns time.Now().
func (Real) Now() time.Time { return time.Now() }

// NewTimer wraps time.NewTimer.
func (Real) NewTimer(d time.Duration) (Timer, <-chan time.Time) {
	t := time.NewTimer(d)
	return t, t.C
}

// AfterFunc wraps time.AfterFunc.
func (Real) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }

var _ Clock = Real{}

// Fake is a Clock that moves only on Advance. It is safe for concurrent use.
type Fake struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
}

// NewFake returns a fake clock set to start.
func NewFake(start time.Time) *Fake { return &Fake{now: start} }

// Now returns the fake time.
func (f *Fake) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

// NewTimer returns a timer that fires when the clock is advanced past now+d.
func (f *Fake) NewTimer(d time.Duration) (Timer, <-chan time.Time) {
	c := make(chan time.Time, 1)
	t := &fakeTimer{clock: f, c: c}
	t.Reset(d)
	return t, c
}

// AfterFunc returns a timer that calls fn in its own goroutine when the clock passes now+d.
func (f *Fake) AfterFunc(d time.Duration, fn func()) Timer {
	t := &fakeTimer{clock: f, fn: fn}
	t.Reset(d)
	return t
}

// Advance moves the clock forward by d, firing every timer due on the way in time order.
func (f *Fake) Advance(d time.Duration) {
	f.mu.Lock()
	end := f.now.Add(d)
	for {
		sort.SliceStable(f.timers, func(i, j int) bool { return f.timers[i].when.Before(f.timers[j].when) })
		if len(f.timers) == 0 || f.timers[0].when.After(end) {
			break
		}
		t := f.timers[0]
		f.timers = f.timers[1:]
		t.active = false
		if t.when.After(f.now) {
			f.now = t.when
		}
		now := f.now
		f.mu.Unlock()
		t.fire(now)
		f.mu.Lock()
	}
	f.now = end
	f.mu.Unlock()
}

// Pending reports how many timers are waiting; tests use it to know a goroutine is parked.
func (f *Fake) Pending() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.timers)
}

var _ Clock = (*Fake)(nil)

type fakeTimer struct {
	clock  *Fake
	when   time.Time
	active bool
	c      chan time.Time
	fn     func()
}

func (t *fakeTimer) fire(now time.Time) {
	if t.fn != nil {
		go t.fn()
		return
	}
	select {
	case t.c <- now:
	default:
	}
}

// Stop removes the timer; it reports whether the timer was pending.
func (t *fakeTimer) Stop() bool {
	f := t.clock
	f.mu.Lock()
	defer f.mu.Unlock()
	return t.removeLocked()
}

func (t *fakeTimer) removeLocked() bool {
	if !t.active {
		return false
	}
	for i, o := range t.clock.timers {
		if o == t {
			t.clock.timers = append(t.clock.timers[:i], t.clock.timers[i+1:]...)
			break
		}
	}
	t.active = false
	return true
}

// Reset re-arms the timer d after the fake now; it reports whether it was pending.
func (t *fakeTimer) Reset(d time.Duration) bool {
	f := t.clock
	f.mu.Lock()
	defer f.mu.Unlock()
	was := t.removeLocked()
	t.when = f.now.Add(d)
	t.active = true
	f.timers = append(f.timers, t)
	return was
}
