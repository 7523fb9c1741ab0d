package detect

import (
	"image"
	"slices"

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
	case busyOutside(crop, best):
		return best, false // what would be cut away has marks on it: the tile in shadow, not table
	}
	return best, true
}

// A strip beside the face is table when it is clearly more colourful than the face (felt, wood:
// saturation minSatGain above the face's), or clearly darker (a dark cloth: under maxDarkShare of
// the face's brightness) with a step down at the face's edge (the upper quartile of brightness
// just outside under maxEdgeShare of just inside). A tile's own face in shade is neither: as
// colourless as the lit part, and light falling across it leaves no step where Otsu's threshold
// cut it; a glyph beside the cut darkens only part of a band, below its upper quartile. Light
// falling across a cloth too (a lamp to one side) leaves its step, where a test of the cloth's
// plainness (once its grey levels' spread) took the gradient and a dim camera's noise for marks.
const (
	minSatGain   = 35
	maxDarkShare = 0.5
	maxEdgeShare = 0.8
)

// side is one edge of the face's rectangle.
type side int

const (
	left side = iota
	right
	top
	bottom
)

// busyOutside reports whether a strip of crop outside r, on a side where r leaves a real margin,
// is not table. Only the outer half of each strip counts: next to r lie the tile's own rim and its
// edge against the table.
func busyOutside(crop gocv.Mat, r image.Rectangle) bool {
	w, h := crop.Cols(), crop.Rows()
	mx, my := int(trimShare*float64(w)), int(trimShare*float64(h))
	type strip struct {
		at   image.Rectangle
		side side
	}
	strips := []strip{}
	if r.Min.X > mx {
		strips = append(strips, strip{image.Rect(0, r.Min.Y, r.Min.X/2, r.Max.Y), left})
	}
	if w-r.Max.X > mx {
		strips = append(strips, strip{image.Rect((r.Max.X+w+1)/2, r.Min.Y, w, r.Max.Y), right})
	}
	if r.Min.Y > my {
		strips = append(strips, strip{image.Rect(r.Min.X, 0, r.Max.X, r.Min.Y/2), top})
	}
	if h-r.Max.Y > my {
		strips = append(strips, strip{image.Rect(r.Min.X, (r.Max.Y+h+1)/2, r.Max.X, h), bottom})
	}
	hsv := gocv.NewMat()
	defer hsv.Close()
	gocv.CvtColor(crop, &hsv, gocv.ColorBGRToHSV)
	face := meanHSV(hsv, r.Inset(min(r.Dx(), r.Dy())/6))
	for _, s := range strips {
		if s.at.Dx() < 2 || s.at.Dy() < 2 {
			continue
		}
		st := meanHSV(hsv, s.at)
		colourful := st[1] >= face[1]+minSatGain
		darkCloth := st[2] < maxDarkShare*face[2] && steppedDown(hsv, r, s.side)
		if !colourful && !darkCloth {
			return true
		}
	}
	return false
}

// steppedDown reports whether the crop's brightness drops at r's edge on side: bands a few
// pixels wide just inside and just outside (a pixel left between them and the edge, for blur)
// compared by their upper quartile of value.
func steppedDown(hsv gocv.Mat, r image.Rectangle, s side) bool {
	const band, gap = 3, 1
	bounds := image.Rect(0, 0, hsv.Cols(), hsv.Rows())
	var in, out image.Rectangle
	switch s {
	case left:
		in = image.Rect(r.Min.X+gap, r.Min.Y, r.Min.X+gap+band, r.Max.Y)
		out = image.Rect(r.Min.X-gap-band, r.Min.Y, r.Min.X-gap, r.Max.Y)
	case right:
		in = image.Rect(r.Max.X-gap-band, r.Min.Y, r.Max.X-gap, r.Max.Y)
		out = image.Rect(r.Max.X+gap, r.Min.Y, r.Max.X+gap+band, r.Max.Y)
	case top:
		in = image.Rect(r.Min.X, r.Min.Y+gap, r.Max.X, r.Min.Y+gap+band)
		out = image.Rect(r.Min.X, r.Min.Y-gap-band, r.Max.X, r.Min.Y-gap)
	case bottom:
		in = image.Rect(r.Min.X, r.Max.Y-gap-band, r.Max.X, r.Max.Y-gap)
		out = image.Rect(r.Min.X, r.Max.Y+gap, r.Max.X, r.Max.Y+gap+band)
	}
	in, out = in.Intersect(bounds), out.Intersect(bounds)
	if in.Empty() || out.Empty() {
		return true // no room to look: keep the other tests' word
	}
	return upperValue(hsv, out) < maxEdgeShare*upperValue(hsv, in)
}

// upperValue is the upper quartile of hsv's value over r: the face's ground where a band crosses
// a dark glyph, the table's own level where it is table.
func upperValue(hsv gocv.Mat, r image.Rectangle) float64 {
	vs := make([]uint8, 0, r.Dx()*r.Dy())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			vs = append(vs, hsv.GetUCharAt(y, x*3+2))
		}
	}
	slices.Sort(vs)
	return float64(vs[len(vs)*3/4])
}

// meanHSV is the mean hue, saturation and value of hsv over r.
func meanHSV(hsv gocv.Mat, r image.Rectangle) [3]float64 {
	win := hsv.Region(r)
	defer win.Close()
	m := win.Mean()
	return [3]float64{m.Val1, m.Val2, m.Val3}
}
