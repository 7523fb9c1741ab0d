package card

import (
	"math/rand/v2"
	"os"
	"testing"

	"github.com/siamesetable/siamesed/engine/tile"
)

const exampleCardPath = "../../configs/cards/example.yaml"

func loadExample(tb testing.TB) *Card {
	tb.Helper()
	data, err := os.ReadFile(exampleCardPath)
	if err != nil {
		tb.Fatalf("example card: %v", err)
	}
	c, err := Parse(exampleCardPath, data)
	if err != nil {
		tb.Fatalf("example card: %v", err)
	}
	return c
}

// benchRacks returns n 14-tile racks: half are a card variant with a joker or two swapped in,
// half a variant with one tile changed (mostly no match), like a rack being checked mid-play.
func benchRacks(c *Card, n int) []Rack {
	rng := rand.New(rand.NewPCG(7, 7))
	out := make([]Rack, n)
	for i := range out {
		v := &c.variants[rng.IntN(len(c.variants))]
		var counts tile.Counts
		for _, g := range v.groups {
			for _, f := range g.tiles {
				counts[f]++
			}
		}
		faces := counts.Faces()
		k := rng.IntN(len(faces))
		if i%2 == 0 {
			faces[k] = tile.Joker
		} else {
			faces[k] = tile.Face(rng.IntN(int(tile.Joker)))
		}
		out[i].Concealed, _ = tile.CountsOf(faces)
	}
	return out
}

func BenchmarkMatch(b *testing.B) {
	c := loadExample(b)
	racks := benchRacks(c, 1024)
	dst := make([]Match, 0, 8)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		dst = c.AppendMatches(dst[:0], racks[i%len(racks)])
	}
}

func BenchmarkAway14(b *testing.B) {
	c := loadExample(b)
	racks := benchRacks(c, 256)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = c.Away(racks[i%len(racks)].Concealed, nil)
	}
}

// BenchmarkAppendAway14 is tiles-away for every hand of the example card from a 14-tile rack,
// reusing the result slice as a caller on the hot path does.
func BenchmarkAppendAway14(b *testing.B) {
	c := loadExample(b)
	racks := benchRacks(c, 256)
	dst := make([]Away, 0, len(c.Hands))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		dst = c.AppendAway(dst[:0], racks[i%len(racks)].Concealed, nil, nil)
	}
}

// siameseHoldings returns n realistic Siamese holdings of 28 tiles (after the draw): two random
// card variants' tiles, with some noise (random tiles, a joker), thinned to 28.
func siameseHoldings(c *Card, n int) []tile.Counts {
	rng := rand.New(rand.NewPCG(3, 4))
	hands := make([]tile.Counts, n)
	for i := range hands {
		var all []tile.Face
		for len(all) < 28 {
			v := &c.variants[rng.IntN(len(c.variants))]
			for _, g := range v.groups {
				all = append(all, g.tiles...)
			}
		}
		rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
		for k := 0; k < 8; k++ {
			all[k] = tile.Face(rng.IntN(tile.NumFaces))
		}
		hands[i], _ = tile.CountsOf(all[:28])
	}
	return hands
}

// BenchmarkAwayAndMatch14 is what an outside evaluator's one call answers for a 14-tile rack:
// tiles-away for every hand, and which hands it completes.
func BenchmarkAwayAndMatch14(b *testing.B) {
	c := loadExample(b)
	racks := benchRacks(c, 256)
	aways := make([]Away, 0, len(c.Hands))
	matches := make([]Match, 0, 8)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := racks[i%len(racks)]
		aways = c.AppendAway(aways[:0], r.Concealed, nil, nil)
		matches = c.AppendMatches(matches[:0], r)
	}
}

func BenchmarkAdvise28(b *testing.B) {
	c := loadExample(b)
	hands := siameseHoldings(c, 64)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = c.Advise(hands[i%len(hands)], nil, nil, 5)
	}
}

// BenchmarkAdvise28Top100 is Siamese advice asked for the most pairs it ranks.
func BenchmarkAdvise28Top100(b *testing.B) {
	c := loadExample(b)
	hands := siameseHoldings(c, 64)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = c.Advise(hands[i%len(hands)], nil, nil, MaxAdvice)
	}
}

// BenchmarkAdviseDiscards28 ranks every candidate discard of a 28-tile Siamese holding.
func BenchmarkAdviseDiscards28(b *testing.B) {
	c := loadExample(b)
	hands := siameseHoldings(c, 64)
	table := &Table{Set: tile.American().Count}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = c.AdviseDiscards(Siamese{Concealed: hands[i%len(hands)]}, table)
	}
}

func BenchmarkParseExampleCard(b *testing.B) {
	data, err := os.ReadFile(exampleCardPath)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Parse("example.yaml", data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAdviseLimitList28 is Siamese advice on the example limit list (chows, mixed chows).
func BenchmarkAdviseLimitList28(b *testing.B) {
	c, err := Load(limitListPath)
	if err != nil {
		b.Fatal(err)
	}
	hands := siameseHoldings(c, 64)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = c.Advise(hands[i%len(hands)], nil, nil, 5)
	}
}

// BenchmarkMatchLimitList is Match on racks made from the example limit list's hands.
func BenchmarkMatchLimitList(b *testing.B) {
	c, err := Load(limitListPath)
	if err != nil {
		b.Fatal(err)
	}
	racks := benchRacks(c, 256)
	matches := make([]Match, 0, 8)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		matches = c.AppendMatches(matches[:0], racks[i%len(racks)])
	}
}
