package rack_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/hw/config"
	"github.com/siamesetable/siamesed/hw/rack"
	"github.com/siamesetable/siamesed/hw/simtable"
	"github.com/siamesetable/siamesed/internal/clock"
)

// TestFigureNoise plays random tile moves on a simulated rack with injected noise and counts
// false events: a snapshot whose tiles or count differ from what is really there, or a snapshot
// sent when nothing changed. Goal: none. A snapshot that leaves at the very scan a tile moves
// may be true of the zone as it was a scan before (the load cell's rolling median shows a move
// a scan late, and one miss of a poorly read tag is no doubt yet): those are counted apart,
// not as false. A move "superseded" is one made before the zone's last change showed in an ok
// snapshot (on the reference layout an exposure of three is never ok: two tags, three tiles).
// Run with -v to see the figure.
func TestFigureNoise(t *testing.T) {
	for _, noise := range []simtable.Noise{
		{TagDropout: 0.01, WeightSpike: 0.02, GhostTag: 0.005},
		{TagDropout: 0.05, WeightSpike: 0.05, GhostTag: 0.01},
	} {
		noiseRun(t, "sim.yaml", noise)
	}
	// Noise as real racks make it, on the reference rack's layout (19 readers a rack) read
	// directly: some readers worse than the rest, hands over the rack, tiles set off centre.
	for _, noise := range []simtable.Noise{
		{TagDropout: 0.01, WeightSpike: 0.02, GhostTag: 0.005, WeakReaders: 0.2, WeakDropout: 0.2, HandBurst: 0.01, OffCentre: 0.05},
		{TagDropout: 0.05, WeightSpike: 0.05, GhostTag: 0.01, WeakReaders: 0.2, WeakDropout: 0.4, HandBurst: 0.02, OffCentre: 0.1},
	} {
		noiseRun(t, "sim-pn532.yaml", noise)
	}
}

func noiseRun(t *testing.T, profile string, noise simtable.Noise) {
	const scans = 20000
	clk := clock.NewFake(t0)
	p, err := config.Load("../../configs/hw/" + profile)
	must(t, err)
	tb, err := simtable.New(p, simtable.Options{Seed: 42})
	must(t, err)
	srcs := tb.Sources()
	must(t, tb.SetNoise(noise))
	m := rack.NewMonitor(clk, rack.DefaultSettle, rack.DefaultPeriod, srcs[0])
	rng := rand.New(rand.NewPCG(7, 7))
	changed := map[rack.Zone]bool{rack.In: true, rack.On: true}
	var snaps, falseEvents, late, moves, missed int
	for i := 0; i < scans; i++ {
		z := rack.Zones[rng.IntN(2)]
		before, _ := tb.Contents("p1a", z)
		moved := rng.IntN(40) == 0 && move(t, tb, z, rng) // a move every ~2 s
		if moved {
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
			wrong := func(c tile.Counts) bool { return s.Quality == rack.OK && got != c || s.Count != c.Total() }
			switch {
			case moved && s.Zone == z && wrong(truth) && !wrong(before):
				late++ // true of the zone as it was before this scan's move
			case wrong(truth):
				falseEvents++
				t.Errorf("false snapshot at scan %d: %v, truth %v", i, s, truth)
			case !changed[s.Zone] && s.Quality == rack.OK:
				falseEvents++
				t.Errorf("snapshot with no change at scan %d: %v", i, s)
			case s.Quality == rack.OK:
				changed[s.Zone] = false
			}
		}
		clk.Advance(rack.DefaultPeriod)
	}
	t.Logf("FIGURE false events under noise %+v on %s: %d false of %d snapshots over %d scans (%v simulated), %d a scan late; %d moves, %d superseded before settling",
		noise, profile, falseEvents, snaps, scans, time.Duration(scans)*rack.DefaultPeriod, late, moves, missed)
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

// BenchmarkMonitorMotion is what the daemon asks the monitor at every tick: the zones moving,
// changing, failing and reweighed, over four 19-tile racks.
func BenchmarkMonitorMotion(b *testing.B) {
	clk := clock.NewFake(t0)
	tb, srcs := simRacks(b, 1)
	for _, n := range tb.Racks() {
		must(b, tb.Put(n, rack.In, faces(b, "1B 2B 3B 4C 5C 6C 7D 8D 9D E S W N RD GD")...))
		must(b, tb.Put(n, rack.On, faces(b, "J J F F")...))
	}
	m := rack.NewMonitor(clk, 0, 0, srcs...)
	m.Step(context.Background())
	b.ReportAllocs()
	for b.Loop() {
		m.Motion()
	}
}
