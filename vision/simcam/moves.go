package simcam

import (
	"fmt"
	"image"
	"time"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/vision/classify"
	"github.com/siamesetable/siamesed/vision/detect"
	"github.com/siamesetable/siamesed/vision/discard"
	"github.com/siamesetable/siamesed/vision/synth"
)

// Put has a hand lay a tile of face f at a free place of the area at time at, in a random
// quarter turn (and, at the Glare rate, catching the light), and watches the frames until the
// view settles. It returns the events the Watcher made of them: normally one DiscardSeen, at
// at plus the time the view took to settle.
func (t *Table) Put(f tile.Face, at time.Time) ([]discard.Event, error) {
	if f >= tile.NumFaces {
		return nil, fmt.Errorf("simcam: no such face %d", f)
	}
	if len(t.free) == 0 {
		return nil, fmt.Errorf("%w: %d tiles lie there", ErrFull, len(t.scene.Tiles))
	}
	i := t.rng.IntN(len(t.free))
	c := t.free[i]
	j := t.o.Camera.TileW / 12 // a tile is never laid exactly on the grid
	p := synth.Placed{Face: f, Center: c.Add(image.Pt(t.rng.IntN(2*j+1)-j, t.rng.IntN(2*j+1)-j)), Quarter: t.rng.IntN(4),
		Glare: t.rng.Float64() < t.o.Glare}
	if err := t.scene.Place(p, t.o.Camera.TileW); err != nil {
		return nil, fmt.Errorf("simcam: %w", err)
	}
	t.free = append(t.free[:i], t.free[i+1:]...)
	return t.move(at, []synth.Scene{handOver(t.scene, p.Center)})
}

// Take has a hand take the tile of face f laid last from the area at time at, and watches the
// frames until the view settles: normally one DiscardTaken.
func (t *Table) Take(f tile.Face, at time.Time) ([]discard.Event, error) {
	k := -1
	for i, p := range t.scene.Tiles {
		if p.Face == f {
			k = i
		}
	}
	if k < 0 {
		return nil, fmt.Errorf("%w: take %v", ErrNotLying, f)
	}
	p := t.scene.Tiles[k]
	t.scene.Tiles = append(append([]synth.Placed(nil), t.scene.Tiles[:k]...), t.scene.Tiles[k+1:]...)
	t.free = append(t.free, t.cellOf(p.Center))
	return t.move(at, []synth.Scene{handOver(t.scene, p.Center)})
}

// Clear has the players sweep every tile out of the area at time at: a DiscardTaken for each
// tile the Watcher knew of.
func (t *Table) Clear(at time.Time) ([]discard.Event, error) {
	for _, p := range t.scene.Tiles {
		t.free = append(t.free, t.cellOf(p.Center))
	}
	t.scene = synth.Scene{}
	mid := image.Pt(t.o.Camera.W/2, t.o.Camera.H/2)
	return t.move(at, []synth.Scene{handOver(t.scene, mid)})
}

// Lay lays tiles that lie in the area already when the camera starts (a worker restarted
// during a game): they are laid and watched like any, and what the Watcher says of them is
// returned for the caller to drop.
func (t *Table) Lay(fs []tile.Face, at time.Time) ([]discard.Event, error) {
	var evs []discard.Event
	for _, f := range fs {
		e, err := t.Put(f, at)
		if err != nil {
			return evs, err
		}
		evs = append(evs, e...)
	}
	return evs, nil
}

// handOver is s with a hand over c.
func handOver(s synth.Scene, c image.Point) synth.Scene {
	s.Hand = &c
	return s
}

// cellOf is the grid cell a tile laid near c took.
func (t *Table) cellOf(c image.Point) image.Point {
	pitch := cell(t.o.Camera)
	return image.Pt(c.X/pitch*pitch+pitch/2, c.Y/pitch*pitch+pitch/2)
}

// move shows the moving scenes, a frame each, then the scene as it now lies until the Watcher
// has decided on a settled view (or MaxFrames have passed), the frames Period apart from at.
func (t *Table) move(at time.Time, moving []synth.Scene) ([]discard.Event, error) {
	var evs []discard.Event
	for i := range t.o.MaxFrames {
		s := t.scene
		if i < len(moving) {
			s = moving[i]
		}
		if err := t.render(s); err != nil {
			return evs, err
		}
		ft := at.Add(time.Duration(i) * t.o.Period)
		e, err := t.watch.ProcessFrame(t.frame, t.w, ft)
		t.Frames++
		if err != nil {
			return evs, fmt.Errorf("simcam: %w", err)
		}
		evs = append(evs, e...)
		if i >= len(moving) && t.settled(e) {
			return evs, nil
		}
	}
	return evs, nil
}

// settled says whether the frame that gave e was the Watcher's decision: it decides once per
// settled period, events or none.
func (t *Table) settled(e []discard.Event) bool {
	return len(e) > 0 || t.watch.Decided()
}

// enrol shows every face to the camera once, upright, at grid places, and enrols each crop the
// extractor cuts out with the face that lies there, as `enroll camera` does at a real table.
func (t *Table) enrol(c *classify.Classifier, empty gocv.Mat) error {
	var s synth.Scene
	for f := range tile.Face(tile.NumFaces) {
		s.Tiles = append(s.Tiles, synth.Placed{Face: f, Center: t.free[f]})
	}
	v, err := t.view(s)
	if err != nil {
		return err
	}
	defer v.Close()
	found, _, err := detect.Extractor{TileW: t.o.Camera.TileW}.Extract(v, empty)
	if err != nil {
		return fmt.Errorf("simcam: enrol: %w", err)
	}
	defer func() {
		for _, fd := range found {
			fd.Crop.Close()
		}
	}()
	for _, fd := range found {
		if i := s.Nearest(fd.Center, t.o.Camera.TileW/3); i >= 0 {
			if err := c.Enrol(s.Tiles[i].Face, fd.Crop); err != nil {
				return fmt.Errorf("simcam: enrol: %w", err)
			}
		}
	}
	if c.Len() < tile.NumFaces {
		return fmt.Errorf("simcam: enrol: the camera found %d of the %d faces shown", c.Len(), tile.NumFaces)
	}
	return nil
}
