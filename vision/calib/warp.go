package calib

import (
	"fmt"
	"image"

	"gocv.io/x/gocv"
)

// Warper applies a calibration's perspective warp to camera frames.
type Warper struct {
	c Calibration
	m gocv.Mat
	// small is the warp to a smaller view (WarpTo), made for the last size asked (smallSize;
	// zero: none made yet).
	small     gocv.Mat
	smallSize image.Point
}

// NewWarper validates c and computes its transform. Close frees it.
func NewWarper(c Calibration) (*Warper, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	m := transform(c.Corners, c.Size())
	if m.Empty() {
		return nil, fmt.Errorf("%w: no perspective transform", ErrInvalid)
	}
	return &Warper{c: c, m: m}, nil
}

// transform maps the four corners to a view of size.
func transform(corners [4][2]float64, size image.Point) gocv.Mat {
	src := gocv.NewPoint2fVectorFromPoints(points(corners))
	defer src.Close()
	W, H := float32(size.X), float32(size.Y)
	dst := gocv.NewPoint2fVectorFromPoints([]gocv.Point2f{{X: 0, Y: 0}, {X: W, Y: 0}, {X: W, Y: H}, {X: 0, Y: H}})
	defer dst.Close()
	return gocv.GetPerspectiveTransform2f(src, dst)
}

func points(cs [4][2]float64) []gocv.Point2f {
	ps := make([]gocv.Point2f, 4)
	for i, p := range cs {
		ps[i] = gocv.Point2f{X: float32(p[0]), Y: float32(p[1])}
	}
	return ps
}

// Warp writes the top-down view of frame into dst.
func (w *Warper) Warp(frame gocv.Mat, dst *gocv.Mat) {
	gocv.WarpPerspective(frame, dst, w.m, w.c.Size())
}

// WarpTo writes the top-down view of frame at size (not the calibration's) into dst. Its cost
// grows with the pixels it writes, so a small view costs a fraction of Warp's: a motion gate
// watches every frame through one, and only a settled frame is warped whole.
func (w *Warper) WarpTo(frame gocv.Mat, dst *gocv.Mat, size image.Point) {
	if size == w.c.Size() {
		w.Warp(frame, dst)
		return
	}
	if size != w.smallSize {
		if w.smallSize != (image.Point{}) {
			w.small.Close()
		}
		w.small = transform(w.c.Corners, size)
		w.smallSize = size
	}
	gocv.WarpPerspective(frame, dst, w.small, size)
}

// Close frees the transforms.
func (w *Warper) Close() error {
	if w.smallSize != (image.Point{}) { // a zero gocv.Mat cannot even say it is empty
		w.small.Close()
	}
	return w.m.Close()
}
