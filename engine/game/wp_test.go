package game

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/siamesetable/siamesed/engine/card"
	"github.com/siamesetable/siamesed/engine/tile"
)

func ptr(n int) *int { return &n }

// TestWallPotOf: the Wright-Patterson wall pot grows with each wall game and goes to the seat
// of the next game's first Mah Jongg; a pot left at the end is refunded or carried.
func TestWallPotOf(t *testing.T) {
	wall := &Result{Scores: []int{0, 0}, WallPot: &WallPotMove{PaidIn: 50}}
	took := func(seat int) *Result {
		return &Result{Scores: []int{500, 0}, WallPot: &WallPotMove{Taker: ptr(seat)}}
	}
	other := &Result{Scores: []int{25, 0}} // a ruleset without a pot: no move
	tests := []struct {
		name            string
		carried         int
		results         []*Result
		left            PotLeft
		net, refund     string
		pot, wantLeft   int
		gamesWithAMoves int
	}{
		{"two wall games, then seat 1's Mah Jongg takes 200", 0, []*Result{wall, wall, took(1)}, RefundPot, "[-100 100]", "[0 0]", 0, 0, 3},
		{"a pot taken, then a wall game refunded at the end", 0, []*Result{wall, took(0), wall}, RefundPot, "[50 -50]", "[50 50]", 100, 0, 3},
		{"the same carried to the next session", 0, []*Result{wall, took(0), wall}, CarryPot, "[0 -100]", "[]", 100, 100, 3},
		{"a carried pot taken", 150, []*Result{other, took(1), nil}, RefundPot, "[0 150]", "[0 0]", 0, 0, 1},
		{"a carried pot not taken stays, refunded or not", 150, []*Result{wall}, RefundPot, "[0 0]", "[50 50]", 250, 150, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := WallPotOf(2, tc.carried, tc.results, tc.left)
			refund := fmt.Sprint(got.Refund)
			if got.Refund == nil {
				refund = "[]"
			}
			if fmt.Sprint(got.Net) != tc.net || refund != tc.refund || got.Left != tc.wantLeft || len(got.Games) != tc.gamesWithAMoves {
				t.Errorf("net %v refund %v left %d games %d; want net %s refund %s left %d games %d", got.Net, got.Refund, got.Left, len(got.Games), tc.net, tc.refund, tc.wantLeft, tc.gamesWithAMoves)
			}
			if last := got.Games[len(got.Games)-1]; last.Pot != tc.pot {
				t.Errorf("the last game left %d in the pot, want %d", last.Pot, tc.pot)
			}
			// No point is made or lost: what the seats net plus what is left is what was carried.
			sum := got.Left
			for _, n := range got.Net {
				sum += n
			}
			if sum != tc.carried {
				t.Errorf("net %v and %d left make %d, want the %d carried", got.Net, got.Left, sum, tc.carried)
			}
		})
	}
}

func TestIsChow(t *testing.T) {
	for tiles, want := range map[string]bool{
		"1C 2C 3C": true, "3C 1C 2C": true, "4D 5B 6C": true, "7B 8C 9D": true,
		"1C 2C 4C": false, "1C 2C 3D": false, "N N N": false, "1C 2C J": false, "1C 2C 3C 4C": false, "9C 1C 2C": false,
	} {
		if got := isChow(mustFaces(t, tiles)); got != want {
			t.Errorf("isChow(%s) = %v", tiles, got)
		}
	}
}

// TestWrightPattersonViews: the public view of a Wright-Patterson table shows the flowers laid
// on each rack, the prevailing wind and what a limit pays; the bouquet is in the running score
// at once and is not a warning.
func TestWrightPattersonViews(t *testing.T) {
	sc := readScenario(t, "testdata/scenarios/wright-patterson-siamese-flowers-in-turn-bouquet.jsonl")
	s, vs, err := Replay(sc.start, sc.log.Actions)
	if err != nil {
		t.Fatal(err)
	}
	v := s.PublicView()
	if v.Seats[0].Racks[1].Flowers != 4 || v.Seats[0].Racks[0].Flowers != 2 || v.Seats[1].Racks[1].Flowers != 2 {
		t.Errorf("flowers on the racks: %d %d / %d %d", v.Seats[0].Racks[0].Flowers, v.Seats[0].Racks[1].Flowers, v.Seats[1].Racks[0].Flowers, v.Seats[1].Racks[1].Flowers)
	}
	if v.Prevailing != "E" || !slices.Equal(v.Limits, []int{500, 1000, 1500}) || v.Scores[0] != 500 {
		t.Errorf("prevailing %q, limits %v, scores %v", v.Prevailing, v.Limits, v.Scores)
	}
	for _, st := range v.Seats {
		if st.Holding != 27 && st.Holding != 28 {
			t.Errorf("seat %d holds %d: laid flowers must not count", st.Seat, st.Holding)
		}
	}
	bouquets := 0
	for _, vd := range vs {
		if vd.Kind == Bouquet {
			bouquets++
			if OutcomeOf([]Verdict{vd}) != Applied {
				t.Errorf("a bouquet is not an applied act")
			}
		}
	}
	for _, w := range s.Warnings {
		if w.Kind == Bouquet {
			t.Errorf("a bouquet is among the warnings")
		}
	}
	if bouquets != 1 {
		t.Errorf("%d bouquets, want 1", bouquets)
	}
	if pv := (&State{Rules: loadRules(t, "siamese"), Seats: make([]Seat, 2)}).PublicView(); pv.Prevailing != "" || pv.Limits != nil {
		t.Errorf("a siamese view shows prevailing %q, limits %v", pv.Prevailing, pv.Limits)
	}
}

// TestHeaderRefusesTheWrongKindOfCard: a Wright-Patterson log replayed with a points card, or a
// siamese log with a limit list, is refused before any act.
func TestHeaderRefusesTheWrongKindOfCard(t *testing.T) {
	points, pointsData := loadCardData(t)
	limits, limitsData := loadCardFile(t, "testdata/limit-card.yaml")
	wp, siamese := loadRules(t, "wright-patterson-siamese"), loadRules(t, "siamese")
	for _, tc := range []struct {
		r    *Ruleset
		c    *card.Card
		data []byte
	}{{wp, points, pointsData}, {siamese, limits, limitsData}} {
		h := NewHeader(tc.r, tc.c, tc.data, []string{"Ann", "Bea"})
		if err := h.Check(tc.r, tc.c, tc.data); !errors.Is(err, ErrCardKind) {
			t.Errorf("%s: Check = %v, want ErrCardKind", tc.r.Name, err)
		}
	}
}

// TestFlowerActs: a flower is exchanged only where the ruleset has a flower wall, and never
// from an empty wall; rolls only where the ruleset records them.
func TestFlowerActs(t *testing.T) {
	siamese := New(loadRules(t, "siamese"), loadCard(t))
	if _, _, err := Apply(siamese, Action{Seat: 0, Act: ActFlower, Tiles: mustFaces(t, "1B"), Rack: 1}); !errors.Is(err, ErrImpossible) {
		t.Errorf("a flower exchange under siamese: %v", err)
	}
	if _, _, err := Apply(siamese, Action{Seat: 0, Act: ActRoll, For: "east", Dice: []int{3}}); !errors.Is(err, ErrImpossible) {
		t.Errorf("a roll under siamese: %v", err)
	}
	for _, bad := range []string{
		`{"seat":0,"act":"roll","for":"east","dice":[7]}`,
		`{"seat":0,"act":"roll","for":"north","dice":[3]}`,
		`{"seat":0,"act":"roll","for":"east","dice":[3,4]}`,
		`{"seat":0,"act":"flower","tiles":["1B"]}`,
		`{"seat":0,"act":"flower","tiles":["1B","2B"],"rack":1}`,
	} {
		if _, err := ParseAction([]byte(bad)); err == nil {
			t.Errorf("%s parsed", bad)
		}
	}
	wp := New(loadRules(t, "wright-patterson-siamese"), loadLimitCard(t))
	wp.WallLeft, wp.Phase = 0, PhaseDiscard
	wp.Seats[0].Racks[0].Concealed[tile.Flower]++
	if _, _, err := Apply(wp, Action{Seat: 0, Act: ActFlower, Tiles: mustFaces(t, "1B"), Rack: 1}); !errors.Is(err, ErrImpossible) {
		t.Errorf("a flower replaced from an empty wall: %v", err)
	}
}
