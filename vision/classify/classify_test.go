package classify_test

import (
	"errors"
	"image"
	"os"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/vision/classify"
	"github.com/siamesetable/siamesed/vision/synth"
)

// artDir is ../shared/data/tile-art/png from the repository root (tests run in vision/classify).
func artDir(t testing.TB) string {
	dir := filepath.Join("..", "..", "..", "shared", "data", "tile-art", "png")
	if _, err := os.Stat(filepath.Join(dir, "Front.png")); err != nil {
		t.Skipf("tile artwork not found at ../shared/data/tile-art (next to the repository): %v", err)
	}
	return dir
}

func enrolArt(t testing.TB) (*classify.Classifier, *synth.Art) {
	art, err := synth.LoadArt(artDir(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { art.Close() })
	c := classify.New()
	for f := range tile.Face(tile.NumFaces) {
		if err := c.Enrol(f, art.Face(f)); err != nil {
			t.Fatal(err)
		}
	}
	return c, art
}

func TestClassifyArtAtEveryRotation(t *testing.T) {
	c, art := enrolArt(t)
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
	c := classify.New()
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
	c, art := enrolArt(b)
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
