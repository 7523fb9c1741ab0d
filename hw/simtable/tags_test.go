package simtable_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/siamesetable/siamesed/hw/rack"
	"github.com/siamesetable/siamesed/hw/simtable"
)

// TestLiveRacksNameEachReadersTags: a tile set on one reader's antenna (PutTag, the enrolment
// walk's hook) is listed under that reader, and under no other, in the monitor's live view and
// by TagsAt, read through the real drivers on the emulated chips; the zone's load cell weighs
// it; lifted (TakeTag), it is gone from both. A reader that is not there is an error.
func TestLiveRacksNameEachReadersTags(t *testing.T) {
	w := newWorld(t, load(t, "sim-pn532.yaml"), simtable.Options{Seed: 3})
	bams := w.table.Tags(faces(t, "5B")[0])
	if len(bams) != 4 || slices.Compact(slices.Clone(bams))[3] != bams[3] {
		t.Fatalf("the set's 5B tags: %v", bams)
	}
	const reader = "in-03@mux70.3"
	in := rack.Key{Rack: "p1a", Zone: rack.In}
	must(t, w.table.PutTag("p1a", reader, bams[2]))
	if err := w.table.PutTag("p1b", reader, bams[2]); err == nil {
		t.Fatal("a tile on a rack already was put on another")
	}
	w.settle()
	zone := liveZone(t, w.mon.Live(), in)
	for _, r := range zone.Readers {
		want := []string{}
		if r.Reader == reader {
			want = []string{bams[2]}
		}
		if !slices.Equal(r.UIDs, want) {
			t.Errorf("reader %s lists %v, want %v", r.Reader, r.UIDs, want)
		}
	}
	if zone.Weight == nil || zone.Weight.Tiles != 1 || math.Abs(zone.Weight.Grams-14) > 1.5 || !zone.Weight.Sure {
		t.Errorf("p1a/in weighs %+v, want one tile of about 14 g", zone.Weight)
	}
	if got, err := w.mon.TagsAt(in, reader); err != nil || !slices.Equal(got, []string{bams[2]}) {
		t.Errorf("TagsAt: %v, %v", got, err)
	}
	must(t, w.table.TakeTag(bams[2]))
	w.settle()
	if got, err := w.mon.TagsAt(in, reader); err != nil || len(got) != 0 {
		t.Errorf("TagsAt after the tile was lifted: %v, %v", got, err)
	}
	if zone := liveZone(t, w.mon.Live(), in); zone.Weight.Tiles != 0 {
		t.Errorf("p1a/in weighs %+v with nothing on it", zone.Weight)
	}
	if _, err := w.mon.TagsAt(in, "in-99"); !errors.Is(err, rack.ErrNoReader) {
		t.Errorf("an unknown reader: %v", err)
	}
	if err := w.table.PutTag("p1a", "in-99", bams[0]); !errors.Is(err, simtable.ErrNoSlot) {
		t.Errorf("PutTag on an unknown reader: %v", err)
	}
	if err := w.table.TakeTag(bams[0]); !errors.Is(err, simtable.ErrNotThere) {
		t.Errorf("TakeTag of a tile on no rack: %v", err)
	}
	w.noViolations()
}

func liveZone(t *testing.T, zs []rack.LiveZone, k rack.Key) rack.LiveZone {
	t.Helper()
	for _, z := range zs {
		if z.Rack == k.Rack && z.Zone == k.Zone {
			return z
		}
	}
	t.Fatalf("%s is not in the live view", k)
	return rack.LiveZone{}
}
