package enrol

import (
	"slices"
	"testing"

	"github.com/siamesetable/siamesed/engine/tile"
)

// Review names every crop of a good enrolment back as its own face; a 3C enrolled as 2C is
// named back as 3C (its face has another crop, so it is left out), the true 3C is no longer
// sure, and the two faces are a pair alike.
func TestReview(t *testing.T) {
	e := newDrawnEnrolment(t)
	add, dir := e.add, e.dir
	for _, f := range []tile.Face{tile.Crak2, tile.Crak3, tile.Dot5, tile.Bam1, tile.Flower, tile.Joker, tile.East} {
		add(f.String()+".png", f, f)
	}
	add("F2.png", tile.Flower, tile.Flower)
	r, err := Review(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Crops) != len(e.items) || len(r.Misread()) > 0 || len(r.Alike) > 0 {
		t.Fatalf("a good enrolment: %+v, want every crop named back and no pair alike", r)
	}
	if !r.Crops[len(r.Crops)-1].LeftOut || r.Crops[0].LeftOut {
		t.Errorf("a flower enrolled twice is named leaving itself out, a face enrolled once is not: %+v", r.Crops)
	}
	add("also-3C.png", tile.Crak2, tile.Crak3)
	if r, err = Review(dir); err != nil {
		t.Fatal(err)
	}
	mis := r.Misread()
	i := slices.IndexFunc(mis, func(c Recognised) bool { return c.Image == "also-3C.png" })
	if i < 0 || mis[i].As != tile.Crak3 {
		t.Errorf("a 3C enrolled as 2C: misread %+v, want also-3C.png named 3C", mis)
	}
	if !slices.ContainsFunc(mis, func(c Recognised) bool { return c.Image == "3C.png" }) {
		t.Errorf("a 3C enrolled as 2C: misread %+v, want the true 3C no longer sure", mis)
	}
	if len(r.Alike) != 1 || r.Alike[0].A != tile.Crak2 || r.Alike[0].B != tile.Crak3 {
		t.Errorf("a 3C enrolled as 2C: alike %v, want 2C and 3C", r.Alike)
	}
	if _, err := Review(t.TempDir()); err == nil {
		t.Error("an empty folder was reviewed")
	}
}
