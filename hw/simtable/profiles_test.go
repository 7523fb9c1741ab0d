package simtable_test

import (
	"context"
	"testing"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/hw/build"
	"github.com/siamesetable/siamesed/hw/config"
	"github.com/siamesetable/siamesed/hw/rack"
	"github.com/siamesetable/siamesed/hw/simtable"
)

var _ build.Host = (*simtable.Host)(nil)

// TestMFRC522Profile runs periph's MFRC522 driver on the emulated chips: one large-antenna
// reader per zone reads a lone tile; with two tiles in its field both cards answer the
// anticollision at once, and periph's driver (no anticollision loop) fails: a bus_error, the
// weight still counting both.
func TestMFRC522Profile(t *testing.T) {
	w := newWorld(t, load(t, "mfrc522-rack.yaml"), simtable.Options{Seed: 8})
	must(t, w.table.Put("p1a", rack.In, tile.Joker))
	w.settle()
	if s := w.snap("p1a", rack.In); s.Quality != rack.OK || tile.Format(s.Tiles) != "J" {
		t.Fatalf("one tile: %v", s)
	}
	must(t, w.table.Put("p1a", rack.In, tile.Red))
	w.settle()
	s := w.snap("p1a", rack.In)
	if s.Quality != rack.Degraded || s.Count != 2 || s.TagCount != 0 || s.Faults[0].Kind != rack.BusError {
		t.Fatalf("two tiles on one MFRC522: %v %v", s, s.Faults)
	}
	must(t, w.table.Take("p1a", rack.In, tile.Joker))
	w.settle()
	if s := w.snap("p1a", rack.In); s.Quality != rack.OK || tile.Format(s.Tiles) != "RD" {
		t.Fatalf("back to one tile: %v", s)
	}
	w.noViolations()
}

// TestLoadCellProfile: with no readers the zones are weighed only.
func TestLoadCellProfile(t *testing.T) {
	w := newWorld(t, load(t, "loadcell-rack.yaml"), simtable.Options{Seed: 9})
	must(t, w.table.Put("p1b", rack.In, faces(t, hand)...))
	must(t, w.table.Put("p1b", rack.On, faces(t, "J J J")...))
	w.settle()
	for z, n := range map[rack.Zone]int{rack.In: 14, rack.On: 3} {
		if s := w.snap("p1b", z); s.Quality != rack.WeightOnly || s.Count != n || len(s.Tiles) != 0 {
			t.Errorf("p1b/%s: %v, want %d by weight", z, s, n)
		}
	}
	w.noViolations()
}

// TestSimProfile: kind sim has no chips: its table is read directly, one reader a zone that
// reaches every tile.
func TestSimProfile(t *testing.T) {
	tb, err := simtable.New(load(t, "sim.yaml"), simtable.Options{Seed: 1})
	must(t, err)
	if _, err := tb.Host().OpenI2C("1"); err == nil {
		t.Fatal("kind sim has an emulated bus")
	}
	must(t, tb.Put("p1a", rack.In, faces(t, hand)...))
	must(t, tb.Put("p1a", rack.On, faces(t, "5D 5D 5D 5D")...))
	obs := tb.Sources()[0].Scan(context.Background())
	if len(obs) != 2 || obs[0].Tiles.Total() != 14 || obs[1].Tiles.Total() != 4 || obs[0].WeightTiles != 14 || len(obs[0].Readers) != 1 {
		t.Fatalf("kind sim reads %+v", obs)
	}
}

// TestHostNamesWhatIsMissing: a bus, port or pin the table does not have is an error naming
// what it has.
func TestHostNamesWhatIsMissing(t *testing.T) {
	tb, err := simtable.New(load(t, "sim-pn532.yaml"), simtable.Options{})
	must(t, err)
	h := tb.Host()
	if _, err := h.OpenI2C("7"); err == nil {
		t.Error("bus 7 opened")
	}
	if _, err := h.OpenSPI("SPI0.0"); err == nil {
		t.Error("an SPI port on a PN532 table")
	}
	if _, err := h.Pin("GPIO26"); err == nil {
		t.Error("an unwired pin")
	}
	p, err := config.Parse([]byte("kind: loadcell\nracks:\n  - name: a\n    cells: [{zone: in, clk: GPIO5, data: GPIO6}]\n"))
	must(t, err)
	tb, err = simtable.New(p, simtable.Options{})
	must(t, err)
	if _, err := tb.Host().Pin("GPIO5"); err != nil {
		t.Error(err)
	}
}
