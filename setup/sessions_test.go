package setup

import (
	"testing"
	"time"
)

type fakeNow struct{ t time.Time }

func (f *fakeNow) now() time.Time          { return f.t }
func (f *fakeNow) advance(d time.Duration) { f.t = f.t.Add(d) }

func newNow() *fakeNow { return &fakeNow{t: time.Date(2026, 11, 23, 19, 0, 0, 0, time.UTC)} }

// TestSessionsExpire: a session is good until its time is up, then never again; a closed one
// at once; a made-up token never.
func TestSessionsExpire(t *testing.T) {
	clk := newNow()
	s := NewSessions(clk.now, time.Hour, 4)
	tok, exp, err := s.Open()
	if err != nil {
		t.Fatal(err)
	}
	if !exp.Equal(clk.t.Add(time.Hour)) || len(tok) < 40 {
		t.Fatalf("token %q expires %v", tok, exp)
	}
	clk.advance(59 * time.Minute)
	if !s.Valid(tok) {
		t.Fatal("a session ended before its hour")
	}
	clk.advance(time.Minute)
	if s.Valid(tok) {
		t.Fatal("a session outlived its hour")
	}
	other, _, _ := s.Open()
	if s.Valid(other+"x") || s.Valid("") {
		t.Error("a made-up token is valid")
	}
	s.Close(other)
	if s.Valid(other) {
		t.Error("a closed session is valid")
	}
}

// TestSessionsBounded: past the most sessions, the one ending first goes.
func TestSessionsBounded(t *testing.T) {
	clk := newNow()
	s := NewSessions(clk.now, time.Hour, 2)
	first, _, _ := s.Open()
	clk.advance(time.Minute)
	second, _, _ := s.Open()
	third, _, _ := s.Open()
	if s.Valid(first) || !s.Valid(second) || !s.Valid(third) {
		t.Errorf("valid: first %v second %v third %v", s.Valid(first), s.Valid(second), s.Valid(third))
	}
}
