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
