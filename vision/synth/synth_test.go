package synth

import (
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
