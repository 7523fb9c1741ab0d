// Package sim provides simulated racks behind the same rack.Source interface as the hardware:
// the default set-up and the tests put tiles in and on them, and noise can be injected (tags
// that drop out for one scan, weight spikes, a hand over the rack, a silent reader).
package sim

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/hw/rack"
)

// Noise is what goes wrong on each scan, as probabilities in [0,1].
type Noise struct {
	TagDropout  float64 // each tile's tag unread for one scan
	WeightSpike float64 // the zone's weight off by a fraction of a tile for one scan
	GhostTag    float64 // an unenrolled tag (a phone, a bank card) seen for one scan
}

// Rack is one simulated rack. It is safe for concurrent use.
type Rack struct {
	name   string
	cells  bool
	mu     sync.Mutex
	tiles  map[rack.Zone]*tile.Counts
	noise  Noise
	hand   bool
	silent map[rack.Zone]bool
	rng    *rand.Rand
	scans  int
}

// New returns an empty rack; cells says whether it has load cells. seed makes noise repeatable.
func New(name string, cells bool, seed uint64) *Rack {
	r := &Rack{name: name, cells: cells, tiles: map[rack.Zone]*tile.Counts{},
		silent: map[rack.Zone]bool{}, rng: rand.New(rand.NewPCG(seed, 0x5eed))}
	for _, z := range rack.Zones {
		r.tiles[z] = &tile.Counts{}
	}
	return r
}

var _ rack.Source = (*Rack)(nil)

// Rack names the rack.
func (r *Rack) Rack() string { return r.name }

// Put places tiles in a zone.
func (r *Rack) Put(z rack.Zone, fs ...tile.Face) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, f := range fs {
		r.tiles[z][f]++
	}
}

// Take removes tiles from a zone; it reports false (and removes nothing) if one is not there.
func (r *Rack) Take(z rack.Zone, fs ...tile.Face) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	c, err := tile.CountsOf(fs)
	if err != nil {
		return false
	}
	return r.tiles[z].Sub(&c)
}

// SetNoise changes the injected noise.
func (r *Rack) SetNoise(n Noise) { r.mu.Lock(); r.noise = n; r.mu.Unlock() }

// SetHand puts a hand over (and on) the rack: the weight stops being a whole number of tiles.
func (r *Rack) SetHand(on bool) { r.mu.Lock(); r.hand = on; r.mu.Unlock() }

// SetSilent makes every reader of a zone stop answering.
func (r *Rack) SetSilent(z rack.Zone, on bool) { r.mu.Lock(); r.silent[z] = on; r.mu.Unlock() }

// Contents returns what is really in a zone.
func (r *Rack) Contents(z rack.Zone) tile.Counts {
	r.mu.Lock()
	defer r.mu.Unlock()
	return *r.tiles[z]
}

// Scan reports every zone once, with noise applied.
func (r *Rack) Scan(ctx context.Context) []rack.Observation {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.scans++
	out := make([]rack.Observation, 0, len(rack.Zones))
	for _, z := range rack.Zones {
		o := rack.Observation{Rack: r.name, Zone: z, Tagged: true, HasCell: r.cells}
		real := r.tiles[z]
		if r.silent[z] {
			o.Faults = append(o.Faults, rack.Fault{Rack: r.name, Zone: z, Reader: string(z) + "-*",
				Kind: rack.Silent, Detail: "simulated"})
		} else {
			for f, n := range real {
				for i := 0; i < int(n); i++ {
					if r.rng.Float64() >= r.noise.TagDropout {
						o.Tiles[f]++
					}
				}
			}
			if r.rng.Float64() < r.noise.GhostTag {
				o.Faults = append(o.Faults, rack.Fault{Rack: r.name, Zone: z, Reader: fmt.Sprintf("%s-%02d", z, r.rng.IntN(19)),
					Kind: rack.Unenrolled, Detail: "tag 04:00:00:00"})
			}
		}
		if r.cells {
			o.Weighed = true
			o.WeightTiles, o.WeightSure = real.Total(), true
			if r.hand || r.rng.Float64() < r.noise.WeightSpike {
				o.WeightSure = false
			}
		}
		rack.CheckWeight(&o)
		out = append(out, o)
	}
	return out
}
