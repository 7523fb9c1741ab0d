package eval_test

import (
	"testing"

	"github.com/siamesetable/siamesed/internal/shareddata"
	"github.com/siamesetable/siamesed/vision/classify"
	"github.com/siamesetable/siamesed/vision/eval"
	"github.com/siamesetable/siamesed/vision/labels"
	"github.com/siamesetable/siamesed/vision/synth"
)

func photosDir(t testing.TB) string { return shareddata.Photos(t) }

// The classifier enrolled on half of photos-dev (real tiles of many sets) and tested on the other
// half at all four rotations. Measured top-1 over seeds 1..5: 0.732 to 0.783 (0.771 with seed 1);
// the goal is 0.99. This floor keeps the measured figure from sliding back unnoticed.
const floor = 0.70

func TestPhotosDevSplit(t *testing.T) {
	dir := photosDir(t)
	items, err := labels.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	enrol, test := labels.Split(items, 0.5, 1)
	c := classify.New()
	if err := c.EnrolDir(dir, enrol); err != nil {
		t.Fatal(err)
	}
	r, err := eval.Run(c, dir, test)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("top-1 %.3f over %d crops (%d images x 4 rotations), median %.2f ms, p99 %.2f ms",
		r.Accuracy, r.N, r.Images, r.MedianMS, r.P99MS)
	if r.N != 4*len(test) {
		t.Fatalf("n = %d, want %d", r.N, 4*len(test))
	}
	if r.Accuracy < floor {
		t.Errorf("top-1 %.3f below the floor %.2f; most confused: %v", r.Accuracy, floor, r.Confused[:min(5, len(r.Confused))])
	}
	for deg, acc := range r.ByRotation {
		if acc < floor {
			t.Errorf("at %d degrees: top-1 %.3f below the floor %.2f", deg, acc, floor)
		}
	}
}

func TestSyntheticFrames(t *testing.T) {
	dir := shareddata.TileArt(t)
	art, err := synth.LoadArt(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer art.Close()
	r, err := eval.Synthetic(art, synth.Options{Tilt: 0.08, Light: 0.3, Blur: 3, Noise: 4, Seed: 2}, 5, 12, 3)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", r)
	if r.N != 60 || r.Found != 60 || r.Extra != 0 || r.Accuracy < 0.95 {
		t.Errorf("got %+v; want all 60 tiles found, none extra, 95%% named right", r)
	}
}
