package game

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/siamesetable/siamesed/engine/tile"
)

// TestNotationRoundTrips: every act of random games under every kind of ruleset (calls with
// rivals, exchanges, flowers, rolls), written in notation, reads back as the same act.
func TestNotationRoundTrips(t *testing.T) {
	n := 0
	for _, spec := range []string{"siamese", "siamese-masters", "royale-4", "wright-patterson-siamese"} {
		r := loadRules(t, spec)
		c := cardFor(t, r)
		rng := rand.New(rand.NewPCG(5, uint64(len(spec))))
		for range 20 {
			randomGame(t, rng, r, c, func(_, _ State, a Action) {
				n++
				s := a.Notation()
				back, err := ParseNotation(s)
				if err != nil {
					t.Fatalf("%v as %q: %v", a, s, err)
				}
				if !reflect.DeepEqual(back, a) {
					t.Fatalf("%q reads back as %v, want %v", s, back, a)
				}
			})
		}
	}
	named, five := tile.Face(0), tile.Face(4)
	for _, a := range []Action{ // what random games may not make
		{Seat: 1, Act: ActCall, Tiles: []tile.Face{five}, Rack: 1, For: "mahjong", Both: true, Rivals: []Rival{{Seat: 0, For: "mahjong", Both: true}, {Seat: 2}}},
		{Seat: 0, Act: ActDiscard, Tiles: []tile.Face{five}, Rack: 2, Named: &named},
		{Seat: 0, Act: ActFixRack, Target: &Target{Seat: 0, Rack: 2, Exposure: 1}},
		{Seat: 2, Act: ActRoll, For: "prevailing", Dice: []int{6}},
	} {
		back, err := ParseNotation(a.Notation())
		if err != nil || !reflect.DeepEqual(back, a) {
			t.Fatalf("%v as %q reads back as %v, %v", a, a.Notation(), back, err)
		}
	}
	t.Logf("%d acts", n)
}

// TestNotationErrorsSayWhat: a malformed act names what is wrong.
func TestNotationErrorsSayWhat(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "want a seat and an act"},
		{"x discard 5B r1", "seat"},
		{"4 discard 5B r1", "seat"},
		{"0 throw 5B r1", "unknown act"},
		{"0 discard r1", "exactly one tile"},
		{"0 discard 5B r3", "want r1 or r2"},
		{"0 discard 5B r1 r2", "twice"},
		{"0 move 5B r1 to", "to: want a rack"},
		{"0 exchange 5B target s1 r2", "target"},
		{"0 exchange 5B target s1 q2 x0", "want r<number>"},
		{"1 call 5B r1 for mahjong rival 0:fast", "rival"},
		{"0 roll for east die seven", "die"},
		{"0 roll for east die 7", "1 to 6"},
		{"0 discard 5B r1 sideways", "want a tile (before the rest)"},
	} {
		_, err := ParseNotation(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want an error saying %q", tc.in, err, tc.want)
		}
	}
}

// FuzzParseNotation: whatever reads, reads back the same from its own notation; nothing panics.
func FuzzParseNotation(f *testing.F) {
	for _, s := range []string{"0 discard 5B r1", "1 call 5B 5B J r2", "0 move 6C S S r1 to r2", "1 call 5B r1 for mahjong both rival 0:mahjong:both",
		"0 exchange 5B target s1 r2 x0", "0 roll for east die 4", "1 mahjong r1", "0 wall_end", "1 flower F r2", "0 discard 5B r1 named 6B"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseNotation(s)
		if err != nil {
			return
		}
		back, err := ParseNotation(a.Notation())
		if err != nil || !reflect.DeepEqual(back, a) {
			t.Fatalf("%q: %v as %q reads back as %v, %v", s, a, a.Notation(), back, err)
		}
	})
}
