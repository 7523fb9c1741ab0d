package rack_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/hw/rack"
	"github.com/siamesetable/siamesed/hw/simtable"
	"github.com/siamesetable/siamesed/internal/clock"
)

// TestFigureNoise plays random tile moves on a simulated rack with injected noise and counts
// false events: a snapshot whose tiles or count differ from what is really there, or a snapshot
// sent when nothing changed. Goal: none. Run with -v to see the figure.
func TestFigureNoise(t *testing.T) {
	for _, noise := range []simtable.Noise{
		{TagDropout: 0.01, WeightSpike: 0.02, GhostTag: 0.005},
		{TagDropout: 0.05, WeightSpike: 0.05, GhostTag: 0.01},
	} {
		noiseRun(t, noise)
	}
}

func noiseRun(t *testing.T, noise simtable.Noise) {
	const scans = 20000
	clk := clock.NewFake(t0)
	tb, srcs := simRacks(t, 42)
	must(t, tb.SetNoise(noise))
	m := rack.NewMonitor(clk, rack.DefaultSettle, rack.DefaultPeriod, srcs[0])
	rng := rand.New(rand.NewPCG(7, 7))
	changed := map[rack.Zone]bool{rack.In: true, rack.On: true}
	var snaps, falseEvents, moves, missed int
	for i := 0; i < scans; i++ {
		z := rack.Zones[rng.IntN(2)]
		if rng.IntN(40) == 0 && move(t, tb, z, rng) { // a move every ~2 s
			moves++
			if changed[z] {
				missed++ // the previous change of this zone never settled
			}
			changed[z] = true
		}
		for _, s := range m.Step(context.Background()) {
			snaps++
			truth, _ := tb.Contents("p1a", s.Zone)
			got := s.Counts()
			if s.Quality == rack.OK && (got != truth || s.Count != truth.Total()) || s.Count != truth.Total() {
				falseEvents++
				t.Errorf("false snapshot at scan %d: %v, truth %v", i, s, truth)
			} else if !changed[s.Zone] && s.Quality == rack.OK {
				falseEvents++
				t.Errorf("snapshot with no change at scan %d: %v", i, s)
			}
			if s.Quality == rack.OK {
				changed[s.Zone] = false
			}
		}
		clk.Advance(rack.DefaultPeriod)
	}
	t.Logf("FIGURE false events under noise %+v: %d false of %d snapshots over %d scans (%v simulated); %d moves, %d superseded before settling",
		noise, falseEvents, snaps, scans, time.Duration(scans)*rack.DefaultPeriod, moves, missed)
}

// move takes a random tile from a zone of p1a or puts one there; false if every tile of the face
// drawn is on the rack already.
func move(t *testing.T, tb *simtable.Table, z rack.Zone, rng *rand.Rand) bool {
	if c, _ := tb.Contents("p1a", z); c.Total() > 14 || c.Total() > 0 && rng.IntN(2) == 0 {
		must(t, tb.Take("p1a", z, c.Faces()[rng.IntN(c.Total())]))
		return true
	}
	err := tb.Put("p1a", z, tile.Face(rng.IntN(tile.NumFaces)))
	if errors.Is(err, simtable.ErrNoTile) {
		return false
	}
	must(t, err)
	return true
}

// TestFigureSettleLatency measures, with the fake clock, the time from the moment a zone's
// contents stop changing to the snapshot, for tiles placed at random phases of the scan period.
func TestFigureSettleLatency(t *testing.T) {
	for _, period := range []time.Duration{rack.DefaultPeriod, 190 * time.Millisecond} {
		clk := clock.NewFake(t0)
		tb, srcs := simRacks(t, 1)
		m := rack.NewMonitor(clk, rack.DefaultSettle, period, srcs[0])
		rng := rand.New(rand.NewPCG(1, 2))
		step := time.Millisecond
		var minL, maxL, sum time.Duration
		const trials = 200
		for i := 0; i < trials; i++ {
			// Let everything settle, then place a tile at a random millisecond of the period.
			for j := 0; j < 20; j++ {
				m.Step(context.Background())
				clk.Advance(period)
			}
			phase := time.Duration(rng.IntN(int(period/step))) * step
			clk.Advance(phase)
			placed := clk.Now()
			must(t, tb.Put("p1a", rack.In, tile.Flower))
			clk.Advance(period - phase)
			var lat time.Duration
			for lat == 0 {
				for _, s := range m.Step(context.Background()) {
					lat = s.At.Sub(placed)
				}
				clk.Advance(period)
			}
			must(t, tb.Take("p1a", rack.In, tile.Flower)) // the set has eight
			if i == 0 || lat < minL {
				minL = lat
			}
			maxL = max(maxL, lat)
			sum += lat
		}
		if minL < rack.DefaultSettle {
			t.Errorf("a snapshot came %v after the change, inside the settle window", minL)
		}
		t.Logf("FIGURE settle-to-snapshot latency (settle %v, scan period %v): min %v mean %v max %v over %d placements",
			rack.DefaultSettle, period, minL, sum/trials, maxL, trials)
	}
}

// BenchmarkMonitorStep is the software cost of one scan cycle of four simulated 19-tile racks
// (everything but the bus time): observation, signature and settling.
func BenchmarkMonitorStep(b *testing.B) {
	clk := clock.NewFake(t0)
	tb, srcs := simRacks(b, 1)
	for _, n := range tb.Racks() {
		must(b, tb.Put(n, rack.In, faces(b, "1B 2B 3B 4C 5C 6C 7D 8D 9D E S W N RD GD")...))
		must(b, tb.Put(n, rack.On, faces(b, "J J F F")...))
	}
	m := rack.NewMonitor(clk, 0, 0, srcs...)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		m.Step(ctx)
		clk.Advance(rack.DefaultPeriod)
	}
}
