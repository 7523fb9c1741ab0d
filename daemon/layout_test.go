package daemon

import (
	"testing"
	"time"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/engine/track"
	"github.com/siamesetable/siamesed/hw/rack"
)

// TestLayoutReadingKeepsWhatMovedWhen: a snapshot's dates for the tiles that left and came, and
// how sure it is, reach the tracker with the seat and rack it is read at.
func TestLayoutReadingKeepsWhatMovedWhen(t *testing.T) {
	l := layout{where: map[string][2]int{"p2b": {1, 2}}}
	t0 := time.Unix(1_800_000_000, 0)
	b5, _ := tile.Parse("5B")
	c9, _ := tile.Parse("9C")
	s := rack.Snapshot{Rack: "p2b", Zone: rack.In, Tiles: []tile.Face{c9}, Count: 1, TagCount: 1, WeightCount: 1, Quality: rack.OK, At: t0.Add(time.Second),
		Left: []rack.Dated{{Face: b5, At: t0}}, Came: []rack.Dated{{Face: c9, At: t0.Add(100 * time.Millisecond)}}, Confidence: 0.995, Sure: true}
	r, ok := l.reading(s)
	if !ok || r.Place != (track.Place{Seat: 1, Rack: 2, Zone: track.In}) {
		t.Fatalf("read at %+v (%v), want seat 1 rack 2", r.Place, ok)
	}
	if len(r.Left) != 1 || r.Left[0] != (track.Moved{Face: b5, At: t0}) || len(r.Came) != 1 || r.Came[0] != (track.Moved{Face: c9, At: t0.Add(100 * time.Millisecond)}) {
		t.Fatalf("left %v came %v", r.Left, r.Came)
	}
	if r.Confidence != 0.995 || !r.Sure {
		t.Fatalf("confidence %v sure %v, want the snapshot's", r.Confidence, r.Sure)
	}
}
