// Package detect finds tiles in top-down views of the discard area: a motion gate says when the
// view has settled, the settled view is compared with a reference of the empty area, and each
// changed blob of a tile's shape is warped to a canonical portrait crop.
package detect

import (
	"image"

	"gocv.io/x/gocv"
)

// Gate tells moving frames from settled ones: a frame is still when few pixels changed since
// the previous one, and the view is settled after StillFrames still frames in a row.
type Gate struct {
	// Diff is the grey-level change that counts a pixel as changed (default 25).
	Diff float32
	// Share of changed pixels above which a frame is moving (default 0.002).
	Share float64
	// StillFrames in a row make the view settled (default 3).
	StillFrames int

	prev, cur, diff gocv.Mat
	still           int
}

// GateSize is the size frames are compared at: small is fast and ignores sensor noise.
var GateSize = image.Pt(160, 120)

// NewGate returns a gate with the defaults. Close frees it.
func NewGate() *Gate {
	return &Gate{Diff: 25, Share: 0.002, StillFrames: 3, prev: gocv.NewMat(), cur: gocv.NewMat(), diff: gocv.NewMat()}
}

// Update feeds a BGR frame and says whether the view has settled, and whether the frame moved.
func (g *Gate) Update(frame gocv.Mat) (settled, moving bool) {
	small := frame
	if frame.Cols() != GateSize.X || frame.Rows() != GateSize.Y {
		small = gocv.NewMat()
		defer small.Close()
		gocv.Resize(frame, &small, GateSize, 0, 0, gocv.InterpolationArea)
	}
	gocv.CvtColor(small, &g.cur, gocv.ColorBGRToGray)
	gocv.GaussianBlur(g.cur, &g.cur, image.Pt(5, 5), 0, 0, gocv.BorderDefault)
	if g.prev.Empty() {
		g.cur.CopyTo(&g.prev)
		g.still = 0
		return false, true
	}
	gocv.AbsDiff(g.cur, g.prev, &g.diff)
	gocv.Threshold(g.diff, &g.diff, g.Diff, 255, gocv.ThresholdBinary)
	changed := gocv.CountNonZero(g.diff)
	g.prev, g.cur = g.cur, g.prev
	moving = float64(changed) > g.Share*float64(GateSize.X*GateSize.Y)
	if moving {
		g.still = 0
		return false, true
	}
	g.still++
	return g.still >= g.StillFrames, false
}

// Close frees the gate's images.
func (g *Gate) Close() error {
	g.prev.Close()
	g.cur.Close()
	g.diff.Close()
	return nil
}
