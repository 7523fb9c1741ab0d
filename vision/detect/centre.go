package detect

import (
	"image"

	"gocv.io/x/gocv"
)

// Centre finds the tile face in a crop cut loosely or off-centre (table around it, the cut a
// little beside the tile) and returns it cut square to its edges at the crop's size; a crop that
// is all tile already, or in which no tile-like region stands out, comes back as a copy. The face
// is told from the table by being light and colourless (value less half the saturation, Otsu's
// threshold). The caller closes the result.
func Centre(crop gocv.Mat) gocv.Mat {
	r, ok := faceRect(crop)
	if !ok {
		return crop.Clone()
	}
	win := crop.Region(r)
	defer win.Close()
	out := gocv.NewMat()
	gocv.Resize(win, &out, image.Pt(crop.Cols(), crop.Rows()), 0, 0, gocv.InterpolationLinear)
	return out
}

// The face's region must cover at least minShare of the crop, and is used only when it leaves
// out at least trimShare of the crop's width or height (less is the tile's own edge).
const (
	minShare  = 0.3
	trimShare = 0.06
)

// faceRect is the bounding box of the largest light, colourless region, when it is plausibly a
// tile face seen whole: a large share of the crop, shaped like the crop (portrait or landscape
// alike), and not the whole crop.
func faceRect(crop gocv.Mat) (image.Rectangle, bool) {
	if crop.Empty() || crop.Channels() != 3 || crop.Cols() < 16 || crop.Rows() < 16 {
		return image.Rectangle{}, false
	}
	hsv := gocv.NewMat()
	defer hsv.Close()
	gocv.CvtColor(crop, &hsv, gocv.ColorBGRToHSV)
	ch := gocv.Split(hsv)
	defer func() {
		for _, c := range ch {
			c.Close()
		}
	}()
	light := gocv.NewMat()
	defer light.Close()
	gocv.AddWeighted(ch[2], 1, ch[1], -0.5, 0, &light) // saturates at 0
	mask := gocv.NewMat()
	defer mask.Close()
	gocv.Threshold(light, &mask, 0, 255, gocv.ThresholdBinary|gocv.ThresholdOtsu)
	k := gocv.GetStructuringElement(gocv.MorphRect, image.Pt(max(3, crop.Cols()/12), max(3, crop.Rows()/12)))
	defer k.Close()
	gocv.MorphologyEx(mask, &mask, gocv.MorphClose, k) // the glyphs are dark: fill them in
	contours := gocv.FindContours(mask, gocv.RetrievalExternal, gocv.ChainApproxSimple)
	defer contours.Close()
	best, bestArea := image.Rectangle{}, 0.0
	for i := range contours.Size() {
		if a := gocv.ContourArea(contours.At(i)); a > bestArea {
			best, bestArea = gocv.BoundingRect(contours.At(i)), a
		}
	}
	w, h := float64(crop.Cols()), float64(crop.Rows())
	bw, bh := float64(best.Dx()), float64(best.Dy())
	switch {
	case bestArea < minShare*w*h:
		return best, false // no large light region: a dark or colourful tile, or no tile
	case bw > (1-trimShare)*w && bh > (1-trimShare)*h:
		return best, false // all tile already
	case bw/bh < 0.55*w/h || bw/bh > 1.6*w/h:
		return best, false // not shaped like a tile seen whole (a tile cut by the crop's edge, or two)
	}
	return best, true
}
