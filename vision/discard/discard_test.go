package discard_test

import (
	"image"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/internal/shareddata"
	"github.com/siamesetable/siamesed/vision/calib"
	"github.com/siamesetable/siamesed/vision/classify"
	"github.com/siamesetable/siamesed/vision/detect"
	"github.com/siamesetable/siamesed/vision/discard"
	"github.com/siamesetable/siamesed/vision/synth"
)

func artDir(t testing.TB) string { return shareddata.TileArt(t) }

var opts = synth.Options{Tilt: 0.08, Light: 0.3, Blur: 3, Noise: 4, Seed: 9}

// table is a synthetic calibrated camera over the discard area.
type table struct {
	r     *synth.Renderer
	w     *calib.Warper
	empty gocv.Mat
}

func newTable(t testing.TB) *table {
	art, err := synth.LoadArt(artDir(t))
	if err != nil {
		t.Fatal(err)
	}
	r, err := synth.NewRenderer(art, opts)
	if err != nil {
		t.Fatal(err)
	}
	w, err := calib.NewWarper(r.Calibration())
	if err != nil {
		t.Fatal(err)
	}
	tb := &table{r: r, w: w}
	tb.empty = tb.view(t, synth.Scene{}, 1000)
	t.Cleanup(func() { tb.empty.Close(); w.Close(); r.Close(); art.Close() })
	return tb
}

func (tb *table) view(t testing.TB, s synth.Scene, seed uint64) gocv.Mat {
	frame, err := tb.r.Render(s, seed)
	if err != nil {
		t.Fatal(err)
	}
	defer frame.Close()
	v := gocv.NewMat()
	tb.w.Warp(frame, &v)
	return v
}

// enrol shows every face to the camera once, upright, and enrols the crops found.
func (tb *table) enrol(t testing.TB) *classify.Classifier {
	rng := rand.New(rand.NewPCG(1, 1))
	scene := synth.RandomScene(opts, tile.NumFaces, rng)
	for i := range scene.Tiles {
		scene.Tiles[i].Face, scene.Tiles[i].Quarter = tile.Face(i), 0
	}
	v := tb.view(t, scene, 1)
	defer v.Close()
	found, _, err := detect.Extractor{TileW: opts.TileSize().X}.Extract(v, tb.empty)
	if err != nil {
		t.Fatal(err)
	}
	c, err := classify.NewNet("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	for _, f := range found {
		if p, ok := placedAt(scene, f.Center); ok {
			if err := c.Enrol(p.Face, f.Crop); err != nil {
				t.Fatal(err)
			}
		}
		f.Crop.Close()
	}
	if c.Len() != tile.NumFaces {
		t.Fatalf("enrolled %d faces, want %d", c.Len(), tile.NumFaces)
	}
	return c
}

func placedAt(s synth.Scene, c image.Point) (synth.Placed, bool) {
	for _, p := range s.Tiles {
		if d := p.Center.Sub(c); d.X*d.X+d.Y*d.Y <= 100 {
			return p, true
		}
	}
	return synth.Placed{}, false
}

// Detection and classification together on synthetic full frames, tiles at any quarter turn.
func TestSyntheticFramesDetectAndClassify(t *testing.T) {
	tb := newTable(t)
	c := tb.enrol(t)
	ext := detect.Extractor{TileW: opts.TileSize().X}
	rng := rand.New(rand.NewPCG(7, 7))
	var placed, found, right int
	for trial := range 8 {
		scene := synth.RandomScene(opts, 12, rng)
		v := tb.view(t, scene, uint64(trial+10))
		fs, _, err := ext.Extract(v, tb.empty)
		v.Close()
		if err != nil {
			t.Fatal(err)
		}
		placed += len(scene.Tiles)
		for _, f := range fs {
			p, ok := placedAt(scene, f.Center)
			r, err := c.Classify(f.Crop)
			f.Crop.Close()
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				continue
			}
			found++
			if r.Face == p.Face {
				right++
			} else {
				t.Logf("%v at %d quarter turns taken for %v (confidence %.3f)", p.Face, p.Quarter, r.Face, r.Confidence)
			}
		}
	}
	t.Logf("found %d of %d tiles, %d named right", found, placed, right)
	if found != placed || float64(right) < 0.95*float64(placed) {
		t.Errorf("found %d of %d tiles, %d named right; want all found and 95%% right", found, placed, right)
	}
}

// TestWatcherSeesAndTakesDiscards: a hand lays a tile, another, then one face down; the Watcher
// says each when the view has settled, fed top-down views (Process) or camera frames that it
// warps itself, small for the gate and whole only when it decides (ProcessFrame).
func TestWatcherSeesAndTakesDiscards(t *testing.T) {
	tb := newTable(t)
	cls := tb.enrol(t)
	t.Run("views", func(t *testing.T) {
		testWatcher(t, tb, cls, func(w *discard.Watcher, s synth.Scene, seed uint64, at time.Time) ([]discard.Event, error) {
			v := tb.view(t, s, seed)
			defer v.Close()
			return w.Process(v, at)
		})
	})
	t.Run("frames", func(t *testing.T) {
		testWatcher(t, tb, cls, func(w *discard.Watcher, s synth.Scene, seed uint64, at time.Time) ([]discard.Event, error) {
			frame, err := tb.r.Render(s, seed)
			if err != nil {
				t.Fatal(err)
			}
			defer frame.Close()
			return w.ProcessFrame(frame, tb.w, at)
		})
	})
}

func testWatcher(t *testing.T, tb *table, cls *classify.Classifier, feed func(*discard.Watcher, synth.Scene, uint64, time.Time) ([]discard.Event, error)) {
	w, err := discard.NewWatcher(tb.empty, opts.TileSize().X, cls)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	hand := &image.Point{X: 300, Y: 250}
	fiveDots := synth.Placed{Face: tile.Dot5, Center: image.Pt(300, 240), Quarter: 1}
	joker := synth.Placed{Face: tile.Joker, Center: image.Pt(150, 120), Quarter: 2}
	back := synth.Placed{Face: tile.Bam2, Center: image.Pt(450, 300), FaceDown: true}
	jokerAndBack := []synth.Placed{joker, back}
	steps := []struct {
		scene synth.Scene
		want  []discard.Kind
		faces []tile.Face
	}{
		{synth.Scene{}, nil, nil},
		{synth.Scene{}, nil, nil},
		{synth.Scene{}, nil, nil},
		{synth.Scene{}, nil, nil},           // settled, nothing there
		{synth.Scene{Hand: hand}, nil, nil}, // a hand comes in
		{synth.Scene{Tiles: []synth.Placed{fiveDots}, Hand: hand}, nil, nil}, // and drops a tile
		{synth.Scene{Tiles: []synth.Placed{fiveDots}}, nil, nil},             // hand gone: moved
		{synth.Scene{Tiles: []synth.Placed{fiveDots}}, nil, nil},             // still for 1
		{synth.Scene{Tiles: []synth.Placed{fiveDots}}, nil, nil},             // 2
		{synth.Scene{Tiles: []synth.Placed{fiveDots}}, []discard.Kind{discard.DiscardSeen}, []tile.Face{tile.Dot5}},
		{synth.Scene{Tiles: []synth.Placed{fiveDots}}, nil, nil}, // already decided
		{synth.Scene{Tiles: []synth.Placed{joker}, Hand: hand}, nil, nil},
		{synth.Scene{Tiles: []synth.Placed{joker}}, nil, nil},
		{synth.Scene{Tiles: []synth.Placed{joker}}, nil, nil},
		{synth.Scene{Tiles: []synth.Placed{joker}}, nil, nil},
		{synth.Scene{Tiles: []synth.Placed{joker}}, []discard.Kind{discard.DiscardSeen, discard.DiscardTaken}, []tile.Face{tile.Joker, tile.Dot5}},
		// a tile laid face down: seen, but not Known, and far from every face
		{synth.Scene{Tiles: jokerAndBack, Hand: hand}, nil, nil},
		{synth.Scene{Tiles: jokerAndBack}, nil, nil},
		{synth.Scene{Tiles: jokerAndBack}, nil, nil},
		{synth.Scene{Tiles: jokerAndBack}, nil, nil},
		{synth.Scene{Tiles: jokerAndBack}, []discard.Kind{discard.DiscardSeen}, nil},
	}
	for i, s := range steps {
		evs, err := feed(w, s.scene, uint64(i), t0.Add(time.Duration(i)*100*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		if len(evs) != len(s.want) {
			t.Fatalf("frame %d: events %+v, want %v", i, evs, s.want)
		}
		for j, e := range evs {
			if s.faces == nil { // the face-down tile
				if e.Kind != s.want[j] || e.Known || e.Why != classify.TooFar {
					t.Errorf("frame %d: a face-down tile gave %+v, want DiscardSeen not known, too far", i, e)
				}
				continue
			}
			if e.Kind != s.want[j] || e.Face != s.faces[j] || (e.Kind == discard.DiscardSeen && !e.Known) {
				t.Errorf("frame %d: event %d is %s %v (known %v, %v), want %s %v known", i, j, e.Kind, e.Face, e.Known, e.Why, s.want[j], s.faces[j])
			}
		}
	}
	if got := w.Tiles(); len(got) != 2 || !slices.ContainsFunc(got, func(e discard.Event) bool { return e.Face == tile.Joker && e.Known }) {
		t.Errorf("tiles now %+v, want the joker and the face-down tile", got)
	}
}

// BenchmarkSettledFrame times the frame that settles the view and yields a DiscardSeen or a
// DiscardTaken: gate, extraction and classification (the 50 ms budget).
func BenchmarkSettledFrame(b *testing.B) {
	tb := newTable(b)
	w, err := discard.NewWatcher(tb.empty, opts.TileSize().X, tb.enrol(b))
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	scene := synth.RandomScene(opts, 12, rand.New(rand.NewPCG(3, 3)))
	views := []gocv.Mat{tb.view(b, synth.Scene{Hand: &image.Point{X: 300, Y: 250}}, 1), tb.view(b, scene, 2), tb.view(b, synth.Scene{Tiles: scene.Tiles[:11]}, 3)}
	defer func() {
		for _, v := range views {
			v.Close()
		}
	}()
	now := time.Unix(0, 0)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		still := views[1+i%2]
		for _, v := range []gocv.Mat{views[0], still, still, still} { // moving, then 2 of 3 still
			if _, err := w.Process(v, now); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		evs, err := w.Process(still, now)
		if err != nil || len(evs) == 0 {
			b.Fatalf("no event: %v", err)
		}
	}
}
