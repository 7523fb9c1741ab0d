package game

import (
	"testing"
)

// TestPickAheadOfAStoppedSeat: a seat that picked ahead may not pick again when the seat to
// play has stopped (a Mah Jongg and a dead hand) before discarding: LegalActions lists no such
// draw, since it would be a second pick (29 tiles, dead); the stopped seat's discard begins the
// picker's turn with the tile it already holds, and the discard is covered.
func TestPickAheadOfAStoppedSeat(t *testing.T) {
	sc := readScenario(t, "testdata/scenarios/siamese-10-picking-ahead-after-mahjong.jsonl")
	acts := sc.log.Actions
	// Up to Bea's pick ahead of Ann's discard after Ann's Mah Jongg.
	const pickAhead = 9
	if a := acts[pickAhead-1]; a.Seat != 1 || a.Act != ActDraw {
		t.Fatalf("act %d is %v, want Bea's pick ahead", pickAhead, a)
	}
	s, _, err := Replay(sc.start, acts[:pickAhead])
	if err != nil {
		t.Fatal(err)
	}
	if !s.Seats[1].PickedAhead || s.Turn != 0 || s.Phase != PhaseDiscard {
		t.Fatalf("after the pick ahead: picked ahead %v, turn %d, phase %s", s.Seats[1].PickedAhead, s.Turn, s.Phase)
	}
	s.Seats[0].Racks[1].Dead = "dead for the test" // Ann stops: a Mah Jongg and a dead hand
	for _, a := range LegalActions(&s) {
		if a.Act == ActDraw && a.Seat == 1 {
			t.Fatalf("listed %v: Bea already picked ahead", a)
		}
	}
	n, vs, err := Apply(s, acts[pickAhead]) // Ann's discard completes her turn
	if err != nil || OutcomeOf(vs) != Applied {
		t.Fatalf("Ann's discard: %v %v", vs, err)
	}
	if n.Turn != 1 || n.Phase != PhaseDiscard || n.Last != nil {
		t.Errorf("after Ann's discard: turn %d, phase %s, last %v; want Bea's turn begun, the discard covered", n.Turn, n.Phase, n.Last)
	}
}
