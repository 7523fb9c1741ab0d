package rack

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/engine/tile"
)

// fuzzScan turns one byte into a scan of a zone of three readers, each with its own tile (5B,
// 6B, 7B): bits 0-2, whether each reader reads its tile; bit 3, a phone answers reader 0; bits
// 4-5, the load cell's reading: the tiles read, unsure, one more (a spike) or failed; bit 6,
// reader 1 fails; bit 7, reader 2 is silent.
func fuzzScan(b byte) Observation {
	o := Observation{Rack: "r", Zone: In, Tagged: true, HasCell: true}
	faces := []tile.Face{tile.Bam5, tile.Bam6, tile.Bam7}
	for i := range 3 {
		r := ReaderRead{Name: "in-" + strconv.Itoa(i)}
		switch {
		case i == 1 && b&0x40 != 0:
			r.Fault = BusError
		case i == 2 && b&0x80 != 0:
			r.Fault = Silent
		case b&(1<<i) != 0:
			o.Tags = append(o.Tags, TagRead{UID: faces[i].String(), Face: faces[i], Reader: i})
			o.Tiles[faces[i]]++
		}
		if i == 0 && b&0x08 != 0 {
			o.Tags = append(o.Tags, TagRead{UID: "x1", Face: tile.NoFace, Reader: 0})
		}
		o.Readers = append(o.Readers, r)
	}
	n := bits.OnesCount8(b & 7)
	switch b >> 4 & 3 {
	case 0:
		o.Weighed, o.WeightSure, o.WeightTiles = true, true, n
	case 1:
		o.Weighed = true
	case 2:
		o.Weighed, o.WeightSure, o.WeightTiles = true, true, n+1
	}
	return o
}

// FuzzPresence plays any sequence of scans and holds every snapshot to what can be said of it
// whatever the scans: only faces read are named, each at most once; the count is the load
// cell's when it is weighed; confidence is a chance; Since is not after At; Seq counts up; no
// snapshot repeats the last.
func FuzzPresence(f *testing.F) {
	f.Add([]byte{7, 7, 7, 7, 7, 7, 7, 7, 3, 3, 3, 3, 3, 3, 3, 3, 3})
	f.Add([]byte{0x47, 0x47, 0x47, 0x47, 0x47, 0x07, 0x07, 0x07, 0x07, 0x07, 0x07, 0x07, 0x07})
	f.Add([]byte{0x0f, 0x0f, 0x0f, 0x0f, 0x1f, 0x2f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x00, 0x00})
	f.Fuzz(func(t *testing.T, data []byte) {
		z := NewPresence(Params{})
		now := s0
		var last *Snapshot
		for i, b := range data {
			o := fuzzScan(b)
			snap, ok := z.Observe(&o, now)
			now = now.Add(50 * time.Millisecond)
			if !ok {
				continue
			}
			if snap.TagCount > 3 || len(snap.Tiles) != snap.TagCount || !slices.IsSorted(snap.Tiles) {
				t.Fatalf("scan %d: %v", i, snap)
			}
			for j, f := range snap.Tiles {
				if f < tile.Bam5 || f > tile.Bam7 || j > 0 && snap.Tiles[j-1] == f {
					t.Fatalf("scan %d: %v names what was never read", i, snap)
				}
			}
			if snap.WeightCount >= 0 && snap.Count != snap.WeightCount || snap.Confidence < 0 || snap.Confidence > 1 ||
				snap.Since.After(snap.At) || last != nil && snap.Seq != last.Seq+1 {
				t.Fatalf("scan %d: %+v after %+v", i, snap, last)
			}
			for _, c := range snap.Came {
				if !slices.Contains(snap.Tiles, c.Face) || c.At.After(snap.At) {
					t.Fatalf("scan %d: %v lists %v come", i, snap, c)
				}
			}
			if last != nil && slices.Equal(last.Tiles, snap.Tiles) && last.Count == snap.Count && len(last.Faults) == len(snap.Faults) &&
				last.Quality == snap.Quality {
				t.Fatalf("scan %d: %v repeats %v", i, snap, last)
			}
			last = &snap
		}
	})
}

// BenchmarkPresence is the per-scan cost of judging one zone: fifteen readers, fourteen tiles,
// each tag missed 2% of polls, the load cell sure.
func BenchmarkPresence(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	scans := make([]Observation, 256)
	for i := range scans {
		o := Observation{Rack: "r", Zone: In, Tagged: true, HasCell: true, Weighed: true, WeightSure: true, WeightTiles: 14}
		for r := range 15 {
			o.Readers = append(o.Readers, ReaderRead{Name: "in-" + strconv.Itoa(r)})
			if r < 14 && rng.Float64() >= 0.02 {
				f := tile.Face(r)
				o.Tags = append(o.Tags, TagRead{UID: "04:00:00:" + strconv.Itoa(r), Face: f, Reader: r})
				o.Tiles[f]++
			}
		}
		scans[i] = o
	}
	z := NewPresence(Params{})
	now := s0
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		z.Observe(&scans[i%len(scans)], now)
		now = now.Add(50 * time.Millisecond)
		i++
	}
}
