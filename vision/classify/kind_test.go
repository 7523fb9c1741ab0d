package classify_test

import (
	"image"
	"testing"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/vision/classify"
	"github.com/siamesetable/siamesed/vision/synth"
)

// A face never enrolled is answered unknown, not named as the enrolled face nearest it: the
// built-in model's face classes take the drawn 5C and joker for what they are, and with those
// two left out of the enrolment both are too far, by that rule (KindLead) alone when every other
// threshold is opened. Without the rule they are named, wrongly, as some enrolled face;
// enrolled, they are named right and known.
func TestAFaceNeverEnrolledIsUnknown(t *testing.T) {
	art, err := synth.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	defer art.Close()
	c, err := classify.NewNet("")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	left := []tile.Face{tile.Crak5, tile.Joker}
	for f := range tile.Face(tile.NumFaces) {
		if f != left[0] && f != left[1] {
			if err := c.Enrol(f, art.Face(f)); err != nil {
				t.Fatal(err)
			}
		}
	}
	blurred := gocv.NewMat()
	defer blurred.Close()
	answer := func(f tile.Face) classify.Result {
		gocv.GaussianBlur(art.Face(f), &blurred, image.Pt(3, 3), 0, 0, gocv.BorderDefault)
		r, err := c.Classify(blurred)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, f := range left {
		if r := answer(f); r.Known || r.Why != classify.TooFar || r.Kind != f || r.Lead <= 0 {
			t.Errorf("%v never enrolled: %+v; want unknown, too far, the network taking it for %v", f, r, f)
		}
	}
	// The rule alone: every other threshold opened, the network's face classes still keep them
	// from being named.
	c.MinSimilarity, c.MaxNone, c.Threshold = -1, 0, 0
	for _, f := range left {
		if r := answer(f); r.Known || r.Why != classify.TooFar || r.Kind != f {
			t.Errorf("%v never enrolled, KindLead alone: %+v; want unknown, too far", f, r)
		}
	}
	c.KindLead = -1
	for _, f := range left {
		if r := answer(f); !r.Known || r.Face == f {
			t.Errorf("%v never enrolled, without the rule: %+v; want it named as an enrolled face", f, r)
		}
	}
	c.KindLead = classify.NetKindLead
	for _, f := range left {
		if err := c.Enrol(f, art.Face(f)); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range left {
		if r := answer(f); !r.Known || r.Face != f || r.Kind != f || r.Lead != 0 {
			t.Errorf("%v enrolled: %+v; want it named and known", f, r)
		}
	}
	// The hand-made features have no face classes: no kind, and the rule stays out of the way.
	feat := classify.New()
	if err := feat.Enrol(tile.Bam1, art.Face(tile.Bam1)); err != nil {
		t.Fatal(err)
	}
	if r, err := feat.Classify(art.Face(tile.Bam1)); err != nil || r.Kind != tile.NoFace || !r.Known {
		t.Errorf("features: %+v, %v; want known, no kind", r, err)
	}
}
