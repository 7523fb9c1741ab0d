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

func BenchmarkAdvise28(b *testing.B) {
	c := loadExample(b)
	rng := rand.New(rand.NewPCG(3, 4))
	hands := make([]tile.Counts, 64)
	for i := range hands {
		// A realistic Siamese holding: two random card variants' tiles, thinned to 28.
		var all []tile.Face
		for len(all) < 28 {
			v := &c.variants[rng.IntN(len(c.variants))]
			for _, g := range v.groups {
				all = append(all, g.tiles...)
			}
		}
		rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
		for k := 0; k < 8; k++ { // some noise: random tiles and a joker
			all[k] = tile.Face(rng.IntN(tile.NumFaces))
		}
		hands[i], _ = tile.CountsOf(all[:28])
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = c.Advise(hands[i%len(hands)], nil, nil, 5)
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
