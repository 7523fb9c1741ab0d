package table

import (
	"strings"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/hw/config"
	"github.com/siamesetable/siamesed/hw/rack"
	"github.com/siamesetable/siamesed/hw/simtable"
)

var t0 = time.Date(2026, 11, 25, 21, 0, 0, 0, time.UTC)

// seen records what a camera output is shown.
type seen struct{ shown, swept []string }

func (c *seen) Show(s bool, f tile.Face, at time.Time) {
	what := "taken"
	if s {
		what = "laid"
	}
	c.shown = append(c.shown, what+" "+f.String()+" "+at.Sub(t0).String())
}
func (c *seen) Clear(time.Time)                 { c.swept = append(c.swept, "clear") }
func (c *seen) Lay(fs []tile.Face, _ time.Time) { c.swept = append(c.swept, "lay "+tile.Format(fs)) }

func newTable(t *testing.T, cam Camera) *Table {
	t.Helper()
	p, err := config.Load("../../configs/hw/sim-pn532.yaml")
	if err != nil {
		t.Fatal(err)
	}
	racks, err := simtable.New(p, simtable.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return New(racks, cam)
}

// TestTheDiscardAreaIsOneModel: the discard area holds what was laid and not taken, in order;
// the camera output is shown each move; a sweep clears the racks and the area; sitting down
// again lays the game's discards; a camera that draws nothing is not asked to.
func TestTheDiscardAreaIsOneModel(t *testing.T) {
	cam := &seen{}
	tb := newTable(t, cam)
	if err := tb.Put("p1a", rack.In, tile.Bam1, tile.Bam2); err != nil {
		t.Fatal(err)
	}
	tb.Discard(tile.Dot5, t0)
	tb.Discard(tile.Joker, t0.Add(time.Second))
	tb.Discard(tile.Dot5, t0.Add(2*time.Second))
	tb.TakeDiscard(tile.Dot5, t0.Add(3*time.Second)) // called: the 5D laid last
	if got := tile.Format(tb.Lying()); got != "5D J" {
		t.Errorf("lying %q, want 5D J", got)
	}
	if got := strings.Join(cam.shown, ", "); got != "laid 5D 0s, laid J 1s, laid 5D 2s, taken 5D 3s" {
		t.Errorf("the camera was shown %s", got)
	}
	tb.Clear(t0.Add(4 * time.Second))
	if c, _ := tb.Racks().Contents("p1a", rack.In); len(tb.Lying()) != 0 || c.Total() != 0 {
		t.Errorf("after the sweep: lying %v, p1a %v", tb.Lying(), c)
	}
	tb.SitDown([]tile.Face{tile.North, tile.Red})
	if got := tile.Format(tb.Lying()); got != "N RD" || strings.Join(cam.swept, ", ") != "clear, lay N RD" {
		t.Errorf("sat down: lying %q, swept %v", got, cam.swept)
	}
	direct := New(tb.Racks(), NewDirectCamera(1, 0))
	direct.Clear(t0) // a direct camera has nothing to draw
	direct.Discard(tile.Bam3, t0)
	if got := tile.Format(direct.Lying()); got != "3B" {
		t.Errorf("lying %q", got)
	}
}

// TestDirectCamera: a report is due once the view has settled, DirectDelay after the move, in
// the order made; a share of them (Unknown) are unsure guesses.
func TestDirectCamera(t *testing.T) {
	c := NewDirectCamera(7, 0)
	c.Show(true, tile.Bam1, t0)
	c.Show(false, tile.Bam1, t0.Add(100*time.Millisecond))
	if d := c.Due(t0.Add(DirectDelay - time.Millisecond)); len(d) != 0 {
		t.Fatalf("due before the view settled: %v", d)
	}
	d := c.Due(t0.Add(DirectDelay + 100*time.Millisecond))
	if len(d) != 2 || !d[0].Seen || d[1].Seen || !d[0].Known || d[0].Face != tile.Bam1 || !d[0].At.Equal(t0.Add(DirectDelay)) {
		t.Fatalf("due %+v", d)
	}
	c = NewDirectCamera(7, 0.2)
	unknown := 0
	for i := range 2000 {
		c.Show(true, tile.Red, t0.Add(time.Duration(i)*time.Second))
	}
	for _, r := range c.Due(t0.Add(time.Hour)) {
		if !r.Known {
			unknown++
		}
	}
	if unknown < 340 || unknown > 460 {
		t.Errorf("%d of 2000 unknown, want about 400", unknown)
	}
}

func TestNoiseValidate(t *testing.T) {
	n := Noise{Noise: simtable.Noise{TagDropout: 0.7}, UnknownDiscard: 0.6, Overlap: -0.1}
	var got []string
	for _, err := range n.Validate() {
		got = append(got, err.Error())
	}
	want := "tag_dropout: 0.7 is outside 0 to 0.5 (a chance); unknown_discard: 0.6 is outside 0 to 0.5 (a chance); overlap: -0.1 is outside 0 to 0.5 (a chance)"
	if strings.Join(got, "; ") != want {
		t.Errorf("got %q\nwant %q", strings.Join(got, "; "), want)
	}
	if errs := (Noise{}).Validate(); len(errs) != 0 {
		t.Errorf("no noise: %v", errs)
	}
}
