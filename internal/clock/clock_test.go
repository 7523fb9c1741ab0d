package clock

import (
	"testing"
	"time"
)

func TestFakeTimerFiresOnlyWhenDue(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	f := NewFake(start)
	_, c := f.NewTimer(300 * time.Millisecond)
	f.Advance(299 * time.Millisecond)
	quiet(t, c, "fired early")
	f.Advance(time.Millisecond)
	if got, want := receive(t, c, "did not fire"), start.Add(300*time.Millisecond); !got.Equal(want) {
		t.Fatalf("fired at %v, want %v", got, want)
	}
}

func TestFakeStopAndReset(t *testing.T) {
	f := NewFake(time.Unix(0, 0))
	tm, c := f.NewTimer(time.Second)
	if !tm.Stop() {
		t.Fatal("Stop of a pending timer returned false")
	}
	f.Advance(2 * time.Second)
	quiet(t, c, "stopped timer fired")
	tm.Reset(time.Second)
	f.Advance(time.Second)
	if len(c) != 1 {
		t.Fatal("reset timer did not fire")
	}
	if f.Pending() != 0 {
		t.Fatalf("Pending = %d", f.Pending())
	}
}

func TestFakeAfterFunc(t *testing.T) {
	f := NewFake(time.Unix(0, 0))
	done := make(chan time.Time, 1)
	f.AfterFunc(5*time.Millisecond, func() { done <- f.Now() })
	f.Advance(10 * time.Millisecond)
	got := <-done
	if got.Before(time.Unix(0, 0).Add(5 * time.Millisecond)) {
		t.Fatalf("AfterFunc saw %v", got)
	}
}
