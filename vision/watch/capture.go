package watch

import (
	"errors"
	"fmt"
	"sync"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/vision/area"
	"github.com/siamesetable/siamesed/vision/calib"
	"github.com/siamesetable/siamesed/vision/detect"
	"github.com/siamesetable/siamesed/vision/enrol"
	"github.com/siamesetable/siamesed/vision/wire"
)

// The set-up page's enrolment: a face is captured as `enroll camera` captures it, from the
// camera's frames warped through the saved corners, once they agree (detect.Gate: the area is
// still), against a view of the empty area taken first; then the enrolment is checked with the
// model (enrol.Review).

// Capture's refusals, for errors.Is; the message says what to do.
var (
	ErrNoEmpty   = errors.New("the empty discard area is not known: clear the area and start the enrolment again")
	ErrNoTile    = errors.New("no tile in the discard area: lay the face up in it, alone")
	ErrManyTiles = errors.New("more than one thing in the discard area: lay the tile alone and take your hand away")
	ErrNotStill  = errors.New("the discard area is not still yet: take your hand away and capture again")
)

// Capturer captures tiles for enrolment from a camera's frames. It keeps the empty area's view
// between requests, and across restarts once told where (Keep); Close frees it.
type Capturer struct {
	latest LatestFrame
	pause  func() // between two frames: nil when latest gives the next frame itself
	tileW  int
	frames int // the most frames watched for the area to be still

	mu        sync.Mutex
	empty     gocv.Mat
	emptyArea area.Calibration // the corners the empty view was taken through; zero: none
	emptyWhy  string           // why the view kept was dropped at the start ("": it was not)
	kept      string           // the enrolment folder the view is kept beside ("": memory only; empty.go)
}

// NewCapturer captures from latest's frames, waiting pause between two (nil: latest waits for
// the camera's next frame itself), tiles tileW pixels wide in the top-down view.
func NewCapturer(latest LatestFrame, pause func(), tileW int) *Capturer {
	return &Capturer{latest: latest, pause: pause, tileW: tileW, frames: 40, empty: gocv.NewMat()}
}

// Close frees the empty area's view.
func (c *Capturer) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.empty.Close()
}

// EnrolOps are the set-up page's enrolment requests: capture from c, and check.
func EnrolOps(c *Capturer) Ops {
	return Ops{
		wire.OpCapture: func(q wire.Request) ([]wire.Reply, error) {
			rep, err := c.Capture(q.Area, q.Empty)
			if err != nil {
				return nil, err
			}
			return []wire.Reply{rep}, nil
		},
		wire.OpCheck: check,
	}
}

// Capture watches the frames through a until they agree. With empty, the still view is kept
// as the empty area and answered; otherwise the one tile lying there is cut out and its crop
// answered (JPEG, CropW x CropH). No tile, more than one, or a view that will not settle is an
// error, and changes nothing kept.
func (c *Capturer) Capture(a area.Calibration, empty bool) (wire.Reply, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	view, err := c.still(a)
	if err != nil {
		return wire.Reply{}, err
	}
	defer view.Close()
	if empty {
		if err := c.keepView(view, a); err != nil {
			return wire.Reply{}, fmt.Errorf("capture: %w", err)
		}
		view.CopyTo(&c.empty)
		c.emptyArea, c.emptyWhy = a, ""
		return encodePicture(view)
	}
	switch {
	case c.empty.Empty() && c.emptyWhy != "":
		return wire.Reply{}, fmt.Errorf("%w (%s)", ErrNoEmpty, c.emptyWhy)
	case c.emptyArea != a || c.empty.Empty():
		return wire.Reply{}, ErrNoEmpty
	}
	found, others, err := detect.Extractor{TileW: c.tileW}.Extract(view, c.empty)
	if err != nil {
		return wire.Reply{}, fmt.Errorf("capture: %w", err)
	}
	defer func() {
		for _, f := range found {
			f.Crop.Close()
		}
	}()
	switch {
	case len(found) == 0 && others == 0:
		return wire.Reply{}, ErrNoTile
	case len(found) != 1 || others > 0:
		return wire.Reply{}, fmt.Errorf("%w (%d tiles, %d other shapes)", ErrManyTiles, len(found), others)
	}
	return encodeCrop(found[0].Crop)
}

// still warps frames through a until the view has settled, and returns the settled view.
func (c *Capturer) still(a area.Calibration) (gocv.Mat, error) {
	warper, err := calib.NewWarper(a)
	if err != nil {
		return gocv.Mat{}, fmt.Errorf("capture: %w", err)
	}
	defer warper.Close()
	gate := detect.NewGate()
	defer gate.Close()
	frame, view := gocv.NewMat(), gocv.NewMat()
	defer frame.Close()
	for i := range c.frames {
		if i > 0 && c.pause != nil {
			c.pause()
		}
		if err := c.latest(&frame); err != nil {
			view.Close()
			return gocv.Mat{}, err
		}
		if err := inFrame(a, frame); err != nil {
			view.Close()
			return gocv.Mat{}, err
		}
		warper.Warp(frame, &view)
		if settled, _ := gate.Update(view); settled {
			return view, nil
		}
	}
	view.Close()
	return gocv.Mat{}, fmt.Errorf("%w (it kept changing over %d frames)", ErrNotStill, c.frames)
}

// inFrame checks that a's corners lie in frame.
func inFrame(a area.Calibration, frame gocv.Mat) error {
	w, h := float64(frame.Cols()), float64(frame.Rows())
	for i, p := range a.Corners {
		if p[0] > w || p[1] > h {
			return fmt.Errorf("corner %d (%v,%v) is outside the camera's %vx%v frame", i, p[0], p[1], w, h)
		}
	}
	return nil
}

// encodeCrop is a crop as a picture, JPEG at a quality that keeps it fit to enrol.
func encodeCrop(m gocv.Mat) (wire.Reply, error) {
	buf, err := gocv.IMEncodeWithParams(gocv.JPEGFileExt, m, []int{gocv.IMWriteJpegQuality, 95})
	if err != nil {
		return wire.Reply{}, fmt.Errorf("encoding a crop: %w", err)
	}
	defer buf.Close()
	return wire.Reply{Kind: wire.KindPicture, Width: m.Cols(), Height: m.Rows(), JPEG: append([]byte(nil), buf.GetBytes()...)}, nil
}

// check answers a check of the enrolment folder q.Dir.
func check(q wire.Request) ([]wire.Reply, error) {
	r, err := enrol.Review(q.Dir)
	if err != nil {
		return nil, err
	}
	rep := wire.Reply{Kind: wire.KindChecked}
	for _, c := range r.Crops {
		rep.Crops = append(rep.Crops, wire.Recognised{Image: c.Image, Face: c.Face, As: c.As, Known: c.Known})
	}
	for _, a := range r.Alike {
		rep.Alike = append(rep.Alike, wire.Alike{A: a.A, B: a.B, ImageA: a.ImageA, ImageB: a.ImageB, Similarity: a.Similarity})
	}
	return []wire.Reply{rep}, nil
}
