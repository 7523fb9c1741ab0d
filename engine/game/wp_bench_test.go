package game

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkLegalActionsWrightPatterson is BenchmarkLegalActions on a Wright-Patterson table:
// flower exchanges (per rack, replacement face and rack) and rolls listed too.
func BenchmarkLegalActionsWrightPatterson(b *testing.B) {
	r := loadRules(b, "wright-patterson-siamese")
	c := cardFor(b, r)
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

// BenchmarkReplayWrightPatterson replays random Wright-Patterson games (flowers exchanged,
// limits paid).
func BenchmarkReplayWrightPatterson(b *testing.B) {
	r := loadRules(b, "wright-patterson-siamese")
	c := cardFor(b, r)
	rng := rand.New(rand.NewPCG(5, 5))
	var logs [][]Action
	for len(logs) < 20 {
		logs = append(logs, randomGame(b, rng, r, c, func(State, State, Action) {}))
	}
	b.ReportAllocs()
	b.ResetTimer()
	acts := 0
	for i := 0; i < b.N; i++ {
		l := logs[i%len(logs)]
		if _, _, err := Replay(New(r, c), l); err != nil {
			b.Fatal(err)
		}
		acts += len(l)
	}
	b.ReportMetric(float64(acts)/b.Elapsed().Seconds(), "actions/s")
}

// BenchmarkWallPotOf folds a long session (200 games) through the wall pot.
func BenchmarkWallPotOf(b *testing.B) {
	results := make([]*Result, 200)
	for i := range results {
		if i%3 == 2 {
			seat := i % 2
			results[i] = &Result{Scores: []int{500, 0}, WallPot: &WallPotMove{Taker: &seat}}
		} else {
			results[i] = &Result{Scores: []int{0, 0}, WallPot: &WallPotMove{PaidIn: 50}}
		}
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_ = WallPotOf(2, 0, results, RefundPot)
	}
}
