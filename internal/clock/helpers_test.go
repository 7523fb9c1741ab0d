package clock

import (
	"testing"
	"time"
)

// quiet fails the test if c already holds something: what must not have happened yet.
func quiet[T any](t *testing.T, c <-chan T, what string) {
	t.Helper()
	select {
	case v := <-c:
		t.Fatalf("%s (received %v)", what, v)
	default:
	}
}

// receive waits for c to send, at most 10 s (a fake wall clock fires timers in goroutines of their
// own), and fails the test with what if it does not.
func receive[T any](t *testing.T, c <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-c:
		return v
	case <-time.After(10 * time.Second):
		t.Fatal(what)
	}
	panic("unreachable")
}
