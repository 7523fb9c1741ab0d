package rack

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/engine/tile"
)

// script plays scans of one zone into a Presence, a period apart. A scan is written as each
// reader's poll, separated by "|": the UIDs it read ("5B 5B' J"; a UID is its tile's face, primes
// tell tiles of one face apart, and one starting with x is not enrolled), "!" for a bus error,
// "?" for a silent reader; then, with a load cell, "w3" (a sure count of 3), "w?" (unsure) or
// "w!" (the cell failed). "2B | | J w2" is three readers and a load cell.
type script struct {
	t      testing.TB
	z      *Presence
	now    time.Time
	period time.Duration
	snaps  []Snapshot
}

var s0 = time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)

func newScript(t testing.TB, p Params) *script {
	return &script{t: t, z: NewPresence(p), now: s0, period: 50 * time.Millisecond}
}

// parseScan turns one scan's text into an observation.
func parseScan(line string) (Observation, error) {
	o := Observation{Rack: "r", Zone: In}
	parts := strings.Split(line, "|")
	last := strings.Fields(parts[len(parts)-1])
	if n := len(last); n > 0 && strings.HasPrefix(last[n-1], "w") {
		o.HasCell = true
		switch w := last[n-1][1:]; w {
		case "?":
			o.Weighed = true
		case "!":
			o.Faults = append(o.Faults, Fault{"r", In, "loadcell-in", LoadCellError, "timed out"})
		default:
			c, err := strconv.Atoi(w)
			if err != nil || c < 0 {
				return o, err
			}
			o.Weighed, o.WeightSure, o.WeightTiles = true, true, c
		}
		parts[len(parts)-1] = strings.Join(last[:n-1], " ")
	}
	for i, p := range parts {
		o.Tagged = true
		r := ReaderRead{Name: "in-" + strconv.Itoa(i)}
		switch strings.TrimSpace(p) {
		case "!":
			r.Fault, r.Detail = BusError, "i2c: NACK"
		case "?":
			r.Fault, r.Detail = Silent, "not ready"
		default:
			for _, u := range strings.Fields(p) {
				f := tile.NoFace
				if !strings.HasPrefix(u, "x") {
					var err error
					if f, err = tile.Parse(strings.TrimRight(u, "'")); err != nil {
						return o, err
					}
					o.Tiles[f]++
				}
				o.Tags = append(o.Tags, TagRead{UID: u, Face: f, Reader: i})
			}
		}
		o.Readers = append(o.Readers, r)
	}
	return o, nil
}

// scan plays one scan and moves the clock on a period.
func (s *script) scan(line string) (Snapshot, bool) {
	s.t.Helper()
	o, err := parseScan(line)
	if err != nil {
		s.t.Fatalf("scan %q: %v", line, err)
	}
	snap, ok := s.z.Observe(&o, s.now)
	if ok {
		s.snaps = append(s.snaps, snap)
	}
	s.now = s.now.Add(s.period)
	return snap, ok
}

// scans plays the same scan n times and returns the snapshots that left.
func (s *script) scans(n int, line string) []Snapshot {
	s.t.Helper()
	var out []Snapshot
	for range n {
		if snap, ok := s.scan(line); ok {
			out = append(out, snap)
		}
	}
	return out
}

// until plays the scan until a snapshot leaves (at most n scans), and returns it and how many
// scans it took.
func (s *script) until(n int, line string) (Snapshot, int) {
	s.t.Helper()
	for i := 1; i <= n; i++ {
		if snap, ok := s.scan(line); ok {
			return snap, i
		}
	}
	s.t.Fatalf("no snapshot in %d scans of %q", n, line)
	return Snapshot{}, 0
}

// tag is the state of the tag with that UID (nil if none).
func (s *script) tag(uid string) *tagState { return s.z.byUID[uid] }

// settled plays the scan until the zone settles and checks what it named.
func (s *script) settled(line, want string) Snapshot {
	s.t.Helper()
	snap, _ := s.until(200, line)
	if got := tile.Format(snap.Tiles); got != want {
		s.t.Fatalf("settled on %q, want %q (%v)", got, want, snap)
	}
	return snap
}
