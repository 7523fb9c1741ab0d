package clock

import (
	"sync/atomic"
	"testing"
	"time"
)

// TestScaledRunsFactorTimesAsFast: three seconds of the wall clock are nine of a clock scaled
// by 3, and a timer of 900 ms fires after 300 ms of the wall clock, sending the scaled time.
func TestScaledRunsFactorTimesAsFast(t *testing.T) {
	wall := NewFake(time.Unix(1000, 0))
	start := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	s := NewScaled(wall, start, 3)
	if got := s.Now(); !got.Equal(start) {
		t.Fatalf("at start: %v, want %v", got, start)
	}
	_, c := s.NewTimer(900 * time.Millisecond)
	wall.Advance(299 * time.Millisecond)
	quiet(t, c, "fired early")
	wall.Advance(time.Millisecond)
	if got, want := receive(t, c, "did not fire after 300 ms of the wall clock"), start.Add(900*time.Millisecond); !got.Equal(want) {
		t.Fatalf("fired with %v, want %v", got, want)
	}
	wall.Advance(2700 * time.Millisecond)
	if got, want := s.Now(), start.Add(9*time.Second); !got.Equal(want) {
		t.Fatalf("after 3 s of the wall clock: %v, want %v", got, want)
	}
}

// TestScaledStopAndReset: a stopped timer sends nothing, a reset one fires at its new time, and
// a time sent before a Reset is not received after it.
func TestScaledStopAndReset(t *testing.T) {
	wall := NewFake(time.Unix(0, 0))
	s := NewScaled(wall, time.Unix(0, 0), 2)
	tm, c := s.NewTimer(time.Second)
	if !tm.Stop() {
		t.Fatal("Stop of a pending timer returned false")
	}
	if tm.Stop() {
		t.Fatal("Stop of a stopped timer returned true")
	}
	wall.Advance(time.Second)
	quiet(t, c, "a stopped timer fired")
	if tm.Reset(time.Second) {
		t.Fatal("Reset of a stopped timer said it was pending")
	}
	wall.Advance(500 * time.Millisecond) // fired: its time waits in the channel
	waitFired(t, tm)
	if tm.Reset(4 * time.Second) {
		t.Fatal("Reset of a fired timer said it was pending")
	}
	quiet(t, c, "received a time sent before the Reset")
	wall.Advance(2 * time.Second)
	if got, want := receive(t, c, "the reset timer did not fire"), time.Unix(0, 0).Add(7*time.Second); !got.Equal(want) {
		t.Fatalf("fired with %v, want %v", got, want)
	}
}

// waitFired waits for a timer's firing, which the fake wall clock runs in a goroutine of its own.
func waitFired(t *testing.T, tm Timer) {
	t.Helper()
	st := tm.(*scaledTimer)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		st.mu.Lock()
		pending := st.pending
		st.mu.Unlock()
		if !pending {
			return
		}
	}
	t.Fatal("the timer did not fire")
}

// TestScaledAfterFunc: the function runs after d of scaled time, and not once stopped.
func TestScaledAfterFunc(t *testing.T) {
	wall := NewFake(time.Unix(0, 0))
	s := NewScaled(wall, time.Unix(0, 0), 4)
	ran := make(chan struct{}, 1)
	s.AfterFunc(2*time.Second, func() { ran <- struct{}{} })
	var stoppedRan atomic.Bool
	s.AfterFunc(time.Second, func() { stoppedRan.Store(true) }).Stop()
	wall.Advance(499 * time.Millisecond)
	quiet(t, ran, "ran early")
	wall.Advance(time.Millisecond)
	receive(t, ran, "did not run after 500 ms of the wall clock (2 s scaled by 4)")
	if stoppedRan.Load() {
		t.Fatal("a stopped AfterFunc ran")
	}
}

// TestScaledOnTheRealClock: scaled by 50, 20 ms of the wall clock are at least a second.
func TestScaledOnTheRealClock(t *testing.T) {
	s := NewScaled(Real{}, time.Unix(0, 0), 50)
	tm, c := s.NewTimer(time.Second)
	defer tm.Stop()
	if got := receive(t, c, "a second scaled by 50 took over 10 s of the wall clock"); got.Before(time.Unix(1, 0)) {
		t.Fatalf("fired at %v of the scaled clock, before its second", got)
	}
}
