package detect_test

import (
	"image"
	"math/rand/v2"
	"testing"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/internal/shareddata"
	"github.com/siamesetable/siamesed/vision/calib"
	"github.com/siamesetable/siamesed/vision/detect"
	"github.com/siamesetable/siamesed/vision/synth"
)

func artDir(t testing.TB) string { return shareddata.TileArt(t) }

// camera renders scenes through a tilted, unevenly lit, blurred and noisy camera and warps them
// back with the renderer's calibration, as the daemon does with a calibrated camera.
type camera struct {
	r *synth.Renderer
	w *calib.Warper
}

func newCamera(t testing.TB, art *synth.Art, opts synth.Options) *camera {
	r, err := synth.NewRenderer(art, opts)
	if err != nil {
		t.Fatal(err)
	}
	w, err := calib.NewWarper(r.Calibration())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	return &camera{r, w}
}

func (c *camera) view(t testing.TB, s synth.Scene, seed uint64) gocv.Mat {
	frame, err := c.r.Render(s, seed)
	if err != nil {
		t.Fatal(err)
	}
	defer frame.Close()
	v := gocv.NewMat()
	c.w.Warp(frame, &v)
	return v
}

var hard = synth.Options{Tilt: 0.08, Light: 0.3, Blur: 3, Noise: 4, Seed: 5}

func TestExtractFindsThePlacedTiles(t *testing.T) {
	art, err := synth.LoadArt(artDir(t))
	if err != nil {
		t.Fatal(err)
	}
	defer art.Close()
	cam := newCamera(t, art, hard)
	empty := cam.view(t, synth.Scene{}, 100)
	defer empty.Close()
	ext := detect.Extractor{TileW: hard.TileSize().X}
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 10 {
		scene := synth.RandomScene(hard, 3+trial*3, rng)
		view := cam.view(t, scene, uint64(trial))
		found, others, err := ext.Extract(view, empty)
		view.Close()
		if err != nil {
			t.Fatal(err)
		}
		if others != 0 || len(found) != len(scene.Tiles) {
			t.Errorf("trial %d: found %d tiles and %d other blobs, placed %d", trial, len(found), others, len(scene.Tiles))
		}
		for _, p := range scene.Tiles {
			if !anyNear(found, p.Center, hard.TileSize().X/4) {
				t.Errorf("trial %d: %v at %v not found in %v", trial, p.Face, p.Center, centers(found))
			}
		}
		for _, f := range found {
			if f.Crop.Cols() != detect.CropW || f.Crop.Rows() != detect.CropH {
				t.Errorf("crop %dx%d", f.Crop.Cols(), f.Crop.Rows())
			}
			f.Crop.Close()
		}
	}
}

func anyNear(found []detect.Found, c image.Point, px int) bool {
	for _, f := range found {
		if d := f.Center.Sub(c); d.X*d.X+d.Y*d.Y <= px*px {
			return true
		}
	}
	return false
}

func TestGateWaitsForStillFrames(t *testing.T) {
	art, err := synth.LoadArt(artDir(t))
	if err != nil {
		t.Fatal(err)
	}
	defer art.Close()
	cam := newCamera(t, art, hard)
	g := detect.NewGate()
	defer g.Close()
	hand := func(x int) synth.Scene { return synth.Scene{Hand: &image.Point{X: x, Y: 200}} }
	steps := []struct {
		scene   synth.Scene
		settled bool
	}{
		{synth.Scene{}, false}, // first frame: nothing to compare with
		{synth.Scene{}, false},
		{synth.Scene{}, false},
		{synth.Scene{}, true},
		{hand(100), false},
		{hand(200), false},
		{hand(300), false},
		{synth.Scene{}, false},
		{synth.Scene{}, false},
		{synth.Scene{}, false},
		{synth.Scene{}, true},
	}
	for i, s := range steps {
		v := cam.view(t, s.scene, uint64(i))
		settled, _ := g.Update(v)
		v.Close()
		if settled != s.settled {
			t.Fatalf("frame %d: settled %v, want %v", i, settled, s.settled)
		}
	}
}

func BenchmarkExtract(b *testing.B) {
	art, err := synth.LoadArt(artDir(b))
	if err != nil {
		b.Fatal(err)
	}
	defer art.Close()
	cam := newCamera(b, art, hard)
	empty := cam.view(b, synth.Scene{}, 100)
	defer empty.Close()
	view := cam.view(b, synth.RandomScene(hard, 12, rand.New(rand.NewPCG(1, 1))), 1)
	defer view.Close()
	ext := detect.Extractor{TileW: hard.TileSize().X}
	b.ResetTimer()
	for b.Loop() {
		found, _, err := ext.Extract(view, empty)
		if err != nil {
			b.Fatal(err)
		}
		for _, f := range found {
			f.Crop.Close()
		}
	}
}

func centers(found []detect.Found) []image.Point {
	var cs []image.Point
	for _, f := range found {
		cs = append(cs, f.Center)
	}
	return cs
}

// A tile dense with dark dots (8D, 9D) on the dim side of the table is found whole: its dots
// differ from the felt little, and the thin rim between them and the tile's edge must not be
// cut away with them (it was, now and then, before blobs were filled).
func TestExtractFindsDarkDottedTilesWhole(t *testing.T) {
	art, err := synth.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	defer art.Close()
	opts := synth.Options{W: 480, H: 360, Light: 0.3, Blur: 3, Noise: 3, Seed: 4}
	cam := newCamera(t, art, opts)
	empty := cam.view(t, synth.Scene{}, 100)
	defer empty.Close()
	ts := opts.TileSize()
	var s synth.Scene
	for i, f := range []tile.Face{tile.Dot8, tile.Dot9, tile.Dot9, tile.Dot8, tile.Dot9, tile.Dot7} {
		s.Tiles = append(s.Tiles, synth.Placed{Face: f, Center: image.Pt(250+70*(i%3), 60+120*(i/3)+(i%3)*40), Quarter: i % 4})
	}
	for seed := range uint64(10) {
		v := cam.view(t, s, seed)
		found, others, err := detect.Extractor{TileW: ts.X}.Extract(v, empty)
		v.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range s.Tiles {
			ok := false
			for _, f := range found {
				short, long := min(f.Box.Width, f.Box.Height), max(f.Box.Width, f.Box.Height)
				if d := f.Center.Sub(p.Center); d.X*d.X+d.Y*d.Y <= 9 && float64(short) > 0.9*float64(ts.X) && float64(long) > 0.9*float64(ts.Y) {
					ok = true
				}
			}
			if !ok {
				t.Errorf("frame %d: %v at %v (%d quarter turns) not found whole in %v (%d other blobs)", seed, p.Face, p.Center, p.Quarter, centers(found), others)
			}
		}
		for _, f := range found {
			f.Crop.Close()
		}
	}
}
