package detect

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"testing"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/internal/shareddata"
	"github.com/siamesetable/siamesed/vision/synth"
)

// A tile on a dark cloth, dim light falling across both (0.6 to 0.3) with a camera's noise: the
// cloth still shows its step down at the face's edge, so the face is found to its edges, and is
// never cut wrongly. A face full of glyphs (9D) is left whole: its mean brightness is near the
// cloth's, and leaving a crop uncut costs far less than cutting a tile.
func TestFaceRectUnderUnevenLight(t *testing.T) {
	art, err := synth.LoadArt(shareddata.TileArt(t))
	if err != nil {
		t.Fatal(err)
	}
	defer art.Close()
	rng := rand.New(rand.NewPCG(3, 4))
	found, n := 0, 0
	for _, f := range []tile.Face{tile.Crak1, tile.Bam7, tile.Dot9, tile.North, tile.White} {
		face := gocv.NewMat()
		gocv.Resize(art.Face(f), &face, image.Pt(CropW, CropH), 0, 0, gocv.InterpolationArea)
		pad := gocv.NewMat()
		gocv.CopyMakeBorder(face, &pad, 12, 12, 9, 9, gocv.BorderConstant, color.RGBA{50, 50, 50, 0})
		sx, sy := float64(CropW)/float64(pad.Cols()), float64(CropH)/float64(pad.Rows())
		tileAt := image.Rect(int(9*sx), int(12*sy), int(float64(9+CropW)*sx), int(float64(12+CropH)*sy))
		gocv.Resize(pad, &pad, image.Pt(CropW, CropH), 0, 0, gocv.InterpolationArea)
		for i := range 8 {
			a := float64(i) * math.Pi / 4
			lit := pad.Clone()
			for y := range CropH {
				for x := range CropW {
					u := 0.5 + (float64(x)/CropW-0.5)*math.Cos(a) + (float64(y)/CropH-0.5)*math.Sin(a)
					k := 0.6 - 0.3*math.Min(1, math.Max(0, u))
					for c := range 3 {
						v := float64(lit.GetUCharAt(y, x*3+c))*k + rng.NormFloat64()*3
						lit.SetUCharAt(y, x*3+c, uint8(math.Min(255, math.Max(0, v))))
					}
				}
			}
			r, ok := faceRect(lit)
			n++
			switch {
			case !ok:
				t.Logf("%v lit from %d degrees: left whole", f, i*45)
			case overlap(r, tileAt) < 0.85:
				t.Errorf("%v lit from %d degrees: cut at %v, want about %v", f, i*45, r, tileAt)
			default:
				found++
			}
			lit.Close()
		}
		pad.Close()
		face.Close()
	}
	if found*4 < n*3 {
		t.Errorf("face found in %d of %d crops, want three quarters", found, n)
	}
}

// overlap is the area two rectangles share over the area they cover together.
func overlap(a, b image.Rectangle) float64 {
	in := a.Intersect(b)
	shared := float64(in.Dx() * in.Dy())
	return shared / (float64(a.Dx()*a.Dy()+b.Dx()*b.Dy()) - shared)
}
