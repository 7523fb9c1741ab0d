package setup

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

func openSeats(t *testing.T, file string, n int) *Seats {
	t.Helper()
	s, err := OpenSeats(file, n)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func joinOK(int) error { return nil }

// TestSeatCodes: each free seat has its own code; a code joins its seat once (typed in any
// case, with or without its dash), then names why it is good no more.
func TestSeatCodes(t *testing.T) {
	file := filepath.Join(t.TempDir(), "seats.yaml")
	s := openSeats(t, file, 2)
	list := s.List()
	if len(list) != 2 || list[0].Code == list[1].Code || len(list[0].Code) != 7 || list[0].Code[3] != '-' {
		t.Fatalf("codes: %+v", list)
	}
	typed := strings.ToLower(strings.ReplaceAll(list[1].Code, "-", " "))
	seat, err := s.Join(typed, joinOK)
	if err != nil || seat != 1 {
		t.Fatalf("join %q: seat %d, %v", typed, seat, err)
	}
	if l := s.List(); !l[1].Taken || l[1].Code != "" || l[0].Taken {
		t.Fatalf("after joining seat 1: %+v", l)
	}
	if _, err := s.Join(list[1].Code, joinOK); !errors.Is(err, ErrCodeUsed) {
		t.Errorf("a used code: %v", err)
	}
	for _, bad := range []string{"", "AAAAAA", list[0].Code + "A", "ABC-DE!", list[0].Code[:3]} {
		if _, err := s.Join(bad, joinOK); !errors.Is(err, ErrNoSuchCode) {
			t.Errorf("join %q: %v", bad, err)
		}
	}
	// Taken seats are kept: after a restart seat 1 is still taken and has no code.
	again := openSeats(t, file, 2)
	if l := again.List(); !l[1].Taken || l[0].Taken || l[0].Code == list[0].Code {
		t.Errorf("after a restart: %+v (seat 0's code should be new)", l)
	}
}

// TestJoinThatFailsChangesNothing: when the seat's login cannot be had, the code stays good.
func TestJoinThatFailsChangesNothing(t *testing.T) {
	s := openSeats(t, filepath.Join(t.TempDir(), "seats.yaml"), 2)
	code := s.List()[0].Code
	boom := errors.New("no broker")
	if _, err := s.Join(code, func(int) error { return boom }); !errors.Is(err, boom) {
		t.Fatalf("join: %v", err)
	}
	if seat, err := s.Join(code, joinOK); err != nil || seat != 0 {
		t.Fatalf("the code after a failed join: seat %d, %v", seat, err)
	}
}

// TestRenewSeat: a free seat's new code replaces the old one, which then says so; a taken
// seat is taken back first, and if that fails it stays taken.
func TestRenewSeat(t *testing.T) {
	s := openSeats(t, filepath.Join(t.TempDir(), "seats.yaml"), 2)
	old := s.List()[0]
	called := 0
	takeBack := func(int) error { called++; return nil }
	if err := s.Renew(0, takeBack); err != nil {
		t.Fatal(err)
	}
	now := s.List()[0]
	if called != 0 || now.Code == old.Code || now.Version == old.Version || now.Taken {
		t.Fatalf("renewed free seat: %+v from %+v, take-backs %d", now, old, called)
	}
	if _, err := s.Join(old.Code, joinOK); !errors.Is(err, ErrCodeRenewed) {
		t.Errorf("the old code: %v", err)
	}
	if _, err := s.Join(now.Code, joinOK); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("cannot write")
	if err := s.Renew(0, func(int) error { return boom }); !errors.Is(err, boom) || !s.List()[0].Taken {
		t.Fatalf("a failed take-back: %v, %+v", err, s.List()[0])
	}
	if err := s.Renew(0, takeBack); err != nil || called != 1 || s.List()[0].Taken || s.List()[0].Code == "" {
		t.Fatalf("take back: %v, calls %d, %+v", err, called, s.List()[0])
	}
	if _, err := s.Join(now.Code, joinOK); !errors.Is(err, ErrCodeUsed) {
		t.Errorf("the code used before the take-back: %v", err)
	}
	if err := s.Renew(2, takeBack); err == nil {
		t.Error("renewed a seat the table has not got")
	}
}

// TestCodesAreRandom: codes of many tables differ and use the whole alphabet.
func TestCodesAreRandom(t *testing.T) {
	seen := map[string]bool{}
	chars := map[rune]bool{}
	for range 300 {
		c, err := random(codeAlphabet, codeLen)
		if err != nil {
			t.Fatal(err)
		}
		if seen[c] {
			t.Fatalf("code %s twice in 300", c)
		}
		seen[c] = true
		for _, r := range c {
			chars[r] = true
		}
	}
	if len(chars) != len(codeAlphabet) {
		t.Errorf("%d of %d characters used in 1800 draws", len(chars), len(codeAlphabet))
	}
}
