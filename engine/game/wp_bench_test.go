package game

import (
	"testing"
)

// BenchmarkLegalActionsWrightPatterson is BenchmarkLegalActions on a Wright-Patterson table:
// flower exchanges (per rack, replacement face and rack) and rolls listed too.
func BenchmarkLegalActionsWrightPatterson(b *testing.B) {
	r := loadRules(b, "wright-patterson-siamese")
	benchLegalActions(b, r, cardFor(b, r))
}

// BenchmarkReplayWrightPatterson replays random Wright-Patterson games (flowers exchanged,
// limits paid).
func BenchmarkReplayWrightPatterson(b *testing.B) {
	r := loadRules(b, "wright-patterson-siamese")
	benchReplay(b, r, cardFor(b, r))
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
