package calib

import (
	"fmt"

	"gocv.io/x/gocv"
)

// Warper applies a calibration's perspective warp to camera frames.
type Warper struct {
	c Calibration
	m gocv.Mat
}

// NewWarper validates c and computes its transform. Close frees it.
func NewWarper(c Calibration) (*Warper, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	src := gocv.NewPoint2fVectorFromPoints(points(c.Corners))
	defer src.Close()
	W, H := float32(c.Width), float32(c.Height)
	dst := gocv.NewPoint2fVectorFromPoints([]gocv.Point2f{{X: 0, Y: 0}, {X: W, Y: 0}, {X: W, Y: H}, {X: 0, Y: H}})
	defer dst.Close()
	m := gocv.GetPerspectiveTransform2f(src, dst)
	if m.Empty() {
		return nil, fmt.Errorf("%w: no perspective transform", ErrInvalid)
	}
	return &Warper{c: c, m: m}, nil
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

// Close frees the transform.
func (w *Warper) Close() error { return w.m.Close() }
