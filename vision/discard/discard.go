// Package discard turns top-down views of the discard area into events: a tile that appears and
// stays is a DiscardSeen with its face and confidence; a seen tile that leaves is a DiscardTaken.
// No decision is taken while anything moves (a hand over the table).
package discard

import (
	"fmt"
	"image"
	"time"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/vision/classify"
	"github.com/siamesetable/siamesed/vision/detect"
)

// Kind names an event.
type Kind string

// The events of the discard area.
const (
	DiscardSeen  Kind = "DiscardSeen"
	DiscardTaken Kind = "DiscardTaken"
)

// Event is one change of the discard area.
type Event struct {
	Kind       Kind      `json:"kind"`
	Face       tile.Face `json:"tile"`
	Confidence float32   `json:"confidence"`
	Known      bool      `json:"known"` // false: ask the players, the face is only the best guess
	// Why is why the face is not Known: "far" (like no enrolled face: ask which tile it is, or
	// whether it is a tile at all) or "close" (as like Runner as Face: ask which of the two).
	Why    classify.Reason `json:"why"`
	Runner tile.Face       `json:"runner"`
	Center image.Point     `json:"center"`
	At     time.Time       `json:"at"`
}

// Watcher follows the discard area. It is not safe for concurrent use.
type Watcher struct {
	gate    *detect.Gate
	ext     detect.Extractor
	cls     *classify.Classifier
	empty   gocv.Mat
	small   gocv.Mat // ProcessFrame's view for the gate
	tiles   []Event  // tiles lying in the area now, as they were seen
	decided bool     // this settled period has been looked at
}

// Warp makes top-down views of camera frames (calib.Warper): the whole view, and a smaller one
// that costs a fraction of it.
type Warp interface {
	Warp(frame gocv.Mat, dst *gocv.Mat)
	WarpTo(frame gocv.Mat, dst *gocv.Mat, size image.Point)
}

// GateView is the size of the view ProcessFrame gives the motion gate: twice the gate's own,
// which it brings down by averaging, as it does a whole view.
var GateView = detect.GateSize.Mul(2)

// NewWatcher watches for tiles of tileW pixels against empty, a view of the empty area (kept
// as a copy; it must be a Mat made by gocv, not a zero gocv.Mat{}). Close frees it.
func NewWatcher(empty gocv.Mat, tileW int, cls *classify.Classifier) (*Watcher, error) {
	if empty.Empty() || cls == nil || tileW <= 0 {
		return nil, fmt.Errorf("discard: need an empty view, a classifier and a tile width")
	}
	return &Watcher{gate: detect.NewGate(), ext: detect.Extractor{TileW: tileW}, cls: cls, empty: empty.Clone(), small: gocv.NewMat()}, nil
}

// Tiles are the tiles lying in the area now.
func (w *Watcher) Tiles() []Event { return append([]Event(nil), w.tiles...) }

// Decided says whether the view has settled since it last moved and been looked at: until the
// next movement, Process decides nothing more.
func (w *Watcher) Decided() bool { return w.decided }

// Process feeds one top-down view taken at t and returns the events it settles.
func (w *Watcher) Process(view gocv.Mat, t time.Time) ([]Event, error) {
	if !w.look(view) {
		return nil, nil
	}
	return w.decide(view, t)
}

// ProcessFrame feeds one camera frame taken at t, warped by warp, and returns the events it
// settles. Only the gate's small view is made of every frame; the whole top-down view only of
// a frame the Watcher decides on, one a settled period: on a real camera's stream most frames
// cost a small warp and no more.
func (w *Watcher) ProcessFrame(frame gocv.Mat, warp Warp, t time.Time) ([]Event, error) {
	warp.WarpTo(frame, &w.small, GateView)
	if !w.look(w.small) {
		return nil, nil
	}
	view := gocv.NewMat()
	defer view.Close()
	warp.Warp(frame, &view)
	return w.decide(view, t)
}

// look feeds the gate a view and says whether the view is to be decided on now: settled, and
// not yet looked at since it last moved.
func (w *Watcher) look(view gocv.Mat) bool {
	settled, moving := w.gate.Update(view)
	if moving {
		w.decided = false
	}
	return settled && !w.decided
}

// decide finds the tiles in a settled view and names what came and went.
func (w *Watcher) decide(view gocv.Mat, t time.Time) ([]Event, error) {
	w.decided = true
	found, _, err := w.ext.Extract(view, w.empty)
	if err != nil {
		return nil, fmt.Errorf("discard: %w", err)
	}
	defer func() {
		for i := range found {
			found[i].Crop.Close()
		}
	}()
	near := float64(w.ext.TileW) / 2
	var events []Event
	var now []Event
	matched := make([]bool, len(w.tiles))
	for _, f := range found {
		if i := nearest(w.tiles, f.Center, near, matched); i >= 0 {
			matched[i] = true
			now = append(now, w.tiles[i])
			continue
		}
		r, err := w.cls.Classify(f.Crop)
		if err != nil {
			return nil, fmt.Errorf("discard: %w", err)
		}
		e := Event{Kind: DiscardSeen, Face: r.Face, Confidence: r.Confidence, Known: r.Known, Why: r.Why, Runner: r.Runner, Center: f.Center, At: t}
		events = append(events, e)
		now = append(now, e)
	}
	for i, e := range w.tiles {
		if !matched[i] {
			e.Kind, e.At = DiscardTaken, t
			events = append(events, e)
		}
	}
	w.tiles = now
	return events, nil
}

func nearest(tiles []Event, c image.Point, within float64, taken []bool) int {
	best, bi := within*within, -1
	for i, e := range tiles {
		d := e.Center.Sub(c)
		if dd := float64(d.X*d.X + d.Y*d.Y); !taken[i] && dd <= best {
			best, bi = dd, i
		}
	}
	return bi
}

// Close frees the watcher's images.
func (w *Watcher) Close() error {
	w.gate.Close()
	w.small.Close()
	return w.empty.Close()
}
