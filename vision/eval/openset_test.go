package eval_test

import (
	"testing"

	"github.com/siamesetable/siamesed/vision/classify"
	"github.com/siamesetable/siamesed/vision/eval"
	"github.com/siamesetable/siamesed/vision/labels"
)

// The network's two thresholds, measured where they matter: non-tile crops (felt, wood, cloth,
// hands, tile backs, shadows, blank fronts, pieces of tiles) must come back unknown, and real
// tiles under the table's conditions must not all turn into questions. Ignoring MinSimilarity,
// or raising either threshold far, fails this test.
func TestUnknownsAndQuestions(t *testing.T) {
	dir := photosDir(t)
	items, err := labels.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	enrol, test := labels.Split(unseen(t, items), 0.5, 1)
	c, err := classify.NewNet("")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.EnrolDir(dir, enrol); err != nil {
		t.Fatal(err)
	}
	crops, err := eval.NonTiles(12, 1, dir, test, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		for _, ms := range crops {
			for _, m := range ms {
				m.Close()
			}
		}
	}()
	open, err := eval.RunOpenSet(c, crops)
	if err != nil {
		t.Fatal(err)
	}
	all := open[len(open)-1]
	t.Logf("non-tile: %+v", open)
	if all.Kind != "all" || all.N != 4*12*8 || all.Rejected < nonTileFloor || all.Far < all.Close {
		t.Errorf("non-tile crops: %+v; want all %d rejected at least %.2f, mostly as too far", all, 4*12*8, nonTileFloor)
	}
	r, err := eval.Run(c, dir, test[:60])
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("real tiles: %.3f answered", r.Known)
	if r.Known < knownFloor {
		t.Errorf("real tiles: %.3f answered, want at least %.2f (the rest turned into questions)", r.Known, knownFloor)
	}
}

// Floors of TestUnknownsAndQuestions and TestConditions, below the measured figures
// (docs/vision.md): 382 of the 384 non-tile crops rejected, 372 without the "no tile" class
// (MaxNone 0), which nonTileFloor fails; real tiles answered 1.000 plainly and 0.975 at the
// least, under uneven light (the 4 of those 160 crops the centring cut wrongly, asked about).
const (
	nonTileFloor = 0.98
	knownFloor   = 0.97
)
