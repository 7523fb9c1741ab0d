package track

import (
	"testing"
	"time"
)

// TestArrivalsDatedByTheFirstSighting: a reading dates each tile newly in its zone by the first
// scan that showed it come where there was one (Came), else by when the zone began to read so
// (Since), never by when the reading settled (At); a tile of a face the zone held as many of
// before is dated only where a scan showed it come (one thrown, another of its face picked).
func TestArrivalsDatedByTheFirstSighting(t *testing.T) {
	_, tr := siameseTable(t)
	p := Place{Seat: 1, Rack: 2, Zone: In}
	old := tr.readings[p]
	dealt := tr.arrivalRead(p, face("S"))
	at := old.At.Add(10 * time.Second)
	r := old
	r.Tiles[face("9C")]++
	r.Tiles[face("7B")]++
	r.At, r.Since = at, at.Add(-time.Second)
	r.Came = []Moved{{Face: face("7B"), At: at.Add(-2 * time.Second)}, {Face: face("E"), At: at.Add(-3 * time.Second)}}
	tr.noteArrivals(old, r)
	for _, c := range []struct {
		f    string
		want time.Time
	}{
		{"9C", r.Since},                  // no scan showed it come: when the zone began to read so
		{"7B", at.Add(-2 * time.Second)}, // the scan that showed it come, earlier than Since
		{"E", at.Add(-3 * time.Second)},  // as many E as before, one of them new
		{"S", dealt},                     // as many S as before, none new: as dealt
	} {
		if got := tr.arrivalRead(p, face(c.f)); !got.Equal(c.want) {
			t.Errorf("%s arrived %v, want %v", c.f, got, c.want)
		}
	}
	if dealt.IsZero() {
		t.Fatal("the dealt S was never dated")
	}
}
