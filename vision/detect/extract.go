package detect

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"gocv.io/x/gocv"
)

// CropW and CropH are the canonical crop size: a portrait tile, upright or half a turn round.
const (
	CropW = 60
	CropH = 80
)

// Extractor finds tiles that differ from a reference view of the empty area.
type Extractor struct {
	// TileW is the expected tile width (short side) in the top-down view, in pixels.
	TileW int
	// Diff is the colour change that marks a pixel as not the empty area (default 40).
	Diff float32
	// Slack is the allowed size error, a share of the expected size (default 0.35).
	Slack float64
}

// Found is one tile found in a view.
type Found struct {
	Center image.Point
	Box    gocv.RotatedRect
	Crop   gocv.Mat // CropW x CropH, BGR; the caller closes it
}

// Extract compares view with the empty reference and cuts out every blob of a tile's size and
// shape. Blobs of other shapes (a hand, two touching tiles) are counted in others.
func (e Extractor) Extract(view, empty gocv.Mat) (found []Found, others int, err error) {
	if view.Cols() != empty.Cols() || view.Rows() != empty.Rows() || view.Type() != empty.Type() {
		return nil, 0, fmt.Errorf("detect: view %dx%d and reference %dx%d differ", view.Cols(), view.Rows(), empty.Cols(), empty.Rows())
	}
	if e.TileW <= 0 {
		return nil, 0, fmt.Errorf("detect: tile width %d", e.TileW)
	}
	diff := gocv.NewMat()
	defer diff.Close()
	gocv.AbsDiff(view, empty, &diff)
	grey := gocv.NewMat()
	defer grey.Close()
	gocv.CvtColor(diff, &grey, gocv.ColorBGRToGray)
	gocv.Threshold(grey, &grey, e.diff(), 255, gocv.ThresholdBinary)
	k := gocv.GetStructuringElement(gocv.MorphRect, image.Pt(5, 5))
	defer k.Close()
	// Close the glyph holes and gaps inside a tile, fill each blob, then drop specks. Dark
	// glyphs (a 9D's dots) can differ from the table less than Diff: they leave holes, and where
	// they come near the tile's edge only a rim thinner than the opening joins them, which the
	// opening would cut away with the glyphs behind it unless the blob is filled first.
	gocv.MorphologyEx(grey, &grey, gocv.MorphClose, k)
	blobs := gocv.FindContours(grey, gocv.RetrievalExternal, gocv.ChainApproxSimple)
	gocv.DrawContours(&grey, blobs, -1, color.RGBA{255, 255, 255, 0}, -1)
	blobs.Close()
	gocv.MorphologyEx(grey, &grey, gocv.MorphOpen, k)
	contours := gocv.FindContours(grey, gocv.RetrievalExternal, gocv.ChainApproxSimple)
	defer contours.Close()
	want := float64(e.TileW)
	slack := e.slack()
	for i := range contours.Size() {
		c := contours.At(i)
		if gocv.ContourArea(c) < want*want*4/3*(1-slack)*(1-slack) {
			continue // noise
		}
		box := gocv.MinAreaRect(c)
		short, long := float64(min(box.Width, box.Height)), float64(max(box.Width, box.Height))
		if math.Abs(short-want) > slack*want || math.Abs(long-want*4/3) > slack*want*4/3 {
			others++
			continue
		}
		cut, err := warpBox(view, box)
		if err != nil {
			return nil, 0, err
		}
		// A shadow or a neighbour's edge in the blob makes the box loose or off-centre.
		crop := Centre(cut)
		cut.Close()
		found = append(found, Found{Center: box.Center, Box: box, Crop: crop})
	}
	return found, others, nil
}

func (e Extractor) diff() float32 {
	if e.Diff == 0 {
		return 40
	}
	return e.Diff
}

func (e Extractor) slack() float64 {
	if e.Slack == 0 {
		return 0.35
	}
	return e.Slack
}

// warpBox cuts the rotated box out of view as a portrait CropW x CropH image: its first edge is
// one of the short sides, so the tile comes out upright or half a turn round.
func warpBox(view gocv.Mat, box gocv.RotatedRect) (gocv.Mat, error) {
	p := box.Points
	if len(p) != 4 {
		return gocv.Mat{}, fmt.Errorf("detect: box has %d corners", len(p))
	}
	if dist(p[0], p[1]) > dist(p[1], p[2]) {
		p = []image.Point{p[1], p[2], p[3], p[0]}
	}
	src := gocv.NewPointVectorFromPoints(p)
	defer src.Close()
	dst := gocv.NewPointVectorFromPoints([]image.Point{{0, 0}, {CropW, 0}, {CropW, CropH}, {0, CropH}})
	defer dst.Close()
	m := gocv.GetPerspectiveTransform(src, dst)
	defer m.Close()
	crop := gocv.NewMat()
	gocv.WarpPerspective(view, &crop, m, image.Pt(CropW, CropH))
	return crop, nil
}

func dist(a, b image.Point) float64 { return math.Hypot(float64(a.X-b.X), float64(a.Y-b.Y)) }
