package watch

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/vision/classify"
	"github.com/siamesetable/siamesed/vision/detect"
	"github.com/siamesetable/siamesed/vision/labels"
	"github.com/siamesetable/siamesed/vision/simcam"
	"github.com/siamesetable/siamesed/vision/synth"
	"github.com/siamesetable/siamesed/vision/wire"
)

// simTable is a simulated camera and its capturer, freed when the test ends; cls knows every
// face (simcam enrols them).
func simTable(t *testing.T, seed uint64) (*simcam.Table, *Capturer, *classify.Classifier) {
	t.Helper()
	art, err := synth.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { art.Close() })
	cls, err := classify.NewNet("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cls.Close() })
	tb, err := simcam.New(art, cls, simcam.Options{Seed: seed, Tiles: 40})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tb.Close() })
	cap := NewSimCapturer(tb)
	t.Cleanup(func() { cap.Close() })
	return tb, cap, cls
}

// ask is one request through ops, as the worker answers it.
func ask(t *testing.T, ops Ops, q wire.Request) (wire.Reply, error) {
	t.Helper()
	reps, err := dispatch(ops, q)
	if err != nil {
		return wire.Reply{}, err
	}
	if len(reps) != 1 {
		if q.Op == wire.OpShow && len(reps) == 0 {
			return wire.Reply{}, nil
		}
		t.Fatalf("%s: %d replies, want 1", q.Op, len(reps))
	}
	if _, err := reps[0].MarshalJSON(); err != nil {
		t.Fatalf("%s: the reply does not go on the wire: %v", q.Op, err)
	}
	return reps[0], nil
}

// On the simulated camera: a capture before the empty area is known, of an empty area, of two
// tiles, is refused saying so; the empty area is kept; a face laid alone is answered as its
// crop, which the model names as that face, whichever seed places and turns it.
func TestCaptureOnTheSimulatedCamera(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		tb, cap, cls := simTable(t, seed)
		ops := SimOps(tb, cap)
		a := tb.Calibration()
		show := func(fs ...tile.Face) {
			if _, err := ask(t, ops, wire.Request{Op: wire.OpShow, Faces: fs}); err != nil {
				t.Fatal(err)
			}
		}
		capture := func(empty bool) (wire.Reply, error) {
			return ask(t, ops, wire.Request{Op: wire.OpCapture, Area: a, Empty: empty})
		}
		show(tile.Dot5)
		if _, err := capture(false); !errors.Is(err, ErrNoEmpty) {
			t.Fatalf("seed %d: a capture before the empty area: %v, want ErrNoEmpty", seed, err)
		}
		show()
		if rep, err := capture(true); err != nil || rep.Width != a.Width || rep.Height != a.Height {
			t.Fatalf("seed %d: the empty area: %dx%d, %v, want the %dx%d view", seed, rep.Width, rep.Height, err, a.Width, a.Height)
		}
		if _, err := capture(false); !errors.Is(err, ErrNoTile) {
			t.Errorf("seed %d: nothing laid: %v, want ErrNoTile", seed, err)
		}
		show(tile.Dot5, tile.Joker)
		if _, err := capture(false); !errors.Is(err, ErrManyTiles) || !strings.Contains(err.Error(), "2 tiles") {
			t.Errorf("seed %d: two tiles: %v, want ErrManyTiles naming 2 tiles", seed, err)
		}
		for _, f := range []tile.Face{tile.Dot5, tile.Joker, tile.Flower, tile.Crak3, tile.North} {
			show(f)
			rep, err := capture(false)
			if err != nil {
				t.Fatalf("seed %d: %v alone: %v", seed, f, err)
			}
			if rep.Width != detect.CropW || rep.Height != detect.CropH {
				t.Errorf("seed %d: %v: a %dx%d crop, want %dx%d", seed, f, rep.Width, rep.Height, detect.CropW, detect.CropH)
			}
			if got := named(t, cls, rep.JPEG); got != f {
				t.Errorf("seed %d: the crop of %v is named %v", seed, f, got)
			}
		}
		moved := a
		moved.Corners[0][0]++
		if _, err := ask(t, ops, wire.Request{Op: wire.OpCapture, Area: moved}); !errors.Is(err, ErrNoEmpty) {
			t.Errorf("seed %d: corners moved since the empty area: %v, want ErrNoEmpty", seed, err)
		}
	}
}

// named is the face the classifier names a JPEG crop.
func named(t *testing.T, cls *classify.Classifier, jpeg []byte) tile.Face {
	t.Helper()
	m, err := gocv.IMDecode(jpeg, gocv.IMReadColor)
	if err != nil || m.Empty() {
		t.Fatalf("the crop is no picture: %v", err)
	}
	defer m.Close()
	r, err := cls.Classify(m)
	if err != nil {
		t.Fatal(err)
	}
	return r.Face
}

// A view that keeps changing (a hand over the area) is not captured: frames that do not agree
// are refused as not still, and the empty area kept before stays.
func TestCaptureWaitsForTheAreaToBeStill(t *testing.T) {
	tb, _, _ := simTable(t, 4)
	a := tb.Calibration()
	frames := make([]gocv.Mat, 2)
	for i, fs := range [][]tile.Face{nil, {tile.Dot5}} {
		if err := tb.Show(fs); err != nil {
			t.Fatal(err)
		}
		frames[i] = gocv.NewMat()
		defer frames[i].Close()
		tb.Snapshot(&frames[i])
	}
	n, paused := 0, 0
	flicker := true
	latest := func(dst *gocv.Mat) error {
		n++
		if flicker {
			frames[n%2].CopyTo(dst)
		} else {
			frames[0].CopyTo(dst)
		}
		return nil
	}
	cap := NewCapturer(latest, func() { paused++ }, tb.TileW())
	defer cap.Close()
	if _, err := cap.Capture(a, true); !errors.Is(err, ErrNotStill) {
		t.Fatalf("flickering frames: %v, want ErrNotStill", err)
	}
	if n != cap.frames || paused != n-1 {
		t.Errorf("watched %d frames with %d pauses, want %d with a pause between two", n, paused, cap.frames)
	}
	flicker = false
	if _, err := cap.Capture(a, true); err != nil {
		t.Fatalf("still frames: %v", err)
	}
	flicker = true
	if _, err := cap.Capture(a, false); !errors.Is(err, ErrNotStill) {
		t.Fatalf("flickering frames: %v, want ErrNotStill", err)
	}
	flicker = false
	if _, err := cap.Capture(a, false); !errors.Is(err, ErrNoTile) {
		t.Errorf("the empty area again: %v, want ErrNoTile (the empty view kept)", err)
	}
}

// Check names every crop of an enrolment captured on the simulated camera back as its own
// face, and an unreadable folder is an error.
func TestCheckOp(t *testing.T) {
	tb, cap, _ := simTable(t, 5)
	ops := SimOps(tb, cap)
	a := tb.Calibration()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, labels.ImageDir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := tb.Show(nil); err != nil {
		t.Fatal(err)
	}
	if _, err := cap.Capture(a, true); err != nil {
		t.Fatal(err)
	}
	var items []labels.Item
	for _, f := range []tile.Face{tile.Dot5, tile.Joker, tile.Flower, tile.Bam1, tile.Crak3} {
		if err := tb.Show([]tile.Face{f}); err != nil {
			t.Fatal(err)
		}
		rep, err := cap.Capture(a, false)
		if err != nil {
			t.Fatal(err)
		}
		name := f.String() + ".jpg"
		if err := os.WriteFile(filepath.Join(dir, labels.ImageDir, name), rep.JPEG, 0o644); err != nil {
			t.Fatal(err)
		}
		items = append(items, labels.Item{Image: name, Tile: f})
	}
	var b strings.Builder
	if err := labels.Write(&b, items); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, labels.FileName), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := ask(t, ops, wire.Request{Op: wire.OpCheck, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != wire.KindChecked || len(rep.Crops) != len(items) || len(rep.Alike) != 0 {
		t.Fatalf("checked %+v, want %d crops and no pair alike", rep, len(items))
	}
	for i, c := range rep.Crops {
		if c.Image != items[i].Image || c.Face != items[i].Tile || c.As != c.Face || !c.Known {
			t.Errorf("crop %d: %+v, want %s named back as %v", i, c, items[i].Image, items[i].Tile)
		}
	}
	if _, err := ask(t, ops, wire.Request{Op: wire.OpCheck, Dir: filepath.Join(dir, "none")}); err == nil {
		t.Error("a folder with no enrolment was checked")
	}
}
