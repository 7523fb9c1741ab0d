package game

import (
	"fmt"
	"testing"
)

func TestPot(t *testing.T) {
	tests := []struct {
		name   string
		scores []int
		pot    int
		triple bool
		want   string
	}{
		// Subtract the lowest (10): 40, 20, 0, 0; pot 100 pays them, 40 left, 10 each.
		{"pays in order, remainder shared", []int{50, 30, 10, 10}, 100, false, "[50 30 10 10]"},
		// Tripled: 150 90 30 30 -> 120 60 0 0; pot 100 runs out on the second.
		{"tripled, pot runs out", []int{50, 30, 10, 10}, 100, true, "[100 0 0 0]"},
		{"pot empties mid-way", []int{50, 30, 10, 10}, 50, false, "[40 10 0 0]"},
		{"remainder cents go to the first seats", []int{0, 0, 0}, 100, false, "[34 33 33]"},
		// -20 lowest: 0 60 20 paid (80), 10 left: 3 each and the odd cent to seat 0.
		{"negative scores", []int{-20, 40, 0}, 90, false, "[4 63 23]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []int
			sum := 0
			for _, s := range Pot(tc.scores, tc.pot, tc.triple) {
				got = append(got, s.Amount)
				sum += s.Amount
			}
			if sum != tc.pot {
				t.Fatalf("paid %d of a pot of %d", sum, tc.pot)
			}
			if g := fmt.Sprint(got); g != tc.want {
				t.Errorf("Pot(%v, %d, %v) = %v, want %s", tc.scores, tc.pot, tc.triple, got, tc.want)
			}
		})
	}
}

func TestTally(t *testing.T) {
	got := Tally(3, []*Result{{Scores: []int{10, -5, 0}}, nil, {Scores: []int{0, 20, 5}}})
	if fmt.Sprint(got) != "[10 15 5]" {
		t.Fatalf("Tally = %v, want [10 15 5]", got)
	}
}
