package classify_test

import (
	"image"
	"testing"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/vision/classify"
	"github.com/siamesetable/siamesed/vision/synth"
)

// An evaluation embeds once and re-enrols many times (vision/eval): Example then Add must enrol
// what Enrol does, and Query then Answer must answer what Classify does, for every face of the
// built-in artwork, blurred and turned a quarter.
func TestExampleAndQueryAreEnrolAndClassify(t *testing.T) {
	art, err := synth.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	defer art.Close()
	direct, err := classify.NewNet("")
	if err != nil {
		t.Fatal(err)
	}
	defer direct.Close()
	split, err := classify.NewNet("")
	if err != nil {
		t.Fatal(err)
	}
	defer split.Close()
	if _, err := split.Answer(classify.Query{}); err == nil {
		t.Fatal("Answer with nothing enrolled: no error")
	}
	for f := range tile.Face(tile.NumFaces) {
		if err := direct.Enrol(f, art.Face(f)); err != nil {
			t.Fatal(err)
		}
		ex, err := split.Example(f, art.Face(f))
		if err != nil {
			t.Fatal(err)
		}
		if ex.Face != f {
			t.Fatalf("example of %v says %v", f, ex.Face)
		}
		split.Add(ex)
	}
	if direct.Len() != split.Len() {
		t.Fatalf("enrolled %d crops, added %d", direct.Len(), split.Len())
	}
	m := gocv.NewMat()
	defer m.Close()
	for f := range tile.Face(tile.NumFaces) {
		gocv.GaussianBlur(art.Face(f), &m, image.Pt(5, 5), 0, 0, gocv.BorderDefault)
		gocv.Rotate(m, &m, gocv.Rotate90Clockwise)
		want, err := direct.Classify(m)
		if err != nil {
			t.Fatal(err)
		}
		q, err := split.Query(m)
		if err != nil {
			t.Fatal(err)
		}
		got, err := split.Answer(q)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("%v: Answer(Query) = %+v, Classify = %+v", f, got, want)
		}
	}
	if _, err := split.Example(tile.NoFace, art.Face(0)); err == nil {
		t.Error("an example of no face: no error")
	}
}

// Example.Similarity: a crop is wholly like itself, and like itself half a turn round (the
// examples are compared both ways up); two different faces are less alike; the measure is
// symmetric.
func TestExampleSimilarity(t *testing.T) {
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
	turned := gocv.NewMat()
	defer turned.Close()
	gocv.Rotate(art.Face(tile.Crak5), &turned, gocv.Rotate180Clockwise)
	ex := func(f tile.Face, m gocv.Mat) classify.Example {
		e, err := c.Example(f, m)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	five, fiveTurned, north := ex(tile.Crak5, art.Face(tile.Crak5)), ex(tile.Crak5, turned), ex(tile.North, art.Face(tile.North))
	if s := five.Similarity(five); s < 0.999 {
		t.Errorf("5C with itself: %.4f, want 1", s)
	}
	if s := five.Similarity(fiveTurned); s < 0.99 {
		t.Errorf("5C with itself half a turn round: %.4f, want 1", s)
	}
	a, b := five.Similarity(north), north.Similarity(five)
	if a != b || a > 0.8 {
		t.Errorf("5C with N: %.4f, N with 5C: %.4f; want the same, and well below 1", a, b)
	}
}
