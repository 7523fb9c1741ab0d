package simtable_test

import (
	"errors"
	"testing"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/hw/enroll"
	"github.com/siamesetable/siamesed/hw/rack"
	"github.com/siamesetable/siamesed/hw/simtable"
)

// TestEveryTileHasItsOwnTag: the set's 152 tiles, each with a distinct, well-formed UID
// enrolled as its face; the same seed gives the same tags, another seed others.
func TestEveryTileHasItsOwnTag(t *testing.T) {
	p := load(t, "sim-pn532.yaml")
	a, err := simtable.New(p, simtable.Options{Seed: 1})
	must(t, err)
	b, _ := simtable.New(p, simtable.Options{Seed: 1})
	c, _ := simtable.New(p, simtable.Options{Seed: 2})
	en := a.Enrolment()
	var got tile.Counts
	for uid, f := range en {
		if u, err := enroll.NormalUID(uid); err != nil || u != uid {
			t.Fatalf("UID %q: %v", uid, err)
		}
		if b.Enrolment()[uid] != f {
			t.Fatalf("seed 1 twice: %s is %s and %s", uid, f, b.Enrolment()[uid])
		}
		if _, ok := c.Enrolment()[uid]; ok {
			t.Fatalf("seeds 1 and 2 share tag %s", uid)
		}
		got[f]++
	}
	if want := tile.American().Count; got != want {
		t.Fatalf("enrolled %v, the set is %v", got, want)
	}
	r4, _ := simtable.New(p, simtable.Options{Set: tile.Royale4()})
	if n := len(r4.Enrolment()); n != 304 {
		t.Fatalf("royale set: %d tags", n)
	}
}

func TestPutTakeExchange(t *testing.T) {
	tb, err := simtable.New(load(t, "sim-pn532.yaml"), simtable.Options{Seed: 1})
	must(t, err)
	counts := func(r string, z rack.Zone) string {
		c, err := tb.Contents(r, z)
		must(t, err)
		return c.String()
	}
	must(t, tb.Put("p1a", rack.In, faces(t, "1B 1B 1B 1B")...))
	if err := tb.Put("p2a", rack.In, tile.Bam1); !errors.Is(err, simtable.ErrNoTile) {
		t.Fatalf("a fifth 1B: %v", err)
	}
	// All or nothing: 2B is there, 3B is not.
	if err := tb.Take("p1a", rack.In, tile.Bam1, tile.Bam2); !errors.Is(err, simtable.ErrNotThere) || counts("p1a", rack.In) != "1B 1B 1B 1B" {
		t.Fatalf("partial take: %v, left %s", err, counts("p1a", rack.In))
	}
	must(t, tb.Take("p1a", rack.In, tile.Bam1))
	must(t, tb.Put("p2a", rack.In, tile.Bam1)) // the tile taken is free again
	must(t, tb.Put("p1b", rack.On, faces(t, "J 5D 5D")...))
	must(t, tb.Exchange("p1b", rack.On, tile.Joker, tile.Dot5))
	if s := counts("p1b", rack.On); s != "5D 5D 5D" {
		t.Fatalf("after the joker exchange: %s", s)
	}
	must(t, tb.Put("p2b", rack.In, tile.Joker)) // the joker came off the rack
	if err := tb.Exchange("p1b", rack.On, tile.Joker, tile.Dot5); !errors.Is(err, simtable.ErrNotThere) {
		t.Fatalf("exchange of a joker that is not there: %v", err)
	}
	for _, err := range []error{
		tb.Put("p9z", rack.In, tile.Bam2),
		tb.Take("p9z", rack.In, tile.Bam2),
		tb.SetHand("p9z", true),
	} {
		if !errors.Is(err, simtable.ErrNoRack) {
			t.Errorf("unknown rack: %v", err)
		}
	}
	if err := tb.SetSilent("p1a", "in-99", true); !errors.Is(err, simtable.ErrNoSlot) {
		t.Errorf("unknown reader: %v", err)
	}
	if err := tb.SetNoise(simtable.Noise{TagDropout: 1.5}); err == nil {
		t.Error("a probability of 1.5")
	}
	tb.Clear()
	for _, r := range tb.Racks() {
		for _, z := range rack.Zones {
			if s := counts(r, z); s != "" {
				t.Fatalf("%s/%s after Clear: %s", r, z, s)
			}
		}
	}
	must(t, tb.Put("p1a", rack.In, faces(t, "1B 1B 1B 1B")...))
}

// TestWhatTheReadersReach: an "in" slot takes one tile while there are free slots, then a
// second, and its reader reaches both; an "on" position's reader reaches the two tiles of an
// exposure lying nearest it.
func TestWhatTheReadersReach(t *testing.T) {
	tb, err := simtable.New(load(t, "sim-pn532.yaml"), simtable.Options{Seed: 1})
	must(t, err)
	var many []tile.Face
	for f := tile.Face(0); len(many) < 20; f++ {
		many = append(many, f)
	}
	must(t, tb.Put("p1a", rack.In, many...)) // 15 slots: five hold two
	vis, _ := tb.Visible("p1a", rack.In)
	if vis.Total() != 20 {
		t.Fatalf("in zone: the readers reach %d of 20", vis.Total())
	}
	must(t, tb.Put("p1a", rack.On, faces(t, "N N N N")...))
	must(t, tb.Put("p1a", rack.On, faces(t, "GD GD GD")...))
	vis, _ = tb.Visible("p1a", rack.On)
	if vis.String() != "N N GD GD" {
		t.Fatalf("on zone: the readers reach %s", vis)
	}
	must(t, tb.Spread("p1b", faces(t, "1C 2C 3C 4C 5C 6C 7C 8C 9C")...))
	vis, _ = tb.Visible("p1b", rack.On)
	if vis.Total() != 8 {
		t.Fatalf("spread of 9: the readers reach %d", vis.Total())
	}
}
