package rack

import (
	"math"
	"time"

	"github.com/siamesetable/siamesed/engine/tile"
)

// Presence judges which tags are in one rack zone from its scans, tag by tag, treating each
// reader's reads as a sample (as SMURF does: Jeffery, Garofalakis and Franklin, "Adaptive
// Cleaning for RFID Data Streams", VLDB 2006):
//
//   - Each reader's read rate p (the chance a tag in its field answers a poll) is estimated as
//     it runs, and each tag's own rate from its reader's and its own reads (a tile set off its
//     antenna reads less often than its neighbours).
//   - A tag judged present is judged gone only after k polls in a row without it, the fewest
//     with (1-p)^k < δ for a cautious p; and, unless the load cell weighs a tile less than
//     when it was last read, only after BurstHold too (a hand over the rack hides tags).
//   - A new tag is judged present when its reads make it 1/NewDelta times likelier a tile,
//     read with chance p, than a ghost read with chance Ghost (Wald's sequential test); a
//     ghost's odds fall with each poll that misses it, and under dropBelow it is forgotten.
//   - A reader failing DownAfter polls in a row is down: its tags are not named. A load cell's
//     count changes only after a run of readings that a spike would make with chance under δ.
//
// A snapshot leaves when what is judged present changed, has held for Settle since the first
// scan that showed it, and nothing is being decided: no tag in doubt (a new tag not yet judged,
// a tag missed so often that it may have left, see confidence), no count changing. Presence is
// pure: no clock, no goroutine.
type Presence struct {
	p Params

	readers []readerState
	tags    []*tagState // in order of first read
	byUID   map[string]*tagState
	weight  weightJudge
	hasCell bool
	tagged  bool
	// reading is the load cell's latest answer, for the set-up page (Live).
	reading LiveWeight
	// arrivals and departures count the enrolled tags judged come and gone, for the load cell's
	// cross-check of a departure.
	arrivals, departures int

	cur, last view
	curSince  time.Time
	busyAt    time.Time // the last scan with a decision under way
	emitted   bool
	pending   bool // a decision under way (deciding at undecidedFrom), as of the last scan
	leaning   bool // ... and one more likely than not (at changingFrom): Changing
	seq       uint64
	// snapped holds the tags present at the last snapshot, and left when each of them judged
	// gone since began its run of misses: a snapshot dates what changed by the tags whose
	// presence differs from the last one, not by a tag that flapped out and back (on a weak
	// reader, beside a tile of its face that really came).
	snapped map[string]bool
	left    map[string]leaving
	scratch []float64
}

// readerState is one reader: its read rate and its run of failed polls.
type readerState struct {
	name      string
	rate      Rate
	fails     int
	failSince time.Time
	fault     FaultKind
	detail    string
	slow      bool // named failing by its read rate
}

// tagState is one tag the zone's readers have read.
type tagState struct {
	uid     string
	face    tile.Face // tile.NoFace: not enrolled
	reader  int
	present bool
	odds    float64   // a new tag's odds of being a tile rather than a ghost
	first   time.Time // the first read of its stay
	misses  int       // polls in a row its reader answered without it
	missAt  time.Time // the first of those
	rate    Rate
	// weighed, arrived and departed are the load cell's count and the zone's arrivals and
	// departures when the tag was last read.
	weighed, arrived, departed int
	seen                       bool
}

// view is what the zone is judged to hold: comparable, so a change is one comparison.
type view struct {
	tiles      tile.Counts
	unenrolled int
	weight     int
	weighed    bool
	cellDown   bool
	down       uint64 // readers down, by index
}

// surplus is how many more tiles the load cell weighs than the tags name (none weighed: the
// lowest int, unlike any count).
func (v *view) surplus() int {
	if !v.weighed {
		return math.MinInt
	}
	return v.weight - v.tiles.Total() - v.unenrolled
}

// NewPresence returns the judge of one zone.
func NewPresence(p Params) *Presence {
	return &Presence{p: p.WithDefaults(), byUID: map[string]*tagState{}, snapped: map[string]bool{}, left: map[string]leaving{}}
}

// Observe takes one scan of the zone made at now, and returns a snapshot when one leaves.
func (z *Presence) Observe(o *Observation, now time.Time) (Snapshot, bool) {
	z.hasCell, z.tagged = o.HasCell, o.Tagged
	at := time.Time{} // the latest change this scan judged, dated by the scan that first showed it
	later := func(t time.Time) {
		if t.After(at) {
			at = t
		}
	}
	z.noteReaders(o, now, later)
	z.noteReading(o)
	if t, ok := z.weight.observe(o, now, z.p); ok {
		later(t)
	}
	z.noteTags(o, now, later)
	v := z.judged()
	z.pending = z.deciding(undecidedFrom)
	z.leaning = z.pending && z.deciding(changingFrom) // a likely change is a doubt too
	if v != z.cur {
		if at.IsZero() {
			at = now
		}
		if z.cur != z.last && at.Before(z.curSince) {
			at = z.curSince // the view changed twice since the last snapshot: the later counts
		}
		z.cur, z.curSince = v, at
	}
	if z.pending {
		z.busyAt = now
	}
	if z.pending || (z.emitted && z.cur == z.last) || now.Sub(z.heldSince()) < z.p.Settle {
		return Snapshot{}, false
	}
	return z.snapshot(o, now), true
}

// heldSince is when the zone began to read as it is judged now. Where the load cell and the
// tags changed alike since the last snapshot (a tile gone: one tag and one tile's weight), that
// is the first scan that showed the change. Where they did not, the view may be a moment's
// mixture of decisions made at different times (the weight taken a tile lighter, the tag of
// that tile read again as it was put back before it was judged gone): it must then also have
// held for Settle since the last decision.
func (z *Presence) heldSince() time.Time {
	if !z.emitted || z.cur.surplus() == z.last.surplus() || z.busyAt.Before(z.curSince) {
		return z.curSince
	}
	return z.busyAt
}

// Moving reports whether the zone is being decided or reads otherwise than its last snapshot:
// tiles in motion, a hand over the rack, a new tag not yet judged. A tracker waits while a
// zone moves.
func (z *Presence) Moving() bool { return !z.emitted || z.pending || z.cur != z.last }

// Reweighed reports whether the load cell weighs otherwise than at the last snapshot: a tile
// came or went that the snapshot does not show yet. The tags may take long to show it (a
// departure on a weak reader waits its run of misses, or for a hand over the rack to lift), the
// count comes within a few readings, so a tracker that no longer waits on a failing zone's
// Changing still waits on this.
func (z *Presence) Reweighed() bool {
	return z.emitted && z.cur.weighed && z.last.weighed && z.cur.weight != z.last.weight
}

// Changing reports whether the zone more likely than not holds otherwise than its last
// snapshot: a change judged but not yet settled, or one being decided that is likelier than
// not (a tag missed so often that it has more likely left than stayed, a new tag likelier a
// tile than a ghost). Unlike Moving, a tag missing a poll or two on a reader that reads most
// polls does not make a zone changing, so a tracker can wait for it without waiting on noise;
// a departure still becomes changing within the few polls its reader's read rate allows.
func (z *Presence) Changing() bool { return !z.emitted || z.cur != z.last || z.leaning }

// noteReaders counts each reader's failed polls in a row.
func (z *Presence) noteReaders(o *Observation, now time.Time, later func(time.Time)) {
	for i, r := range o.Readers {
		if i == len(z.readers) {
			z.readers = append(z.readers, readerState{name: r.Name})
		}
		rs := &z.readers[i]
		if rs.name != r.Name { // a different rack layout: start over
			*rs = readerState{name: r.Name}
		}
		if r.Fault == "" {
			if rs.fails >= DownAfter {
				later(now) // back up: its tags are named again
			}
			rs.fails = 0
			continue
		}
		if rs.fails == 0 {
			rs.failSince = now
		}
		rs.fails++
		rs.fault, rs.detail = r.Fault, r.Detail
		if rs.fails == DownAfter {
			later(rs.failSince)
		}
	}
}

// answered says whether reader i answered this scan.
func (z *Presence) answered(i int) bool { return i < len(z.readers) && z.readers[i].fails == 0 }

// down says whether reader i is down.
func (z *Presence) down(i int) bool { return i < len(z.readers) && z.readers[i].fails >= DownAfter }

// noteTags judges every tag by this scan's reads: first each tag's reads and misses, and the
// new tags; then, with every tag's misses counted, which tags present are gone.
func (z *Presence) noteTags(o *Observation, now time.Time, later func(time.Time)) {
	for _, r := range o.Tags {
		t := z.byUID[r.UID]
		if t == nil {
			t = &tagState{uid: r.UID, face: r.Face, odds: 1, first: now}
			z.byUID[r.UID] = t
			z.tags = append(z.tags, t)
		}
		t.seen, t.reader = true, r.Reader
	}
	z.keep(func(t *tagState) bool { return z.noteTag(t, now, later) })
	z.keep(func(t *tagState) bool { return !t.present || t.misses == 0 || !z.gone(t, now, later) })
}

// keep keeps the tags for which f is true, forgetting the others.
func (z *Presence) keep(f func(*tagState) bool) {
	kept := z.tags[:0]
	for _, t := range z.tags {
		if f(t) {
			kept = append(kept, t)
		} else {
			delete(z.byUID, t.uid)
		}
	}
	clear(z.tags[len(kept):])
	z.tags = kept
}

// noteTag counts one tag's read or miss; false when it is a new tag forgotten.
func (z *Presence) noteTag(t *tagState, now time.Time, later func(time.Time)) bool {
	seen := t.seen
	t.seen = false
	if !seen && !z.answered(t.reader) {
		// Its reader failed: this poll says nothing of it. A new tag on a reader that is down
		// is forgotten (read again, it starts over), so that it holds nothing up.
		return t.present || !z.down(t.reader)
	}
	r := &z.readers[t.reader]
	switch {
	case !t.present:
		return z.judgeNew(t, r, seen, later)
	case seen:
		r.rate.AddN(t.misses, true, z.p.Window) // it stayed: its misses were misses
		t.rate.AddN(t.misses, true, z.p.Window)
		t.misses = 0
		t.weighed, t.arrived, t.departed = z.weight.value, z.arrivals, z.departures
	default:
		t.misses++
		if t.misses == 1 {
			t.missAt = now
		}
	}
	return true
}

// judgeNew is Wald's sequential test of a new tag: a tile read with chance p, or a ghost read
// with chance Ghost.
func (z *Presence) judgeNew(t *tagState, r *readerState, seen bool, later func(time.Time)) bool {
	p, g := r.rate.Lower(readerPrior, readerPriorWeight), z.p.Ghost
	if seen {
		t.odds *= p / g
	} else {
		t.odds *= (1 - p) / (1 - g)
	}
	switch {
	case t.odds < dropBelow:
		return false
	case t.odds*z.p.NewDelta < 1:
		return true
	}
	t.present = true
	if t.face != tile.NoFace {
		z.arrivals++
		delete(z.left, t.uid) // back: it never left as far as the last snapshot goes
	}
	t.weighed, t.arrived, t.departed = z.weight.value, z.arrivals, z.departures
	later(t.first)
	return true
}

// judged is what the zone is judged to hold now.
func (z *Presence) judged() view {
	var v view
	for i := range z.readers {
		if z.down(i) && i < 64 {
			v.down |= 1 << i
		}
	}
	for _, t := range z.tags {
		if !t.present || z.down(t.reader) {
			continue
		}
		if t.face == tile.NoFace {
			v.unenrolled++
		} else {
			v.tiles[t.face]++
		}
	}
	if z.hasCell {
		v.cellDown = z.weight.down()
		v.weighed = z.weight.known && !v.cellDown
		if v.weighed {
			v.weight = z.weight.value
		}
	}
	return v
}

// deciding says whether a decision is under way: a load-cell count changing, a reader failing
// but not yet down, or a tag judged wrongly now with chance doubtFrom or more (a new tag not
// yet judged, a tag present missed so often that it may have left).
func (z *Presence) deciding(doubtFrom float64) bool {
	if z.hasCell && z.weight.pending() {
		return true
	}
	for i := range z.readers {
		if f := z.readers[i].fails; f > 0 && f < DownAfter {
			return true
		}
	}
	for _, t := range z.tags {
		if z.doubt(t) >= doubtFrom {
			return true
		}
	}
	return false
}
