package detect_test

import (
	"image"
	"image/color"
	"testing"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/vision/detect"
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
