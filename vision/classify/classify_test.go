package classify_test

import (
	"errors"
	"image"
	"testing"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/internal/shareddata"
	"github.com/siamesetable/siamesed/vision/classify"
	"github.com/siamesetable/siamesed/vision/synth"
)

// kinds are the two classifiers: the network (built-in model) and the hand-made features.
var kinds = []struct {
	name string
	new  func() (*classify.Classifier, error)
}{
	{"net", func() (*classify.Classifier, error) { return classify.NewNet("") }},
	{"features", func() (*classify.Classifier, error) { return classify.New(), nil }},
}

func enrolArt(t testing.TB, newClassifier func() (*classify.Classifier, error)) (*classify.Classifier, *synth.Art) {
	art, err := synth.LoadArt(shareddata.TileArt(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { art.Close() })
	c, err := newClassifier()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	for f := range tile.Face(tile.NumFaces) {
		if err := c.Enrol(f, art.Face(f)); err != nil {
			t.Fatal(err)
		}
	}
	return c, art
}

func TestClassifyArtAtEveryRotation(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) { testArtAtEveryRotation(t, k.new) })
	}
}

func testArtAtEveryRotation(t *testing.T, newClassifier func() (*classify.Classifier, error)) {
	c, art := enrolArt(t, newClassifier)
	turned := gocv.NewMat()
	defer turned.Close()
	blurred := gocv.NewMat()
	defer blurred.Close()
	for f := range tile.Face(tile.NumFaces) {
		gocv.GaussianBlur(art.Face(f), &blurred, image.Pt(5, 5), 0, 0, gocv.BorderDefault)
		for q, flag := range []gocv.RotateFlag{-1, gocv.Rotate90Clockwise, gocv.Rotate180Clockwise, gocv.Rotate90CounterClockwise} {
			src := blurred
			if flag >= 0 {
				gocv.Rotate(blurred, &turned, flag)
				src = turned
			}
			r, err := c.Classify(src)
			if err != nil {
				t.Fatal(err)
			}
			if r.Face != f || !r.Known {
				t.Errorf("%v at %d quarter turns: got %v (confidence %.3f, runner-up %v)", f, q, r.Face, r.Confidence, r.Runner)
			}
		}
	}
}

func TestClassifyErrors(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			c, err := k.new()
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			testErrors(t, c)
		})
	}
}

func testErrors(t *testing.T, c *classify.Classifier) {
	m := gocv.NewMatWithSize(80, 60, gocv.MatTypeCV8UC3)
	defer m.Close()
	if _, err := c.Classify(m); !errors.Is(err, classify.ErrNotEnrolled) {
		t.Fatalf("empty classifier: %v", err)
	}
	if err := c.Enrol(tile.NoFace, m); err == nil {
		t.Fatal("enrolled NoFace")
	}
	grey := gocv.NewMatWithSize(80, 60, gocv.MatTypeCV8UC1)
	defer grey.Close()
	if err := c.Enrol(tile.Bam1, grey); err == nil {
		t.Fatal("enrolled a grey crop")
	}
}

func BenchmarkClassify(b *testing.B) {
	for _, k := range kinds {
		b.Run(k.name, func(b *testing.B) { benchmarkClassify(b, k.new) })
	}
}

func benchmarkClassify(b *testing.B, newClassifier func() (*classify.Classifier, error)) {
	c, art := enrolArt(b, newClassifier)
	// A realistic gallery: 36 faces x 4 examples.
	for range 3 {
		for f := range tile.Face(tile.NumFaces) {
			if err := c.Enrol(f, art.Face(f)); err != nil {
				b.Fatal(err)
			}
		}
	}
	crop := art.Face(tile.Dot5)
	b.ResetTimer()
	for b.Loop() {
		if _, err := c.Classify(crop); err != nil {
			b.Fatal(err)
		}
	}
}
