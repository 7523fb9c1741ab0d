package enrol

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/vision/classify"
	"github.com/siamesetable/siamesed/vision/labels"
	"github.com/siamesetable/siamesed/vision/synth"
)

// Two enrolled crops of one drawing under different faces are named as alike; the drawn faces
// of a set, each once, are not alike at the built-in model's limit, and a flower enrolled twice
// is one face, never a pair.
func TestLookAlikes(t *testing.T) {
	e := newDrawnEnrolment(t)
	add := e.add
	for f := range tile.Face(tile.NumFaces) {
		add(f.String()+".png", f, f)
	}
	add("F2.png", tile.Flower, tile.Flower)
	c, err := classify.NewNet("")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	got, err := LookAlikes(c, e.dir, e.items, classify.NetLookAlike)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 0 {
		t.Errorf("the drawn faces: %v, want no pair alike", got)
	}
	add("also-3C.png", tile.Crak2, tile.Crak3) // a 3C enrolled as 2C
	if got, err = LookAlikes(c, e.dir, e.items, classify.NetLookAlike); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].A != tile.Crak2 || got[0].B != tile.Crak3 || got[0].ImageA != "also-3C.png" || got[0].Similarity < 0.99 {
		t.Errorf("a 3C enrolled as 2C: %v, want 2C and 3C alike", got)
	}
}

// drawnEnrolment is an enrolment folder of the built-in drawings, made crop by crop.
type drawnEnrolment struct {
	t     *testing.T
	art   *synth.Art
	dir   string
	items []labels.Item
}

func newDrawnEnrolment(t *testing.T) *drawnEnrolment {
	t.Helper()
	art, err := synth.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { art.Close() })
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, labels.ImageDir), 0o755); err != nil {
		t.Fatal(err)
	}
	return &drawnEnrolment{t: t, art: art, dir: dir}
}

// add writes the drawing of drawn as a crop enrolled as f, and lists it in labels.csv.
func (e *drawnEnrolment) add(name string, f, drawn tile.Face) {
	e.t.Helper()
	if !gocv.IMWrite(filepath.Join(e.dir, labels.ImageDir, name), e.art.Face(drawn)) {
		e.t.Fatal("cannot write a crop")
	}
	e.items = append(e.items, labels.Item{Image: name, Tile: f})
	var b strings.Builder
	if err := labels.Write(&b, e.items); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(e.dir, labels.FileName), []byte(b.String()), 0o644); err != nil {
		e.t.Fatal(err)
	}
}
