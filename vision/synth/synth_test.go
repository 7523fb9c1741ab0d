package synth

import (
	"fmt"
	"image"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/internal/shareddata"
)

func artDir(t testing.TB) string { return shareddata.TileArt(t) }

func TestRenderPlacesTilesWhereTheSceneSays(t *testing.T) {
	art, err := LoadArt(artDir(t))
	if err != nil {
		t.Fatal(err)
	}
	defer art.Close()
	for f := range tile.Face(tile.NumFaces) {
		if m := art.Face(f); m.Cols() != ArtW || m.Rows() != ArtH {
			t.Fatalf("%v: art %dx%d", f, m.Cols(), m.Rows())
		}
	}
	r, err := NewRenderer(art, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	s := RandomScene(Options{}, 10, rand.New(rand.NewPCG(1, 2)))
	frame, err := r.Render(s, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer frame.Close()
	if frame.Cols() != 720 || frame.Rows() != 560 {
		t.Fatalf("frame %dx%d", frame.Cols(), frame.Rows())
	}
	// With no tilt, the area starts at the margin: just inside each tile's edge is the light
	// tile front, not felt.
	for _, p := range s.Tiles {
		at := p.Center.Add(image.Pt(40-16, 40-16))
		if v := frame.GetVecbAt(at.Y, at.X); int(v[0])+int(v[1])+int(v[2]) < 3*180 {
			t.Errorf("%v at %v: %v is not tile-coloured", p.Face, p.Center, v)
		}
	}
	if dir := os.Getenv("SYNTH_OUT"); dir != "" {
		gocv.IMWrite(filepath.Join(dir, "synth.png"), frame)
	}
	if _, err := r.Render(Scene{Tiles: []Placed{{Face: tile.Bam1, Center: image.Pt(2, 2)}}}, 1); err == nil {
		t.Fatal("a tile outside the area was rendered")
	}
}

func TestScriptPlaysEachStepItsFrames(t *testing.T) {
	art, err := LoadArt(artDir(t))
	if err != nil {
		t.Fatal(err)
	}
	defer art.Close()
	r, err := NewRenderer(art, Options{W: 160, H: 120})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	s := NewScript(r, Step{Frames: 2}, Step{Scene: Scene{Tiles: []Placed{{Face: tile.Joker, Center: image.Pt(80, 60)}}}}, Step{Frames: 3})
	m := gocv.NewMat()
	defer m.Close()
	n := 0
	for s.Read(&m) == nil {
		n++
	}
	if n != 6 {
		t.Fatalf("%d frames, want 6", n)
	}
}

// A scene is played like a table: a discard placed, one refused on top of it, one taken away;
// and the rendered frame shows a tile where one lies and felt where it was taken.
func TestScenePlaceAndRemove(t *testing.T) {
	art, err := LoadArt(artDir(t))
	if err != nil {
		t.Fatal(err)
	}
	defer art.Close()
	r, err := NewRenderer(art, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var s Scene
	w := Options{}.TileSize().X
	if err := s.Place(Placed{Face: tile.Joker, Center: image.Pt(100, 100)}, w); err != nil {
		t.Fatal(err)
	}
	if err := s.Place(Placed{Face: tile.Flower, Center: image.Pt(300, 200), Quarter: 1}, w); err != nil {
		t.Fatal(err)
	}
	if err := s.Place(Placed{Face: tile.Bam1, Center: image.Pt(110, 105)}, w); err == nil {
		t.Error("a tile placed on another")
	}
	if err := s.Place(Placed{Face: tile.Bam1, Center: image.Pt(400, 105), Quarter: 4}, w); err == nil {
		t.Error("a quarter turn of 4 accepted")
	}
	if p, ok := s.Remove(image.Pt(302, 198), w); !ok || p.Face != tile.Flower {
		t.Errorf("removed %v, %v; want the flower", p, ok)
	}
	if _, ok := s.Remove(image.Pt(500, 400), w); ok {
		t.Error("removed a tile where none lies")
	}
	frame, err := r.Render(s, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer frame.Close()
	light := func(p image.Point) bool {
		v := frame.GetVecbAt(p.Y+40, p.X+40) // the frame's margin
		return int(v[0])+int(v[1])+int(v[2]) > 3*150
	}
	if !light(image.Pt(100-14, 100-20)) || light(image.Pt(300-14, 200-20)) {
		t.Error("the frame does not show the joker lying and the flower gone")
	}
}

// TestRenderAgainIsRenderAfresh: the renderer keeps the last scene drawn (a still table seen
// frame after frame, blurred and lit again only where the view changed); a frame must be what a
// fresh renderer draws, whatever was drawn before and even when the caller changes its scene in
// place afterwards.
func TestRenderAgainIsRenderAfresh(t *testing.T) {
	art, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	defer art.Close()
	for _, blur := range []int{3, 7} {
		t.Run(fmt.Sprint("blur ", blur), func(t *testing.T) {
			renderAgain(t, art, Options{W: 320, H: 240, Tilt: 0.05, Light: 0.2, Blur: blur, Noise: 3})
		})
	}
}

func renderAgain(t *testing.T, art *Art, o Options) {
	fresh := func(s Scene, seed uint64) gocv.Mat {
		r, err := NewRenderer(art, o)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		m, err := r.Render(s, seed)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	same := func(what string, a, b gocv.Mat) {
		t.Helper()
		defer a.Close()
		defer b.Close()
		diff := gocv.NewMat()
		defer diff.Close()
		gocv.AbsDiff(a, b, &diff)
		if n := gocv.CountNonZero(diff.Reshape(1, 0)); n != 0 {
			t.Errorf("%s: %d values differ from a fresh renderer's frame", what, n)
		}
	}
	r, err := NewRenderer(art, o)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	s := RandomScene(o, 6, rand.New(rand.NewPCG(3, 4)))
	hand := image.Pt(100, 100)
	moving := Scene{Tiles: s.Tiles, Hand: &hand}
	kept := gocv.NewMat() // a camera loop's frame, drawn into again and again
	defer kept.Close()
	for i, step := range []Scene{s, moving, s, s} {
		if err := r.RenderTo(step, uint64(10+i), &kept); err != nil {
			t.Fatal(err)
		}
		same(fmt.Sprintf("frame %d", i), kept.Clone(), fresh(step, uint64(10+i)))
	}
	a, _ := r.Render(s, 20)
	b, _ := r.Render(s, 21)
	diff := gocv.NewMat()
	gocv.AbsDiff(a, b, &diff)
	if gocv.CountNonZero(diff.Reshape(1, 0)) == 0 {
		t.Error("two frames of a still scene have the same noise")
	}
	diff.Close()
	a.Close()
	b.Close()
	s.Tiles[0].Face = (s.Tiles[0].Face + 1) % tile.NumFaces // the caller's scene, changed in place
	hand.X += 40
	m, err := r.Render(s, 30)
	if err != nil {
		t.Fatal(err)
	}
	same("a scene changed in place", m, fresh(s, 30))
	m, err = r.Render(moving, 31)
	if err != nil {
		t.Fatal(err)
	}
	same("a hand moved in place", m, fresh(moving, 31))
}

// BenchmarkRenderStill times a frame of a scene that has not changed since the last, the simulated
// camera's most common frame: only its noise is new.
func BenchmarkRenderStill(b *testing.B) {
	art, err := Embedded()
	if err != nil {
		b.Fatal(err)
	}
	defer art.Close()
	o := Options{W: 960, H: 704, Tilt: 0.05, Light: 0.2, Blur: 3, Noise: 3}
	r, err := NewRenderer(art, o)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	s := RandomScene(o, 40, rand.New(rand.NewPCG(3, 4)))
	frame := gocv.NewMat()
	defer frame.Close()
	for seed := uint64(0); b.Loop(); seed++ {
		if err := r.RenderTo(s, seed, &frame); err != nil {
			b.Fatal(err)
		}
	}
}
