package classify

import (
	"fmt"
	"image"
	"math"

	"gocv.io/x/gocv"
)

// Canonical crop size: tiles are portrait; a landscape crop is turned a quarter first.
// The figures were chosen on photos-dev split in halves (mean top-1 over seeds 1-3, so they are
// fitted to that data): HOG alone with colour weight 0.1-0.45 and margin 0-0.2 gave 0.59-0.70;
// adding the ink layout at 6x8 (weight 0.2-0.4) 0.74-0.76, at 12x16 0.71-0.73. Enrolling each crop
// also at margins 0.05 and 0.15 did not help.
const (
	cropW = 48
	cropH = 64
	cell  = 8
	bins  = 9
	hues  = 18
	// colourWeight is the share of the feature vector's length given to colour.
	colourWeight = 0.1
	// inkWeight is the share given to the ink layout: where the marks are, whatever their colour.
	inkWeight  = 0.3
	inkW, inkH = 6, 8
	// margin is the share of each side cut away before resizing: the tile's edge and the table.
	margin = 0.1
)

// Features turns a BGR crop of one tile (any size, portrait or landscape) into a unit-length feature
// vector at the crop's orientation and one for the crop turned half a turn: gradient-orientation
// histograms (HOG, 2x2-cell blocks) of the grey image and a saturation-weighted hue histogram.
func Features(crop gocv.Mat) (up, down []float32, err error) {
	portrait, release, err := upright(crop)
	if err != nil {
		return nil, nil, err
	}
	defer release()
	mx, my := int(margin*float64(portrait.Cols())), int(margin*float64(portrait.Rows()))
	inner := portrait.Region(image.Rect(mx, my, portrait.Cols()-mx, portrait.Rows()-my))
	defer inner.Close()
	small := gocv.NewMat()
	defer small.Close()
	gocv.Resize(inner, &small, image.Pt(cropW, cropH), 0, 0, gocv.InterpolationArea)
	grey := gocv.NewMat()
	defer grey.Close()
	gocv.CvtColor(small, &grey, gocv.ColorBGRToGray)
	hsv := gocv.NewMat()
	defer hsv.Close()
	gocv.CvtColor(small, &hsv, gocv.ColorBGRToHSV)
	g, err := grey.DataPtrUint8()
	if err != nil {
		return nil, nil, fmt.Errorf("classify: %w", err)
	}
	h, err := hsv.DataPtrUint8()
	if err != nil {
		return nil, nil, fmt.Errorf("classify: %w", err)
	}
	g = append([]uint8(nil), g...)
	h = append([]uint8(nil), h...)
	up = vector(g, h)
	reverse(g, 1)
	reverse(h, 3)
	down = vector(g, h)
	return up, down, nil
}

// reverse turns an image of cropW x cropH pixels of n bytes each by half a turn, in place.
func reverse(b []uint8, n int) {
	for i, j := 0, len(b)/n-1; i < j; i, j = i+1, j-1 {
		for k := range n {
			b[i*n+k], b[j*n+k] = b[j*n+k], b[i*n+k]
		}
	}
}

func vector(grey, hsv []uint8) []float32 {
	hog := hogOf(grey)
	col := hueHist(hsv)
	ink := inkOf(hsv)
	v := make([]float32, 0, len(hog)+len(col)+len(ink))
	normalise(hog)
	normalise(col)
	normalise(ink)
	for _, x := range hog {
		v = append(v, x*float32(math.Sqrt(1-colourWeight-inkWeight)))
	}
	for _, x := range col {
		v = append(v, x*float32(math.Sqrt(colourWeight)))
	}
	for _, x := range ink {
		v = append(v, x*float32(math.Sqrt(inkWeight)))
	}
	return v
}

// inkOf is the layout of the marks: each pixel's ink (saturation or darkness) averaged over an
// inkW x inkH grid, less its mean, so a 7 and a 9 of bams differ where their sticks stand.
func inkOf(hsv []uint8) []float32 {
	out := make([]float32, inkW*inkH)
	for i := 0; i+2 < len(hsv); i += 3 {
		p := i / 3
		x, y := p%cropW, p/cropW
		ink := max(float32(hsv[i+1]), 255-float32(hsv[i+2]))
		out[(y*inkH/cropH)*inkW+x*inkW/cropW] += ink
	}
	var mean float32
	for _, x := range out {
		mean += x
	}
	mean /= float32(len(out))
	for i := range out {
		out[i] -= mean
	}
	return out
}

// hogOf computes unsigned gradient-orientation histograms in cell x cell cells, normalised over
// overlapping 2x2-cell blocks (L2-Hys, as Dalal and Triggs).
func hogOf(g []uint8) []float32 {
	cx, cy := cropW/cell, cropH/cell
	cells := make([]float32, cx*cy*bins)
	at := func(y, x, b int) *float32 { return &cells[(y*cx+x)*bins+b] }
	for y := 1; y < cropH-1; y++ {
		for x := 1; x < cropW-1; x++ {
			dx := float64(g[y*cropW+x+1]) - float64(g[y*cropW+x-1])
			dy := float64(g[(y+1)*cropW+x]) - float64(g[(y-1)*cropW+x])
			mag := math.Hypot(dx, dy)
			if mag == 0 {
				continue
			}
			ang := math.Atan2(dy, dx)
			if ang < 0 {
				ang += math.Pi
			}
			b := ang / math.Pi * float64(bins)
			b0 := int(b) % bins
			if y/cell >= cy || x/cell >= cx {
				continue
			}
			f := b - math.Floor(b)
			*at(y/cell, x/cell, b0) += float32(mag * (1 - f))
			*at(y/cell, x/cell, (b0+1)%bins) += float32(mag * f)
		}
	}
	out := make([]float32, 0, (cy-1)*(cx-1)*4*bins)
	for by := range cy - 1 {
		for bx := range cx - 1 {
			blk := make([]float32, 0, 4*bins)
			for _, c := range [][2]int{{0, 0}, {0, 1}, {1, 0}, {1, 1}} {
				i := ((by+c[0])*cx + bx + c[1]) * bins
				blk = append(blk, cells[i:i+bins]...)
			}
			normalise(blk)
			for i, x := range blk {
				blk[i] = min(x, 0.2)
			}
			normalise(blk)
			out = append(out, blk...)
		}
	}
	return out
}

// hueHist is a hue histogram weighted by saturation and value, plus a bin for the share of
// colourless pixels: the red, green and blue inks tell suits and dragons apart.
func hueHist(hsv []uint8) []float32 {
	out := make([]float32, hues+1)
	for i := 0; i+2 < len(hsv); i += 3 {
		hh, s, v := hsv[i], hsv[i+1], hsv[i+2]
		w := float32(s) * float32(v) / (255 * 255)
		if s < 50 || v < 40 {
			out[hues] += 0.3
			continue
		}
		out[int(hh)*hues/180] += w
	}
	return out
}

// normalise scales v to unit length in place and returns the length it had.
func normalise(v []float32) float32 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return 0
	}
	length := math.Sqrt(s)
	k := float32(1 / length)
	for i := range v {
		v[i] *= k
	}
	return float32(length)
}

func dot(a, b []float32) float32 {
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// mean returns the unit-length mean of unit vectors (a copy of the only one); nil for none.
func mean(vecs [][]float32) []float32 {
	if len(vecs) == 0 {
		return nil
	}
	out := append([]float32(nil), vecs[0]...)
	if len(vecs) == 1 {
		return out
	}
	for _, v := range vecs[1:] {
		for i := range out {
			out[i] += v[i]
		}
	}
	normalise(out)
	return out
}

// upright checks that crop is a non-empty BGR image and returns it portrait: a landscape crop
// turned a quarter clockwise, which release frees (a portrait crop is returned as it is).
func upright(crop gocv.Mat) (portrait gocv.Mat, release func(), err error) {
	if crop.Empty() || crop.Channels() != 3 {
		return gocv.Mat{}, nil, fmt.Errorf("classify: crop must be a non-empty BGR image, got %d channels", crop.Channels())
	}
	if crop.Cols() <= crop.Rows() {
		return crop, func() {}, nil
	}
	turned := gocv.NewMat()
	gocv.Rotate(crop, &turned, gocv.Rotate90Clockwise)
	return turned, func() { turned.Close() }, nil
}
