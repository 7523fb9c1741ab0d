package sim

import (
	"context"
	"testing"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/hw/rack"
)

func TestSimRackReportsWhatIsThere(t *testing.T) {
	r := New("p1a", true, 1)
	r.Put(rack.On, tile.Red, tile.Red, tile.Joker)
	obs := r.Scan(context.Background())
	on := obs[1]
	if on.Tiles.Total() != 3 || on.WeightTiles != 3 || !on.WeightSure || len(on.Faults) != 0 {
		t.Fatalf("on zone %+v", on)
	}
	r.SetSilent(rack.In, true)
	if obs := r.Scan(context.Background()); len(obs[0].Faults) != 1 || obs[0].Faults[0].Kind != rack.Silent {
		t.Fatalf("silent zone %+v", obs[0])
	}
	if r.Take(rack.On, tile.Flower) {
		t.Fatal("took a tile that is not there")
	}
}

func TestTagStreamRepeatsAndAlternates(t *testing.T) {
	s := NewTagStream(1)
	var seen []string
	for i := 0; i < 20; i++ {
		u, _ := s.ReadTags()
		if i%2 == 1 && len(u) != 0 {
			t.Fatalf("call %d: %v, want an empty field", i, u)
		}
		seen = append(seen, u...)
	}
	if len(seen) != 10 || seen[4] != seen[3] {
		t.Fatalf("stream %v", seen)
	}
}
