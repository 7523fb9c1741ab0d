package simtable_test

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/hw/rack"
	"github.com/siamesetable/siamesed/hw/simtable"
)

const hand = "1B 2B 3B 4C 5C 6C 7D 8D 9D E S W N J"

// TestEachNoiseGivesItsFault: every kind of noise shows up as the fault the rack package names
// for it, never as a wrong tile in a snapshot (world.check runs on each), and the rack settles
// to the truth again once the noise stops.
func TestEachNoiseGivesItsFault(t *testing.T) {
	for _, tc := range []struct {
		name  string
		noise simtable.Noise
		want  rack.FaultKind // "" for an unsure weight
	}{
		{"tag dropout", simtable.Noise{TagDropout: 0.05}, rack.WeightMismatch},
		{"bus error", simtable.Noise{BusError: 0.01}, rack.BusError},
		{"ghost tag", simtable.Noise{GhostTag: 0.05}, rack.Unenrolled},
		{"weight spike", simtable.Noise{WeightSpike: 0.4}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, load(t, "sim-pn532.yaml"), simtable.Options{Seed: 4})
			must(t, w.table.Put("p1a", rack.In, faces(t, hand)...))
			must(t, w.table.Put("p1a", rack.On, faces(t, "RD RD")...))
			must(t, w.table.SetNoise(tc.noise))
			w.step(400)
			n := w.faults(tc.want)
			if tc.want == "" {
				n = w.taps[0].unsure
			}
			if n == 0 {
				t.Fatalf("400 scans with %+v and no %q", tc.noise, tc.want)
			}
			t.Logf("%d %q in 400 scans", n, tc.want)
			must(t, w.table.SetNoise(simtable.Noise{}))
			must(t, w.table.Put("p1a", rack.In, tile.Flower)) // a change, so a new snapshot is due
			// A bank card that answered a tenth of the polls was judged lying on the rack: it
			// is judged gone once it missed as many polls as such a tag would with chance δ.
			w.step(200)
			w.settle()
			if s := w.snap("p1a", rack.In); s.Quality != rack.OK || s.Count != 15 {
				t.Fatalf("after the noise: %v", s)
			}
			w.noViolations()
		})
	}
}

// TestHandOverARack: while a hand rests over p1a nothing of p1a settles, however the tiles move
// under it; the other racks go on; when it lifts, p1a settles to the truth.
func TestHandOverARack(t *testing.T) {
	w := newWorld(t, load(t, "sim-pn532.yaml"), simtable.Options{Seed: 5})
	w.settle()
	must(t, w.table.SetHand("p1a", true))
	must(t, w.table.Put("p1a", rack.In, faces(t, hand)...))
	must(t, w.table.Put("p1b", rack.In, faces(t, "F F")...))
	for _, s := range w.step(100) {
		if s.Rack == "p1a" {
			t.Fatalf("a snapshot under the hand: %v", s)
		}
	}
	if s := w.snap("p1b", rack.In); s.Count != 2 {
		t.Fatalf("p1b did not go on: %v", s)
	}
	if w.taps[0].unsure == 0 {
		t.Fatal("the hand never made the weight unsure")
	}
	must(t, w.table.SetHand("p1a", false))
	w.settle()
	if s := w.snap("p1a", rack.In); s.Quality != rack.OK || s.Count != 14 {
		t.Fatalf("after the hand lifted: %v", s)
	}
	w.noViolations()
}

// TestSilentAndUnpluggedReaders: a PN532 that stops answering is a silent_reader fault, one
// that no longer acknowledges its address a bus_error; the zone settles degraded, naming only
// what the working readers see while the weight still counts every tile; both recover.
func TestSilentAndUnpluggedReaders(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(*simtable.Table, bool) error
		want rack.FaultKind
	}{
		{"silent", func(tb *simtable.Table, on bool) error { return tb.SetSilent("p2b", "in-00", on) }, rack.Silent},
		{"unplugged", func(tb *simtable.Table, on bool) error { return tb.SetUnplugged("p2b", "in-00@mux73.0", on) }, rack.BusError},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, load(t, "sim-pn532.yaml"), simtable.Options{Seed: 6})
			must(t, w.table.Put("p2b", rack.In, faces(t, hand)...)) // 1B lands in in-00
			must(t, tc.set(w.table, true))
			w.settle()
			s := w.snap("p2b", rack.In)
			if s.Quality != rack.Degraded || s.Count != 14 || s.TagCount != 13 || s.Counts()[tile.Bam1] != 0 ||
				len(s.Faults) != 1 || s.Faults[0].Kind != tc.want || s.Faults[0].Reader != "in-00@mux73.0" {
				t.Fatalf("with in-00 out: %v %v", s, s.Faults)
			}
			must(t, tc.set(w.table, false))
			w.settle()
			if s := w.snap("p2b", rack.In); s.Quality != rack.OK || s.TagCount != 14 {
				t.Fatalf("after in-00 came back: %v", s)
			}
			w.noViolations()
		})
	}
}

// TestFigureNoiseThroughTheDrivers plays random moves for 4000 scans (3 min 20 s of table time) with every
// kind of noise on: every snapshot is checked against the truth, no driver breaks the protocol.
func TestFigureNoiseThroughTheDrivers(t *testing.T) {
	w := newWorld(t, load(t, "sim-pn532.yaml"), simtable.Options{Seed: 7})
	noise := simtable.Noise{TagDropout: 0.01, BusError: 0.0005, GhostTag: 0.005, WeightSpike: 0.02}
	must(t, w.table.SetNoise(noise))
	rng := rand.New(rand.NewPCG(7, 7))
	racks := w.table.Racks()
	const scans = 4000
	snaps, moves := 0, 0
	for i := 0; i < scans; i++ {
		if rng.IntN(40) == 0 {
			moves++
			r, z := racks[rng.IntN(4)], rack.Zones[rng.IntN(2)]
			c, _ := w.table.Contents(r, z)
			if fs := c.Faces(); len(fs) > 0 && rng.IntN(2) == 0 {
				must(t, w.table.Take(r, z, fs[rng.IntN(len(fs))]))
			} else {
				if err := w.table.Put(r, z, tile.Face(rng.IntN(tile.NumFaces))); err != nil && !errors.Is(err, simtable.ErrNoTile) {
					t.Fatal(err) // all of a face on the racks is fine
				}
			}
		}
		if rng.IntN(500) == 0 {
			must(t, w.table.SetHand(racks[rng.IntN(4)], true))
		}
		if rng.IntN(100) == 0 {
			for _, r := range racks {
				must(t, w.table.SetHand(r, false))
			}
		}
		snaps += len(w.step(1))
	}
	t.Logf("FIGURE emulated table, noise %+v and a hand now and then: 0 false of %d snapshots (each checked) over %d scans; %d moves; faults seen: %d bus_error, %d unenrolled_tag, %d weight_mismatch, %d silent_reader",
		noise, snaps, scans, moves, w.faults(rack.BusError), w.faults(rack.Unenrolled), w.faults(rack.WeightMismatch), w.faults(rack.Silent))
	if snaps < moves/2 {
		t.Fatalf("%d snapshots for %d moves: the noise keeps the racks from settling", snaps, moves)
	}
	w.noViolations()
}

// TestWeakReader: one reader made weak (SetWeak) is the one the health report names failing, at
// about its read rate, and the rest of its zone is not; given back the table's noise, it reads again.
func TestWeakReader(t *testing.T) {
	w := newWorld(t, load(t, "sim-pn532.yaml"), simtable.Options{Seed: 8})
	must(t, w.table.Put("p2b", rack.In, faces(t, hand)...)) // 1B lands in in-00, 2B in in-01
	must(t, w.table.SetWeak("p2b", "in-00", 0.45))
	w.step(400)
	readers := func() map[string]rack.ReaderHealth {
		out := map[string]rack.ReaderHealth{}
		for _, h := range w.mon.Health() {
			if h.Rack == "p2b" && h.Zone == rack.In {
				for _, r := range h.Readers {
					out[r.Reader] = r
				}
			}
		}
		return out
	}
	rs := readers()
	weak, fine := rs["in-00@mux73.0"], rs["in-01@mux73.1"]
	if !weak.Failing || weak.Down || weak.ReadRate < 0.45 || weak.ReadRate > 0.65 || weak.Tags != 1 {
		t.Fatalf("the weak reader: %+v", weak)
	}
	if fine.Failing || fine.ReadRate < 0.9 || fine.Tags != 1 {
		t.Fatalf("its neighbour: %+v", fine)
	}
	must(t, w.table.SetWeak("p2b", "in-00", 0))
	w.step(2000)
	if r := readers()["in-00@mux73.0"]; r.Failing {
		t.Fatalf("given back the table's noise: %+v", r)
	}
	if err := w.table.SetWeak("p2b", "in-00", 1); err == nil {
		t.Fatal("a dropout of 1 taken")
	}
	w.noViolations()
}
