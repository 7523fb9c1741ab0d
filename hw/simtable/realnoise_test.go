package simtable_test

import (
	"context"
	"testing"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/hw/rack"
	"github.com/siamesetable/siamesed/hw/simtable"
)

// reads scans the table's direct sources n times and counts, per reader of p1a's in zone, the
// polls it answered with its tile read, and the longest run of polls two adjacent readers both
// missed their tiles.
func reads(t *testing.T, tb *simtable.Table, n int) (got map[string]int, polls int, together int) {
	t.Helper()
	src := tb.Sources()[0]
	got = map[string]int{}
	run := map[int]int{}
	for range n {
		in := src.Scan(context.Background())[0]
		hit := map[int]bool{}
		for _, tg := range in.Tags {
			if tg.Face != tile.NoFace {
				got[in.Readers[tg.Reader].Name]++
				hit[tg.Reader] = true
			}
		}
		for i := 0; i+1 < 14; i++ {
			if !hit[i] && !hit[i+1] {
				run[i]++
				together = max(together, run[i])
			} else {
				run[i] = 0
			}
		}
	}
	return got, n, together
}

func noisyTable(t *testing.T, seed uint64, n simtable.Noise) *simtable.Table {
	t.Helper()
	tb, err := simtable.New(load(t, "sim-pn532.yaml"), simtable.Options{Seed: seed})
	must(t, err)
	must(t, tb.SetNoise(n))
	must(t, tb.Put("p1a", rack.In, faces(t, hand)...)) // 14 tiles, one a reader
	return tb
}

// TestWeakReaders: a share of the readers, drawn once per table from its seed, lose their
// tags' reads at WeakDropout; the rest at TagDropout.
func TestWeakReaders(t *testing.T) {
	n := simtable.Noise{TagDropout: 0.01, WeakReaders: 0.3, WeakDropout: 0.4}
	got, polls, _ := reads(t, noisyTable(t, 3, n), 2000)
	weak := 0
	for r, k := range got {
		rate := float64(k) / float64(polls)
		switch {
		case rate > 0.55 && rate < 0.65:
			weak++
		case rate < 0.97:
			t.Errorf("%s reads %.2f: neither weak (0.6) nor strong (0.99)", r, rate)
		}
	}
	if weak < 2 || weak > 8 {
		t.Errorf("%d of 14 readers weak, want about 4", weak)
	}
	again, _, _ := reads(t, noisyTable(t, 3, n), 2000)
	for r := range got {
		if (got[r] < polls*8/10) != (again[r] < polls*8/10) {
			t.Errorf("%s weak on one table of seed 3, not on the other", r)
		}
	}
}

// TestHandBursts: a hand over the rack hides the tiles of two to four adjacent readers for
// BurstLength (20 polls of 50 ms); without it, two adjacent readers miss together for a poll
// or two at most.
func TestHandBursts(t *testing.T) {
	_, _, calm := reads(t, noisyTable(t, 4, simtable.Noise{TagDropout: 0.05}), 2000)
	_, _, burst := reads(t, noisyTable(t, 4, simtable.Noise{TagDropout: 0.05, HandBurst: 0.01}), 2000)
	if calm > 3 || burst < 19 || burst > 40 {
		t.Errorf("longest run of two adjacent readers missing together: %d polls without hands, %d with, want under 4 and about 20", calm, burst)
	}
}

// TestOffCentre: a tile set down off its antenna answers half the polls until it is lifted.
func TestOffCentre(t *testing.T) {
	tb := noisyTable(t, 5, simtable.Noise{OffCentre: 1})
	got, polls, _ := reads(t, tb, 2000)
	for r, k := range got {
		if rate := float64(k) / float64(polls); rate < 0.45 || rate > 0.55 {
			t.Errorf("%s reads %.2f of its off-centre tile's polls, want 0.5", r, rate)
		}
	}
	must(t, tb.SetNoise(simtable.Noise{}))
	must(t, tb.Take("p1a", rack.In, faces(t, hand)...))
	must(t, tb.Put("p1a", rack.In, faces(t, hand)...)) // the same tiles set down again, centred
	got, polls, _ = reads(t, tb, 200)
	for r, k := range got {
		if k != polls {
			t.Errorf("%s reads %d of %d polls of a centred tile", r, k, polls)
		}
	}
}
