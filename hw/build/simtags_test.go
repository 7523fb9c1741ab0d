package build

import (
	"testing"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/hw/config"
	"github.com/siamesetable/siamesed/hw/rack"
	"github.com/siamesetable/siamesed/hw/simtable"
)

// TestSimulatedTableWithTheUsersTags: a simulated table given an enrolment (Sim.Tags) names
// its tiles by that enrolment only, through the chips or directly: a tile whose tag it lacks is
// an unenrolled tag, as at real racks before the enrolment walk.
func TestSimulatedTableWithTheUsersTags(t *testing.T) {
	for _, direct := range []bool{false, true} {
		known := simtable.Enrolment{}
		r, err := Open(Setup{Profile: load(t, "sim-pn532.yaml"), Sim: Sim{Options: simtable.Options{Seed: 1}, Direct: direct, Tags: known}})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		if err := r.Table.Put("p1a", rack.In, tile.Joker); err != nil {
			t.Fatal(err)
		}
		obs := r.Sources[0].Scan(t.Context())
		if obs[0].Tiles.Total() != 0 || len(obs[0].Tags) != 1 || obs[0].Tags[0].Face != tile.NoFace {
			t.Fatalf("direct %v: a tag nobody enrolled is named: %+v", direct, obs[0])
		}
		known[obs[0].Tags[0].UID] = tile.Joker
		if obs := r.Sources[0].Scan(t.Context()); obs[0].Tiles[tile.Joker] != 1 {
			t.Fatalf("direct %v: the joker enrolled is not named: %+v", direct, obs[0].Tiles)
		}
	}
}

// TestSimulatedTableWithTheUsersCalibrations: a simulated table given load-cell calibrations
// (Sim.Calibrations, a data directory's) reads each zone they name with them, through the
// chips or directly; other zones keep the table's own.
func TestSimulatedTableWithTheUsersCalibrations(t *testing.T) {
	for _, direct := range []bool{false, true} {
		p := load(t, "sim-pn532.yaml")
		own, err := simtable.New(p, simtable.Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		truth, _ := own.Calibrations().Get("p1a", rack.On)
		mine := truth
		mine.CountsPerGram *= 2 // as if calibrated with 100 g said of a 200 g weight
		cals := config.Calibrations{}
		cals.Set("p1a", rack.On, mine)
		r, err := Open(Setup{Profile: p, Sim: Sim{Options: simtable.Options{Seed: 1}, Direct: direct, Calibrations: cals}})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		cell, other := r.Cells[rack.Key{Rack: "p1a", Zone: rack.On}], r.Cells[rack.Key{Rack: "p1b", Zone: rack.On}]
		if got := cell.Calibration(); got != mine {
			t.Errorf("direct %v: p1a/on reads with %+v, want the saved %+v", direct, got, mine)
		}
		if want, _ := r.Table.Calibrations().Get("p1b", rack.On); other.Calibration() != want {
			t.Errorf("direct %v: p1b/on reads with %+v, want the table's own %+v", direct, other.Calibration(), want)
		}
		if err := r.Table.SetWeight("p1a", rack.On, 200); err != nil {
			t.Fatal(err)
		}
		if g, err := cell.Grams(); err != nil || g < 95 || g > 105 {
			t.Errorf("direct %v: 200 g on p1a/on, read with the saved calibration: %.1f g, %v; want about 100", direct, g, err)
		}
	}
}
