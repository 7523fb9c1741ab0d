package wire

import (
	"strings"
	"testing"
	"time"
)

const hash = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

func result() Message {
	return Message{Schema: Schema, ID: ResultID(hash), Kind: KindResult, Event: "Club night", Table: 3, Round: 2,
		At: time.Date(2026, 11, 23, 19, 0, 0, 0, time.UTC),
		Result: &Result{Game: 1, GameID: "g1", Journal: hash, Seats: []string{"A", "B"}, Rules: "siamese", Reason: "second_mahjong",
			Scores: []int{50, -10}, Penalty: []int{0, -10}, MahJong: []MahJong{{Seat: 0, Rack: 1, Hand: "2026-1", Points: 25}, {Seat: 0, Rack: 2, Hand: "2026-3", Points: 25}}}}
}

func TestRoundTrip(t *testing.T) {
	m := result()
	b, err := Encode(m)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != m.ID || got.Result.Scores[1] != -10 || len(got.Result.Signers()) != 1 {
		t.Errorf("round trip gave %+v", got)
	}
}

func TestDecodeRefuses(t *testing.T) {
	good, _ := Encode(result())
	for _, c := range []struct {
		name, in, want string
	}{
		{"unknown field", strings.Replace(string(good), `"kind"`, `"colour":1,"kind"`, 1), "unknown field"},
		{"newer schema", strings.Replace(string(good), `"schema":1`, `"schema":2`, 1), "newer than this siamesed reads"},
		{"no schema", strings.Replace(string(good), `"schema":1`, `"schema":0`, 1), "no schema"},
		{"trailing", string(good) + "{}", "something after"},
		{"bad id", strings.Replace(string(good), `"id":"r-`, `"id":" r-`, 1), "id must be"},
		{"table", strings.Replace(string(good), `"table":3`, `"table":0`, 1), "table 0 out of range"},
		{"scores", strings.Replace(string(good), `"scores":[50,-10]`, `"scores":[50]`, 1), "1 scores and 2 penalties"},
		{"mj seat", strings.Replace(string(good), `"seat":0,"rack":2`, `"seat":5,"rack":2`, 1), "Mah Jongg by seat 5"},
		{"two bodies", strings.Replace(string(good), `"result":`, `"call":{"game":1},"result":`, 1), "exactly one body"},
		{"kind", strings.Replace(string(good), `"kind":"result"`, `"kind":"sign"`, 1), "no sign"},
		{"huge", strings.Repeat(" ", MaxSize+1), "more than"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := Decode([]byte(c.in)); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Decode: %v, want %q", err, c.want)
			}
		})
	}
}

func TestSignChecks(t *testing.T) {
	m := Message{Schema: Schema, ID: SignID(ResultID(hash), 1), Kind: KindSign, Event: "e", Table: 1, Round: 1, At: time.Now(),
		Sign: &Sign{Game: 1, Result: ResultID(hash), Seat: 1, By: 0, Name: "Ann"}}
	if err := m.Check(); err == nil || !strings.Contains(err.Error(), "its Mah Jongg's own seat") {
		t.Errorf("a game signed for another seat: %v", err)
	}
	m.Sign.By = 1
	if err := m.Check(); err != nil {
		t.Error(err)
	}
	m.Kind, m.ID = KindInitials, InitialsID(1, 1, 0, 40)
	if err := m.Check(); err == nil || !strings.Contains(err.Error(), "not a game") {
		t.Errorf("initials on a game: %v", err)
	}
	m.Sign = &Sign{Seat: 0, By: 1, Name: "Bea", Total: 40}
	if err := m.Check(); err != nil {
		t.Error(err)
	}
}

func FuzzDecode(f *testing.F) {
	good, _ := Encode(result())
	f.Add(good)
	f.Add([]byte(`{"schema":1,"id":"c-1","kind":"call","event":"e","table":1,"round":1,"at":"2026-01-01T00:00:00Z","call":{"game":1}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Decode(b)
		if err != nil {
			return
		}
		// What decodes encodes, and reads back the same.
		again, err := Encode(m)
		if err != nil {
			t.Fatalf("decoded but does not encode: %v", err)
		}
		if _, err := Decode(again); err != nil {
			t.Fatalf("re-encoded message refused: %v", err)
		}
	})
}
