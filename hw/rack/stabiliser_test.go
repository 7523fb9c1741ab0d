package rack

import (
	"testing"
	"time"

	"github.com/siamesetable/siamesed/engine/tile"
)

func TestStabiliserCases(t *testing.T) {
	t0 := time.Unix(1_800_000_000, 0)
	obs := func(n uint8, weight int, sure bool) *Observation {
		o := &Observation{Rack: "r", Zone: In, Tagged: true, HasCell: true, Weighed: true, WeightTiles: weight, WeightSure: sure}
		o.Tiles[tile.Joker] = n
		return o
	}
	type read struct {
		at time.Duration
		o  *Observation
	}
	for _, tc := range []struct {
		name  string
		reads []read
		emits []time.Duration
	}{
		{"one reading never settles", []read{{0, obs(1, 1, true)}}, nil},
		{"two readings spanning the window", []read{{0, obs(1, 1, true)}, {300 * time.Millisecond, obs(1, 1, true)}}, []time.Duration{300 * time.Millisecond}},
		{"two readings inside the window", []read{{0, obs(1, 1, true)}, {299 * time.Millisecond, obs(1, 1, true)}}, nil},
		{"flapping tag", []read{{0, obs(1, 1, true)}, {100 * time.Millisecond, obs(0, 1, true)}, {200 * time.Millisecond, obs(1, 1, true)},
			{300 * time.Millisecond, obs(0, 1, true)}, {400 * time.Millisecond, obs(1, 1, true)}, {500 * time.Millisecond, obs(0, 1, true)}}, nil},
		{"unsure weight resets", []read{{0, obs(1, 1, true)}, {200 * time.Millisecond, obs(1, 1, false)}, {300 * time.Millisecond, obs(1, 1, true)},
			{500 * time.Millisecond, obs(1, 1, true)}, {600 * time.Millisecond, obs(1, 1, true)}}, []time.Duration{600 * time.Millisecond}},
		{"same state twice is one snapshot", []read{{0, obs(2, 2, true)}, {300 * time.Millisecond, obs(2, 2, true)}, {600 * time.Millisecond, obs(2, 2, true)},
			{900 * time.Millisecond, obs(2, 2, true)}}, []time.Duration{300 * time.Millisecond}},
		{"back to an earlier state is a new snapshot", []read{{0, obs(2, 2, true)}, {300 * time.Millisecond, obs(2, 2, true)},
			{400 * time.Millisecond, obs(1, 1, true)}, {700 * time.Millisecond, obs(1, 1, true)},
			{800 * time.Millisecond, obs(2, 2, true)}, {1100 * time.Millisecond, obs(2, 2, true)}},
			[]time.Duration{300 * time.Millisecond, 700 * time.Millisecond, 1100 * time.Millisecond}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewStabiliser(0)
			var got []time.Duration
			for _, r := range tc.reads {
				if snap, ok := s.Observe(r.o, t0.Add(r.at)); ok {
					got = append(got, snap.At.Sub(t0))
					if snap.Seq != uint64(len(got)) {
						t.Errorf("seq %d, want %d", snap.Seq, len(got))
					}
				}
			}
			if len(got) != len(tc.emits) {
				t.Fatalf("emitted at %v, want %v", got, tc.emits)
			}
			for i := range got {
				if got[i] != tc.emits[i] {
					t.Fatalf("emitted at %v, want %v", got, tc.emits)
				}
			}
		})
	}
}

func TestStabiliserMoving(t *testing.T) {
	s := NewStabiliser(100 * time.Millisecond)
	t0 := time.Unix(0, 0)
	one := &Observation{Rack: "r", Zone: In, Tagged: true}
	one.Tiles[3] = 1
	if !s.Moving() {
		t.Fatal("a zone never settled is not moving")
	}
	for i := 0; i < 4; i++ {
		s.Observe(one, t0.Add(time.Duration(i)*50*time.Millisecond))
	}
	if s.Moving() {
		t.Fatal("settled zone reported moving")
	}
	two := *one
	two.Tiles[4] = 1
	s.Observe(&two, t0.Add(time.Second))
	if !s.Moving() {
		t.Fatal("a changed reading is not reported moving")
	}
	s.Observe(one, t0.Add(time.Second+50*time.Millisecond))
	if s.Moving() {
		t.Fatal("back to the settled reading, still moving")
	}
}

// TestStabiliserDatesWhatLeftAndCame: a hand takes a tile from the zone and, a poll later, puts
// another in, before the zone settles: the snapshot dates the tile gone by the first reading
// without it and the new one by the first reading with it, so a tracker can tell a throw then a
// pick from a pick then a throw. A reading where a tag went unread (the load cell disagrees)
// dates nothing; nor does a first snapshot, which has nothing to compare with.
func TestStabiliserDatesWhatLeftAndCame(t *testing.T) {
	t0 := time.Unix(1_800_000_000, 0)
	obs := func(tiles string, weight int) *Observation {
		o := &Observation{Rack: "r", Zone: In, Tagged: true, HasCell: true, Weighed: true, WeightTiles: weight, WeightSure: true}
		fs, err := tile.ParseList(tiles)
		if err != nil {
			t.Fatal(err)
		}
		o.Tiles, _ = tile.CountsOf(fs)
		if weight != o.Tiles.Total() {
			o.Faults = []Fault{{Kind: WeightMismatch, Reader: "loadcell-in"}}
		}
		return o
	}
	ms := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }
	s := NewStabiliser(0)
	var snaps []Snapshot
	for _, r := range []struct {
		at int
		o  *Observation
	}{
		{0, obs("1B 5B", 2)}, {300, obs("1B 5B", 2)}, // the first snapshot
		{400, obs("1B", 2)},     // 5B's tag unread: the load cell still weighs two tiles
		{500, obs("1B", 1)},     // 5B thrown
		{600, obs("1B 9C", 2)},  // 9C picked
		{900, obs("1B 9C", 2)},  // settled
		{1000, obs("9C", 2)},    // 1B's tag unread
		{1300, obs("9C", 2)},    // settles with the fault: nothing consistent dates it
		{1400, obs("1B 9C", 2)}, // read again
		{1700, obs("1B 9C", 2)}, // (dated from the faulty snapshot: the tracker does not read that one)
	} {
		if snap, ok := s.Observe(r.o, ms(r.at)); ok {
			snaps = append(snaps, snap)
		}
	}
	if len(snaps) != 4 {
		t.Fatalf("%d snapshots, want 4", len(snaps))
	}
	if snaps[0].Left != nil || snaps[0].Came != nil {
		t.Errorf("first snapshot dated %v %v", snaps[0].Left, snaps[0].Came)
	}
	b5, _ := tile.Parse("5B")
	c9, _ := tile.Parse("9C")
	if l, c := snaps[1].Left, snaps[1].Came; len(l) != 1 || l[0].Face != b5 || !l[0].At.Equal(ms(500)) || len(c) != 1 || c[0].Face != c9 || !c[0].At.Equal(ms(600)) {
		t.Errorf("left %v came %v, want 5B at 500 ms and 9C at 600 ms", l, c)
	}
	if snaps[2].Left != nil {
		t.Errorf("an unread tag dated: left %v", snaps[2].Left)
	}
}
