package simtable_test

import (
	"context"
	"testing"

	"github.com/siamesetable/siamesed/hw/build"
	"github.com/siamesetable/siamesed/hw/rack"
	"github.com/siamesetable/siamesed/hw/simtable"
)

// dealt is a table of the reference layout with a hand in every rack and an exposure on each.
func dealt(b *testing.B, busy int) *world {
	w := newWorld(b, load(b, "sim-pn532.yaml"), simtable.Options{Seed: 1, Busy: busy})
	for i, r := range w.table.Racks() {
		must(b, w.table.Put(r, rack.In, faces(b, []string{
			"1B 2B 3B 4C 5C 6C 7D 8D 9D E S W N J",
			"1C 2C 3C 4D 5D 6D 7B 8B 9B E S W N",
			"1D 2D 3D 4B 5B 6B 7C 8C 9C E S W N",
			"2B 2B 5C 5C 8D 8D RD RD GD GD WD WD F"}[i])...))
		must(b, w.table.Put(r, rack.On, faces(b, []string{"F F F", "J J J J", "F F F", "J J J"}[i])...))
	}
	return w
}

// BenchmarkScanFourRacks is one scan of the four 19-slot racks of a Siamese table through the
// real drivers and the emulated chips: 76 PN532 polls behind 12 PCA9548As on two buses, and 8
// HX711 conversions shifted out bit by bit.
func BenchmarkScanFourRacks(b *testing.B) {
	for _, bc := range []struct {
		name string
		busy int
	}{{"busy1", 1}, {"busy0", -1}} {
		b.Run(bc.name, func(b *testing.B) {
			w := dealt(b, bc.busy)
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				for _, s := range w.rig.Sources {
					if obs := s.Scan(ctx); len(obs) != 2 {
						b.Fatal(obs)
					}
				}
			}
			w.noViolations()
		})
	}
}

// BenchmarkScanFourRacksDirect is the same scan on the direct path: the real Scanner and load
// cells on the table, without chips or drivers.
func BenchmarkScanFourRacksDirect(b *testing.B) {
	w := dealt(b, 1)
	srcs := w.table.Sources()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range srcs {
			if obs := s.Scan(ctx); len(obs) != 2 {
				b.Fatal(obs)
			}
		}
	}
}

// BenchmarkMonitorStep is one Monitor step over the four racks, each tag judged: the unit of
// work of the daemon's soak mode, through the chips and drivers (sim.racks: chips) and direct.
func BenchmarkMonitorStep(b *testing.B) {
	for _, direct := range []bool{false, true} {
		name := "chips"
		if direct {
			name = "direct"
		}
		b.Run(name, func(b *testing.B) {
			w := dealt(b, 1)
			mon := w.mon
			if direct {
				mon = rack.NewMonitor(w.clk, w.p.Settle, w.p.Period, w.table.Sources()...)
			}
			must(b, w.table.SetNoise(simtable.Noise{TagDropout: 0.002, BusError: 0.00002, GhostTag: 0.0002, WeightSpike: 0.001}))
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				mon.Step(ctx)
				w.clk.Advance(w.p.Period)
			}
			w.noViolations()
		})
	}
}

// BenchmarkNewTableAndRig lays out a table and builds its rig (76 PN532s initialised through the
// drivers): the cost of a fresh table a game; Clear reuses one instead.
func BenchmarkNewTableAndRig(b *testing.B) {
	p := load(b, "sim-pn532.yaml")
	b.ReportAllocs()
	for b.Loop() {
		tb, err := simtable.New(p, simtable.Options{Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		rig, err := build.Build(p, tb.Host(), tb.Enrolment(), tb.Calibrations(), build.Options{NoWait: true})
		if err != nil {
			b.Fatal(err)
		}
		if err := rig.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
