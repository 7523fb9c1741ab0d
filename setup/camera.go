package setup

import (
	"errors"
	"fmt"
	"image"
	"math"

	"github.com/siamesetable/siamesed/vision/area"
)

// Camera is the table's camera as the set-up page's Camera section sees it: the daemon answers
// through its vision worker.
type Camera interface {
	// Snapshot is the camera's latest frame, whole.
	Snapshot() (Picture, error)
	// Preview is the top-down view of the camera's latest frame through c, which is not saved.
	Preview(c area.Calibration) (Picture, error)
	// Reload has the camera take the calibration just saved, and says how.
	Reload() (string, error)
	// Capture captures through a: with empty, the empty discard area (the view tiles are found
	// against); otherwise the one tile lying there, as its crop. A capture refused as bad input
	// (no tile, more than one, not still) wraps ErrRefused.
	Capture(a area.Calibration, empty bool) (Picture, error)
	// Check checks the enrolment folder dir with the model.
	Check(dir string) (Checked, error)
	// Health is the camera's state in words: "working", or its problem (a new table's camera
	// says what it still needs: the corners, the faces).
	Health() string
}

// Picture is a camera picture: Width x Height pixels, JPEG (base64 in JSON).
type Picture struct {
	Width  int    `json:"width"`
	Height int    `json:"height"`
	JPEG   []byte `json:"jpeg"`
}

// CornersForm is the corners the owner clicked on the snapshot, in the camera frame's pixels
// (top-left, top-right, bottom-right, bottom-left), and the top-down view's size. Corners is a
// list, so that three corners are refused rather than read as four.
type CornersForm struct {
	Corners [][]float64 `json:"corners"`
	Width   int         `json:"width"`
	Height  int         `json:"height"`
}

// cornerNames name the corners in the order they are clicked.
var cornerNames = [4]string{"top-left", "top-right", "bottom-right", "bottom-left"}

// errNoFrame: the corners are checked against the camera's frame, known from a snapshot.
var errNoFrame = errors.New("take a snapshot first: the corners are checked against the camera's frame")

// CheckCorners checks a corners form against the camera's frame (its size, from the last
// snapshot), listing every problem at once; with none, it is the calibration to save.
func CheckCorners(f CornersForm, frame image.Point) (area.Calibration, error) {
	var ps []Problem
	bad := func(field, format string, a ...any) {
		ps = append(ps, Problem{Field: field, Msg: fmt.Sprintf(format, a...)})
	}
	c := area.Calibration{Width: f.Width, Height: f.Height}
	if frame.X <= 0 || frame.Y <= 0 {
		bad("corners", "%v", errNoFrame)
	}
	if len(f.Corners) != 4 {
		bad("corners", "%d corners: click all four, in order: top-left, top-right, bottom-right, bottom-left", len(f.Corners))
	}
	for i, p := range f.Corners[:min(4, len(f.Corners))] {
		switch {
		case len(p) != 2:
			bad("corners", "the %s corner is not x, y (%d numbers)", cornerNames[i], len(p))
		case frame.X > 0 && (!within(p[0], frame.X) || !within(p[1], frame.Y)):
			bad("corners", "the %s corner (%.0f, %.0f) is outside the camera's %dx%d frame", cornerNames[i], p[0], p[1], frame.X, frame.Y)
		default:
			c.Corners[i] = [2]float64{p[0], p[1]}
		}
	}
	if c.Width < 16 || c.Width > 8192 || c.Height < 16 || c.Height > 8192 {
		bad("size", "the top-down view is %dx%d pixels: want 16 to 8192 each way", c.Width, c.Height)
	}
	if len(ps) == 0 {
		switch err := c.Validate(); {
		case err != nil:
			bad("corners", "the corners do not go round the discard area: they cross, fold in, or lie on one line (%v)", err)
		case !c.Clockwise():
			bad("corners", "the corners go round the other way: click top-left, top-right, bottom-right, bottom-left as the snapshot shows them (this order would mirror the view)")
		}
	}
	if len(ps) > 0 {
		return area.Calibration{}, &FormError{Problems: ps}
	}
	return c, nil
}

// within says whether v is a pixel position in a frame n pixels across (its far edge included).
func within(v float64, n int) bool {
	return !math.IsNaN(v) && v >= 0 && v <= float64(n)
}
