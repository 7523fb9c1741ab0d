// Package simcam is the camera of the simulated table: it keeps the tiles lying in a simulated
// discard area, renders what an overhead camera would see as hands lay tiles there and take them
// away (synth frames, then the calibration's warp), and feeds every frame to the real
// discard.Watcher with the real classifier. The events are what the vision pipeline makes of
// those frames, mistakes and "unknown" answers included: nothing is faked.
package simcam

import (
	"errors"
	"fmt"
	"image"
	"math/rand/v2"
	"time"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/vision/calib"
	"github.com/siamesetable/siamesed/vision/classify"
	"github.com/siamesetable/siamesed/vision/discard"
	"github.com/siamesetable/siamesed/vision/synth"
)

// Options shape the simulated camera.
type Options struct {
	// Tiles is how many tiles the area must hold at once (default 152, a whole set): the area
	// is sized to hold them on a grid, every tile clear of its neighbours.
	Tiles int
	// Glare is the chance that a laid tile catches the light (synth.Placed.Glare), washing its
	// face out, so that the classifier honestly cannot name it.
	Glare float64
	// Seed fixes the camera's tilt, the places and turns of the tiles, glare and noise.
	Seed uint64
	// Period is the time between frames (default 1/15 s).
	Period time.Duration
	// Camera is how the frames look; W, H and Seed are set from the fields above. Zero: Camera().
	Camera synth.Options
	// MaxFrames bounds the frames one move is watched for before giving up (default 20).
	MaxFrames int
}

// Camera is the look of the simulated camera: tiles 36 pixels wide in the top-down view (as
// enroll camera assumes), a little tilt, light falling off across the area, blur and sensor
// noise.
func Camera() synth.Options {
	return synth.Options{TileW: 36, Tilt: 0.05, Light: 0.2, Blur: 3, Noise: 3}
}

// cell is the grid pitch in the top-down view: a tile's long side and a third of it, so that two
// neighbours at any quarter turn and jitter stay 10 pixels apart (at a quarter, blur and the
// extractor's closing joined them now and then).
func cell(o synth.Options) int { return o.TileSize().Y + o.TileSize().Y/3 }

func (o *Options) defaults() {
	if o.Tiles == 0 {
		o.Tiles = 152
	}
	if o.Period == 0 {
		o.Period = time.Second / 15
	}
	if o.MaxFrames == 0 {
		o.MaxFrames = 20
	}
	if o.Camera == (synth.Options{}) {
		o.Camera = Camera()
	}
	o.Camera.Seed = o.Seed
	o.Camera.TileW = o.Camera.TileSize().X
	// A grid of 4:3 with room for Tiles cells, and for every face at once to enrol them.
	pitch := cell(o.Camera)
	cols := 4
	for cols*(cols*3/4) < max(o.Tiles, tile.NumFaces) {
		cols++
	}
	rows := cols * 3 / 4
	o.Camera.W, o.Camera.H = cols*pitch, rows*pitch
	// The tilt moves the area's corners by up to Tilt of its size: the camera's frame must
	// hold the whole area however they move.
	o.Camera.FrameMargin = max(o.Camera.FrameMargin, int(o.Camera.Tilt*float64(o.Camera.W))+pitch/2)
}

// Table is a simulated discard area under a simulated camera. It is not safe for concurrent use.
type Table struct {
	o      Options
	r      *synth.Renderer
	w      *calib.Warper
	watch  *discard.Watcher
	rng    *rand.Rand
	scene  synth.Scene
	frame  gocv.Mat      // the camera's last frame, kept to draw the next in
	free   []image.Point // grid cells no tile lies on
	seed   uint64        // of the next frame's noise
	Frames int           // frames rendered and watched so far
}

// ErrFull is returned when a tile is laid in an area with no free place left.
var ErrFull = errors.New("simcam: the discard area is full")

// ErrNotLying is returned when a hand takes a tile that does not lie in the area.
var ErrNotLying = errors.New("simcam: no such tile lies in the discard area")

// New sets up the camera over an empty area, shows it every face once (the "enroll camera"
// step: cls must have nothing enrolled) and starts a Watcher on it. art and cls stay the
// caller's; Close frees the rest.
func New(art *synth.Art, cls *classify.Classifier, o Options) (*Table, error) {
	o.defaults()
	if o.Glare < 0 || o.Glare > 1 || o.Tiles < 1 || o.Tiles > 1000 {
		return nil, fmt.Errorf("simcam: glare %v (want 0 to 1), tiles %d (want 1 to 1000)", o.Glare, o.Tiles)
	}
	if cls.Len() > 0 {
		return nil, errors.New("simcam: the classifier must start with nothing enrolled: the camera enrols every face itself")
	}
	r, err := synth.NewRenderer(art, o.Camera)
	if err != nil {
		return nil, fmt.Errorf("simcam: %w", err)
	}
	w, err := calib.NewWarper(r.Calibration())
	if err != nil {
		r.Close()
		return nil, fmt.Errorf("simcam: %w", err)
	}
	t := &Table{o: o, r: r, w: w, rng: rand.New(rand.NewPCG(o.Seed, 0x5ca)), seed: o.Seed << 32, frame: gocv.NewMat()}
	pitch := cell(o.Camera)
	for y := pitch / 2; y+pitch/2 <= o.Camera.H; y += pitch {
		for x := pitch / 2; x+pitch/2 <= o.Camera.W; x += pitch {
			t.free = append(t.free, image.Pt(x, y))
		}
	}
	empty, err := t.view(synth.Scene{})
	if err == nil {
		err = t.enrol(cls, empty)
	}
	if err == nil {
		t.watch, err = discard.NewWatcher(empty, o.Camera.TileW, cls)
	}
	empty.Close()
	if err != nil {
		t.Close()
		return nil, err
	}
	return t, nil
}

// Capacity is how many tiles the area holds.
func (t *Table) Capacity() int { return len(t.free) + len(t.scene.Tiles) }

// Lying are the tiles lying in the area, in the order they were laid.
func (t *Table) Lying() []synth.Placed { return append([]synth.Placed(nil), t.scene.Tiles...) }

// Close frees the camera's images.
func (t *Table) Close() error {
	if t.watch != nil {
		t.watch.Close()
	}
	t.w.Close()
	t.frame.Close()
	return t.r.Close()
}

// render draws s as the camera's next frame, into t.frame.
func (t *Table) render(s synth.Scene) error {
	t.seed++
	if err := t.r.RenderTo(s, t.seed, &t.frame); err != nil {
		return fmt.Errorf("simcam: %w", err)
	}
	return nil
}

// view renders s and warps it to the top-down view, as the daemon's calibrated camera sees it.
func (t *Table) view(s synth.Scene) (gocv.Mat, error) {
	if err := t.render(s); err != nil {
		return gocv.Mat{}, err
	}
	v := gocv.NewMat()
	t.w.Warp(t.frame, &v)
	return v, nil
}

// Snapshot copies the camera's last frame, whole, into dst: what the set-up page shows to
// click the area's corners on.
func (t *Table) Snapshot(dst *gocv.Mat) { t.frame.CopyTo(dst) }
