package simcam

import (
	"errors"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/vision/classify"
	"github.com/siamesetable/siamesed/vision/discard"
	"github.com/siamesetable/siamesed/vision/synth"
)

var t0 = time.Date(2026, 11, 23, 19, 0, 0, 0, time.UTC)

func newTable(t testing.TB, o Options) *Table {
	t.Helper()
	art, err := synth.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { art.Close() })
	cls, err := classify.NewNet("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cls.Close() })
	tb, err := New(art, cls, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tb.Close() })
	return tb
}

// one is the single event a move must give.
func one(t *testing.T, what string, evs []discard.Event, err error, kind discard.Kind, f tile.Face, at time.Time) discard.Event {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if len(evs) != 1 || evs[0].Kind != kind || evs[0].Face != f || !evs[0].At.Equal(at) {
		t.Fatalf("%s: events %+v, want one %s of %v at %v", what, evs, kind, f, at.Format("15:04:05.000"))
	}
	return evs[0]
}

// Hands lay tiles and take them away; the real pipeline names each, at the time the view
// settled: the hand's frame, one moving frame and three still ones after the move.
func TestMovesAreSeenThroughTheRealPipeline(t *testing.T) {
	tb := newTable(t, Options{Seed: 1, Tiles: 40})
	settle := 4 * (time.Second / 15)
	faces := []tile.Face{tile.Dot5, tile.Joker, tile.Flower, tile.White, tile.Crak7, tile.Bam1, tile.North, tile.Green, tile.Joker, tile.Dot6}
	for i, f := range faces {
		at := t0.Add(time.Duration(i) * time.Second)
		evs, err := tb.Put(f, at)
		if e := one(t, "put "+f.String(), evs, err, discard.DiscardSeen, f, at.Add(settle)); !e.Known {
			t.Errorf("put %v: not known (%v, confidence %.3f)", f, e.Why, e.Confidence)
		}
	}
	at := t0.Add(time.Minute)
	evs, err := tb.Take(tile.Joker, at) // the joker laid last
	one(t, "take J", evs, err, discard.DiscardTaken, tile.Joker, at.Add(settle))
	if n := len(tb.Lying()); n != len(faces)-1 || tb.Lying()[1].Face != tile.Joker {
		t.Errorf("lying %v, want every tile but the last joker", tb.Lying())
	}
	if _, err := tb.Take(tile.Dot9, at); !errors.Is(err, ErrNotLying) {
		t.Errorf("took a 9D that does not lie there: %v", err)
	}
	evs, err = tb.Clear(at.Add(time.Second))
	if err != nil || len(evs) != len(faces)-1 {
		t.Fatalf("clear: %d events (%v), want %d taken", len(evs), err, len(faces)-1)
	}
	for _, e := range evs {
		if e.Kind != discard.DiscardTaken {
			t.Errorf("clear: %+v", e)
		}
	}
	if evs, err := tb.Lay([]tile.Face{tile.Bam2, tile.Bam3}, at); err != nil || len(evs) != 2 || len(tb.Lying()) != 2 {
		t.Errorf("lay: %+v, %v", evs, err)
	}
	for len(tb.Lying()) < tb.Capacity() {
		if _, err := tb.Put(tile.Bam4, at); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := tb.Put(tile.Bam4, at); !errors.Is(err, ErrFull) {
		t.Errorf("a tile laid in a full area: %v", err)
	}
}

// A tile that catches the light is seen, but the classifier cannot name it: the tracker asks.
func TestGlareIsSeenButNotNamed(t *testing.T) {
	tb := newTable(t, Options{Seed: 2, Tiles: 40, Glare: 1})
	for i, f := range []tile.Face{tile.Dot5, tile.Joker, tile.Crak1, tile.East} {
		at := t0.Add(time.Duration(i) * time.Second)
		evs, err := tb.Put(f, at)
		if e := one(t, "put "+f.String(), evs, err, discard.DiscardSeen, evs0(evs).Face, evs0(evs).At); e.Known {
			t.Errorf("put %v under glare: named %v with confidence %.3f", f, e.Face, e.Confidence)
		}
	}
}

func evs0(evs []discard.Event) discard.Event {
	if len(evs) == 0 {
		return discard.Event{}
	}
	return evs[0]
}

// BenchmarkPut is one discard through the real pipeline on an area holding a whole set: the
// hand's frame, then frames until the view settles, each rendered, warped, gated, and the last
// one extracted and classified. Tiles accumulate up to 98 (a wall game's discards), then the
// area is cleared.
func BenchmarkPut(b *testing.B) {
	tb := newTable(b, Options{Seed: 3})
	frames := 0 // of the puts
	at := t0
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if len(tb.Lying()) == 98 {
			b.StopTimer()
			if _, err := tb.Clear(at); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		before := tb.Frames
		if _, err := tb.Put(tile.Face(i%tile.NumFaces), at); err != nil {
			b.Fatal(err)
		}
		frames += tb.Frames - before
	}
	b.ReportMetric(float64(frames)/float64(b.N), "frames/event")
	b.ReportMetric(float64(frames)/b.Elapsed().Seconds(), "frames/s")
}
