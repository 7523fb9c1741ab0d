package build

import (
	"testing"

	"github.com/siamesetable/siamesed/engine/tile"
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
