package detect_test

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/internal/shareddata"
	"github.com/siamesetable/siamesed/vision/detect"
	"github.com/siamesetable/siamesed/vision/labels"
	"github.com/siamesetable/siamesed/vision/synth"
)

// meanDiff is the mean absolute difference of two images of one size, per channel value, both
// blurred first: a pixel's shift on a busy face should not count as a miss.
func meanDiff(a, b gocv.Mat) float64 {
	ab, bb := gocv.NewMat(), gocv.NewMat()
	defer ab.Close()
	defer bb.Close()
	gocv.GaussianBlur(a, &ab, image.Pt(0, 0), 2, 2, gocv.BorderReplicate)
	gocv.GaussianBlur(b, &bb, image.Pt(0, 0), 2, 2, gocv.BorderReplicate)
	d := gocv.NewMat()
	defer d.Close()
	gocv.AbsDiff(ab, bb, &d)
	s := d.Sum()
	return (s.Val1 + s.Val2 + s.Val3) / float64(3*a.Rows()*a.Cols())
}

// A tile cut loosely or beside itself, felt around it, is brought back to the tile alone; a crop
// that is all tile is left as it is.
func TestCentreCutsToTheTile(t *testing.T) {
	art, err := synth.LoadArt(artDir(t))
	if err != nil {
		t.Fatal(err)
	}
	defer art.Close()
	felt := color.RGBA{40, 110, 30, 0}
	for _, f := range []tile.Face{tile.Bam3, tile.Crak7, tile.Dot9, tile.North, tile.White, tile.Joker} {
		face := gocv.NewMat()
		gocv.Resize(art.Face(f), &face, image.Pt(detect.CropW, detect.CropH), 0, 0, gocv.InterpolationArea)
		same := detect.Centre(face)
		if d := meanDiff(same, face); d != 0 {
			t.Errorf("%v: a crop that is all tile changed by %.1f", f, d)
		}
		same.Close()
		for _, pad := range [][4]int{{12, 12, 9, 9}, {0, 14, 0, 10}, {16, 0, 3, 0}} {
			loose := gocv.NewMat()
			gocv.CopyMakeBorder(face, &loose, pad[0], pad[1], pad[2], pad[3], gocv.BorderConstant, felt)
			gocv.Resize(loose, &loose, image.Pt(detect.CropW, detect.CropH), 0, 0, gocv.InterpolationArea)
			got := detect.Centre(loose)
			before, after := meanDiff(loose, face), meanDiff(got, face)
			if after > before/3 {
				t.Errorf("%v padded %v: %.1f from the tile before, %.1f after; want a third or less", f, pad, before, after)
			}
			loose.Close()
			got.Close()
		}
		face.Close()
	}
	felted := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(30, 110, 40, 0), detect.CropH, detect.CropW, gocv.MatTypeCV8UC3)
	defer felted.Close()
	if got := detect.Centre(felted); meanDiff(got, felted) != 0 {
		t.Error("plain felt was cut")
	} else {
		got.Close()
	}
}

// litAcross scales m's brightness from 1 at one side to far at the other, across the direction
// at angle a (radians), with a little sensor noise.
func litAcross(m gocv.Mat, far, a float64, rng *rand.Rand) gocv.Mat {
	out := m.Clone()
	w, h := out.Cols(), out.Rows()
	for y := range h {
		for x := range w {
			u := 0.5 + (float64(x)/float64(w)-0.5)*math.Cos(a) + (float64(y)/float64(h)-0.5)*math.Sin(a)
			k := 1 + (far-1)*math.Min(1, math.Max(0, u))
			for c := range 3 {
				v := float64(out.GetUCharAt(y, x*3+c))*k + rng.NormFloat64()*2
				out.SetUCharAt(y, x*3+c, uint8(math.Min(255, math.Max(0, v))))
			}
		}
	}
	return out
}

// Light falling across a tile (a lamp to one side) must not get the tile cut: its shaded part is
// dark and plain like a cloth, but joins the lit part without a step. Every real photo, lit from
// eight directions, is cut where it was cut evenly lit (at most 1% otherwise, 0.4% when written;
// before the step was looked for, 4.1% lost their shaded part). The same tile on a dark cloth
// under the same light: TestFaceRectUnderUnevenLight.
func TestCentreKeepsATileInItsOwnShade(t *testing.T) {
	dir := shareddata.Photos(t)
	items, err := labels.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	cut, n := 0, 0
	for _, it := range items {
		m := gocv.IMRead(filepath.Join(dir, labels.ImageDir, it.Image), gocv.IMReadColor)
		if m.Empty() {
			t.Fatalf("cannot read %s", it.Image)
		}
		crop := gocv.NewMat()
		gocv.Resize(m, &crop, image.Pt(detect.CropW, detect.CropH), 0, 0, gocv.InterpolationArea)
		m.Close()
		even := detect.Centre(crop)
		whole := meanDiff(even, crop) == 0
		even.Close()
		for i := range 8 {
			if !whole {
				break // photographed with a table around it: cut however lit
			}
			lit := litAcross(crop, 0.3, float64(i)*math.Pi/4, rng)
			got := detect.Centre(lit)
			n++
			if d := meanDiff(got, lit); d > 0 {
				cut++
				t.Logf("%s (%v) lit from %d degrees: cut, %.1f from the crop", it.Image, it.Tile, i*45, d)
			}
			got.Close()
			lit.Close()
		}
		crop.Close()
	}
	if cut*100 > n {
		t.Errorf("%d of %d unevenly lit crops cut where the evenly lit one was not", cut, n)
	}
}

// BenchmarkCentre: one loose crop of the extractor's size brought back to its tile.
func BenchmarkCentre(b *testing.B) {
	art, err := synth.LoadArt(artDir(b))
	if err != nil {
		b.Fatal(err)
	}
	defer art.Close()
	loose := gocv.NewMat()
	defer loose.Close()
	gocv.CopyMakeBorder(art.Face(tile.Dot7), &loose, 24, 24, 18, 18, gocv.BorderConstant, color.RGBA{40, 110, 30, 0})
	gocv.Resize(loose, &loose, image.Pt(detect.CropW, detect.CropH), 0, 0, gocv.InterpolationArea)
	for b.Loop() {
		m := detect.Centre(loose)
		m.Close()
	}
}
