package rack

import (
	"time"

	"github.com/siamesetable/siamesed/engine/tile"
)

// DefaultSettle is how long a zone's readings must stay the same before a snapshot leaves.
const DefaultSettle = 300 * time.Millisecond

// Stabiliser debounces one rack zone. Feed it every observation with the time it was taken; it
// returns a snapshot only when the same observation has been seen for the whole settle window
// (at least two readings, spanning Settle), and only when that differs from the last snapshot.
// A tile in transit, a flapping tag or a hand over the rack keeps changing the readings, so it
// produces nothing. It is pure: no clock, no goroutine.
type Stabiliser struct {
	Settle time.Duration

	cand      string
	candSince time.Time
	candReads int
	last      string
	emitted   bool
	seq       uint64
	// firstSeen is when each reading was first observed since the last snapshot: a snapshot
	// held back by a flapping tag still says when its tiles really changed.
	firstSeen map[string]time.Time
	// base holds the tiles of the last snapshot; fewer and more, when a consistent reading
	// since first held fewer or more tiles of each face than it.
	base        tile.Counts
	fewer, more [tile.NumFaces]time.Time
}

// NewStabiliser returns a stabiliser with the given window (DefaultSettle if zero).
func NewStabiliser(settle time.Duration) *Stabiliser {
	if settle <= 0 {
		settle = DefaultSettle
	}
	return &Stabiliser{Settle: settle}
}

// Observe takes one observation made at now.
func (s *Stabiliser) Observe(o *Observation, now time.Time) (Snapshot, bool) {
	if !o.settled() {
		s.cand, s.candReads = "", 0
		return Snapshot{}, false
	}
	s.noteChanges(o, now)
	sig := o.signature()
	if s.firstSeen == nil {
		s.firstSeen = map[string]time.Time{}
	}
	if _, ok := s.firstSeen[sig]; !ok && len(s.firstSeen) < 64 {
		s.firstSeen[sig] = now
	}
	if sig != s.cand || s.candReads == 0 {
		s.cand, s.candSince, s.candReads = sig, now, 1
		return Snapshot{}, false
	}
	s.candReads++
	if now.Sub(s.candSince) < s.Settle || (s.emitted && sig == s.last) {
		return Snapshot{}, false
	}
	s.last, s.emitted = sig, true
	s.seq++
	snap := o.snapshot()
	snap.Seq, snap.At, snap.Since = s.seq, now, s.candSince
	if first, ok := s.firstSeen[sig]; ok {
		snap.Since = first
	}
	clear(s.firstSeen)
	if s.seq > 1 {
		snap.Left, snap.Came = s.dated(&o.Tiles)
	}
	s.base, s.fewer, s.more = o.Tiles, [tile.NumFaces]time.Time{}, [tile.NumFaces]time.Time{}
	return snap, true
}

// noteChanges dates the faces a consistent reading (tags and load cell agree, no fault: no
// tag missed) shows fewer or more of than the last snapshot. Readings between two snapshots
// so tell which tile left a zone and which came first, when a hand did both before it settled.
func (s *Stabiliser) noteChanges(o *Observation, now time.Time) {
	if len(o.Faults) > 0 || !o.Tagged || o.HasCell && (!o.Weighed || o.WeightTiles != o.Tiles.Total()) {
		return
	}
	for f := range o.Tiles {
		if o.Tiles[f] < s.base[f] && s.fewer[f].IsZero() {
			s.fewer[f] = now
		}
		if o.Tiles[f] > s.base[f] && s.more[f].IsZero() {
			s.more[f] = now
		}
	}
}

// dated lists, for the faces a snapshot of tiles holds fewer or more of than the last one, when
// a reading first showed them leave or come.
func (s *Stabiliser) dated(tiles *tile.Counts) (left, came []Dated) {
	for f := range tiles {
		if tiles[f] < s.base[f] && !s.fewer[f].IsZero() {
			left = append(left, Dated{Face: tile.Face(f), At: s.fewer[f]})
		}
		if tiles[f] > s.base[f] && !s.more[f].IsZero() {
			came = append(came, Dated{Face: tile.Face(f), At: s.more[f]})
		}
	}
	return left, came
}

// Moving reports whether the zone reads otherwise than its last snapshot now: tiles in motion,
// a hand over the rack, or a tag flapping. A tracker waits while a zone moves.
func (s *Stabiliser) Moving() bool { return s.cand == "" || s.cand != s.last }
