package simtable_test

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/hw/rack"
	"github.com/siamesetable/siamesed/hw/simtable"
)

// TestRealDriversReadWhatIsPlaced deals four racks of the reference layout and lays exposures,
// then checks the settled snapshots the real PN532, PCA9548 and HX711 drivers produce: an "in"
// zone is read in full, an "on" position shows at most two tags while the load cell counts
// every tile.
func TestRealDriversReadWhatIsPlaced(t *testing.T) {
	w := newWorld(t, load(t, "sim-pn532.yaml"), simtable.Options{Seed: 1})
	hands := map[string]string{
		"p1a": "1B 2B 3B 4B 5B 6B 7B 8B 9B E E RD J 2C",
		"p1b": "1C 1C 1C 2D 3D 4D N N F F F F WD",
		"p2a": "5D 5D 6D 7D 8D 9D GD GD W W S S J",
		"p2b": "9C 9C 9C 9C 8C 8C 7C 7C 3C 3C 1D 1D 1D",
	}
	for r, h := range hands {
		must(t, w.table.Put(r, rack.In, faces(t, h)...))
	}
	must(t, w.table.Put("p1a", rack.On, faces(t, "RD RD RD")...))     // pung: 2 of 3 tags reach
	must(t, w.table.Put("p1a", rack.On, faces(t, "F F")...))          // pair... of flowers: both reach
	must(t, w.table.Put("p2a", rack.On, faces(t, "5C 5C 5C 5C")...))  // kong: 2 of 4
	must(t, w.table.Put("p2b", rack.On, faces(t, "J 6C 6C J 6C")...)) // quint with jokers: 2 of 5
	w.settle()
	for r, h := range hands {
		s := w.snap(r, rack.In)
		want, _ := tile.CountsOf(faces(t, h))
		if s.Quality != rack.OK || s.Counts() != want || s.Count != want.Total() {
			t.Errorf("%s: %v, want the hand %s", r, s, h)
		}
	}
	for _, c := range []struct {
		rack        string
		tags, count int
		quality     rack.Quality
	}{
		{"p1a", 4, 5, rack.Disagree},
		{"p1b", 0, 0, rack.OK},
		{"p2a", 2, 4, rack.Disagree},
		{"p2b", 2, 5, rack.Disagree},
	} {
		s := w.snap(c.rack, rack.On)
		if s.TagCount != c.tags || s.Count != c.count || s.Quality != c.quality {
			t.Errorf("%s on: %v; want %d tags, %d counted, %s", c.rack, s, c.tags, c.count, c.quality)
		}
		if c.quality == rack.Disagree && (len(s.Faults) != 1 || s.Faults[0].Kind != rack.WeightMismatch) {
			t.Errorf("%s on: faults %v, want one weight_mismatch", c.rack, s.Faults)
		}
	}
	w.noViolations()
}

// TestMovesSettleToTheTruth plays 300 random moves across the four racks, letting each settle,
// and checks every snapshot on the way (world.check) and the final state of every zone.
func TestMovesSettleToTheTruth(t *testing.T) {
	w := newWorld(t, load(t, "sim-pn532.yaml"), simtable.Options{Seed: 2})
	rng := rand.New(rand.NewPCG(2, 2))
	racks := w.table.Racks()
	snaps := 0
	for i := 0; i < 300; i++ {
		r := racks[rng.IntN(len(racks))]
		z := rack.Zones[rng.IntN(2)]
		c, _ := w.table.Contents(r, z)
		if c.Total() > 0 && (rng.IntN(2) == 0 || c.Total() > 14) {
			fs := c.Faces()
			must(t, w.table.Take(r, z, fs[rng.IntN(len(fs))]))
		} else {
			n := 1
			if z == rack.On {
				n = 3 + rng.IntN(2)
			}
			f := tile.Face(rng.IntN(tile.NumFaces))
			err := w.table.Put(r, z, repeat(f, n)...)
			if errors.Is(err, simtable.ErrNoTile) {
				continue // all of that face is out
			}
			must(t, err)
		}
		if rng.IntN(3) > 0 { // a third of the moves come before the last one settled
			snaps += len(w.settle())
		}
	}
	w.settle()
	if snaps < 150 {
		t.Fatalf("only %d snapshots settled in 300 moves", snaps)
	}
	for _, r := range racks {
		for _, z := range rack.Zones {
			truth, _ := w.table.Contents(r, z)
			vis, _ := w.table.Visible(r, z)
			s := w.snap(r, z)
			if s.Counts() != vis || s.Count != truth.Total() {
				t.Errorf("%s/%s settled at %v; the truth is %v, the readers reach %v", r, z, s, truth, vis)
			}
		}
	}
	w.noViolations()
}

// TestSpreadMahJongg: a declared hand laid over the four "on" positions shows two tags each.
func TestSpreadMahJongg(t *testing.T) {
	w := newWorld(t, load(t, "sim-pn532.yaml"), simtable.Options{Seed: 3})
	must(t, w.table.Spread("p1b", faces(t, "2B 2B 2B 4C 4C 4C 6D 6D 6D 8B 8B 8B WD WD")...))
	w.settle()
	s := w.snap("p1b", rack.On)
	if s.Count != 14 || s.TagCount != 8 || s.Quality != rack.Disagree {
		t.Fatalf("spread Mah Jongg: %v; want 14 counted, 8 tags (two a position)", s)
	}
	w.noViolations()
}

// TestOnPositionReachesTwoTiles: the antenna under an "on" position reaches the two tiles of an
// exposure lying nearest it and never the others, even when one of those two drops out.
func TestOnPositionReachesTwoTiles(t *testing.T) {
	w := newWorld(t, load(t, "sim-pn532.yaml"), simtable.Options{Seed: 3})
	must(t, w.table.Put("p1a", rack.On, faces(t, "1D 2D 3D 4D")...))
	must(t, w.table.SetNoise(simtable.Noise{TagDropout: 0.3}))
	w.step(200)
	most := w.taps[0].most[rack.On]
	if most[tile.Dot1] != 1 || most[tile.Dot2] != 1 || most[tile.Dot3] != 0 || most[tile.Dot4] != 0 {
		t.Fatalf("the on-00 reader named %v, want only 1D and 2D", most)
	}
	w.noViolations()
}

// TestRepeatable: the same seed and moves, with noise, give the same snapshots.
func TestRepeatable(t *testing.T) {
	run := func() []string {
		w := newWorld(t, load(t, "sim-pn532.yaml"), simtable.Options{Seed: 9})
		must(t, w.table.SetNoise(simtable.Noise{TagDropout: 0.02, BusError: 0.002, GhostTag: 0.01, WeightSpike: 0.05}))
		var out []string
		for i, h := range []string{"1B 2B 3B", "E E E", "J J"} {
			must(t, w.table.Put(w.table.Racks()[i], rack.In, faces(t, h)...))
			for _, s := range w.step(40) {
				out = append(out, s.String()+s.At.String())
			}
		}
		return out
	}
	a, b := run(), run()
	if len(a) == 0 || len(a) != len(b) {
		t.Fatalf("%d and %d snapshots", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("snapshot %d differs:\n%s\n%s", i, a[i], b[i])
		}
	}
}

func repeat(f tile.Face, n int) []tile.Face {
	fs := make([]tile.Face, n)
	for i := range fs {
		fs[i] = f
	}
	return fs
}

// TestPlayersAndMonitorAtOnce: players move tiles while the monitor scans (run with -race).
func TestPlayersAndMonitorAtOnce(t *testing.T) {
	w := newWorld(t, load(t, "sim-pn532.yaml"), simtable.Options{Seed: 10})
	done := make(chan error)
	fs := faces(t, hand)
	go func() {
		for i := 0; i < 200; i++ {
			r := w.table.Racks()[i%4]
			if err := w.table.Put(r, rack.In, fs[i%len(fs)]); err != nil && !errors.Is(err, simtable.ErrNoTile) {
				done <- err
				return
			}
			if err := w.table.Take(r, rack.In, fs[i%len(fs)]); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	for running := true; running; {
		select {
		case err := <-done:
			must(t, err)
			running = false
		default:
			w.step(1)
		}
	}
	w.settle()
	w.noViolations()
}
