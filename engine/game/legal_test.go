package game

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/siamesetable/siamesed/engine/card"
	"github.com/siamesetable/siamesed/engine/tile"
)

// TestLegalActionsAreLegal: in states of random games under every ruleset, every act listed
// applies with no error, no infraction and no refusal; and the obvious faults (a draw by a seat
// not to play, a discard out of turn) are not listed.
func TestLegalActionsAreLegal(t *testing.T) {
	games := 12
	if fewerGames() {
		games = 3
	}
	checked := map[Act]int{}
	check := func(where string, s State) {
		for _, a := range LegalActions(&s) {
			checked[a.Act]++
			_, vs, err := Apply(s, a)
			if err != nil || OutcomeOf(vs) != Applied {
				t.Fatalf("%s seq %d (%s, turn %d): listed %v gives %v %v", where, s.Seq, s.Phase, s.Turn, a, err, vs)
			}
			if s.Phase == PhaseDraw && a.Act == ActDraw && a.Seat != s.Turn {
				t.Fatalf("%s: listed a draw by seat %d when seat %d is to draw", where, a.Seat, s.Turn)
			}
			if a.Act == ActDiscard && (a.Seat != s.Turn || s.Phase == PhaseDraw) {
				t.Fatalf("%s: listed a discard by seat %d in phase %s of seat %d", where, a.Seat, s.Phase, s.Turn)
			}
		}
	}
	for _, spec := range allRulesets {
		r := loadRules(t, spec)
		c := cardFor(t, r)
		rng := rand.New(rand.NewPCG(9, uint64(len(spec))))
		for g := 0; g < games; g++ {
			playLegal(t, rng, r, c, 0.02, func(st step) {
				if st.err == nil {
					check(fmt.Sprintf("%s game %d", spec, g), st.after)
				}
			})
		}
	}
	// The scenarios reach what random play rarely does: Mah Jonggs, pending calls, dead racks.
	files, _ := filepath.Glob("testdata/scenarios/*.jsonl")
	for _, f := range files {
		sc := readScenario(t, f)
		s := sc.start
		for _, a := range sc.log.Actions {
			check(filepath.Base(f), s)
			n, _, err := Apply(s, a)
			if err != nil {
				break
			}
			s = n
		}
	}
	for _, act := range Acts {
		if act == ActWallEnd {
			continue // listed only at the wall's end, which the scenarios reach (siamese-14-*)
		}
		if act == ActTakeBack {
			continue // never listed: the players' correction of the record, not an act at the table
		}
		if checked[act] == 0 {
			t.Errorf("no %s was ever listed: the test does not reach it", act)
		}
	}
	t.Logf("acts checked: %v", checked)
}

// TestLegalActionsFindWhatHappened: every legal act the random games played was in the list
// of the state it was played from (draws by face, calls by their tiles in any order).
func TestLegalActionsFindWhatHappened(t *testing.T) {
	for _, spec := range allRulesets {
		r := loadRules(t, spec)
		c := cardFor(t, r)
		rng := rand.New(rand.NewPCG(10, uint64(len(spec))))
		for g := 0; g < 10; g++ {
			playLegal(t, rng, r, c, 0.05, func(st step) {
				if st.err != nil || OutcomeOf(st.verdicts) != Applied || (st.act.Act == ActDeal && len(st.act.Tiles) > 1) ||
					(st.act.Act == ActMove && len(st.act.Tiles) > 1) {
					return
				}
				if !listed(LegalActions(&st.before), st.act) {
					t.Fatalf("%s: %v applied legally from seq %d (%s, turn %d) but was not listed", spec, st.act, st.before.Seq, st.before.Phase, st.before.Turn)
				}
			})
		}
	}
}

func listed(acts []Action, a Action) bool {
	key := func(a Action) string {
		c, _ := tile.CountsOf(a.Tiles)
		return fmt.Sprint(a.Seat, a.Act, a.Rack, a.To, a.For, a.Both, c, a.Target)
	}
	want := key(a)
	for _, b := range acts {
		if a.Rack == 0 && a.Act != ActMahJongg {
			b.Rack = 0 // the default rack: whichever holds the tile
		}
		if key(b) == want {
			return true
		}
	}
	return false
}

func TestLegalActionsAtTheStartAndEnd(t *testing.T) {
	c := loadCard(t)
	s := New(loadRules(t, "siamese"), c)
	acts := LegalActions(&s)
	if len(acts) == 0 || acts[0].Act != ActDeal {
		t.Fatalf("a fresh game lists %v, want deals", acts)
	}
	over := s
	over.Phase = PhaseOver
	if acts := LegalActions(&over); len(acts) != 0 {
		t.Fatalf("a game over lists %d acts", len(acts))
	}
}

// BenchmarkLegalActions: listing the legal acts of a state (goal: at most 20 µs), over the states
// of random games.
func BenchmarkLegalActions(b *testing.B) {
	benchLegalActions(b, loadRules(b, "siamese"), loadCard(b))
}

// benchLegalActions lists the legal acts of 2,000 states of random games of r.
func benchLegalActions(b *testing.B, r *Ruleset, c *card.Card) {
	rng := rand.New(rand.NewPCG(1, 2))
	var states []State
	for len(states) < 2000 {
		playLegal(b, rng, r, c, 0, func(st step) {
			if st.err == nil && st.after.Phase != PhaseDeal && st.after.Phase != PhaseOver {
				states = append(states, st.after)
			}
		})
	}
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for i := 0; i < b.N; i++ {
		n += len(LegalActions(&states[i%len(states)]))
	}
	b.ReportMetric(float64(n)/float64(b.N), "acts/state")
}
