package rack

import (
	"math"
	"slices"
	"time"

	"github.com/siamesetable/siamesed/engine/tile"
)

// gone judges whether a tag present and missed now has left: after its run of misses, where
// the load cell bears it out or for BurstHold; sooner where the load cell singles it out.
func (z *Presence) gone(t *tagState, now time.Time, later func(time.Time)) bool {
	if !z.singledOut(t) && (t.misses < z.run(t) || !z.borneOut(t) && now.Sub(t.missAt) < z.p.BurstHold) {
		return false
	}
	if t.face != tile.NoFace {
		z.departures++
		if z.snapped[t.uid] {
			z.left[t.uid] = leaving{t.face, t.missAt}
		}
	}
	later(t.missAt)
	return true
}

// tagRate is a cautious estimate of the chance that tag t answers a poll: its own reads,
// shrunk toward its reader's rate.
func (z *Presence) tagRate(t *tagState) float64 {
	return t.rate.Lower(z.readers[t.reader].rate.Mean(readerPrior, readerPriorWeight), tagPriorWeight)
}

// run is the number of polls in a row tag t must miss to be judged gone.
func (z *Presence) run(t *tagState) int { return RunFor(z.tagRate(t), z.p.Delta) }

// borneOut says whether the load cell bears out that tag t left: it weighs d tiles fewer
// than when t was last read (less the tags judged gone and plus those judged come since), and
// fewer than d other tags missed now are as likely as t to be the ones gone (odds
// (1-p)^-m, m a tag's misses in a row), so that a tile taken does not bear out the departure of
// a tag a hand hides at the same time. With no load cell (or for a tag nobody enrolled, whose
// weight is not a tile's) nothing can bear it out, and nothing need: the run of misses alone
// decides.
func (z *Presence) borneOut(t *tagState) bool {
	if !z.hasCell || t.face == tile.NoFace {
		return true // a phone's or a card's weight says nothing
	}
	d := z.deficit(t)
	if d < 1 {
		return false
	}
	mine, likelier := z.odds(t), 0
	for _, u := range z.tags {
		if u != t && z.suspect(u) && z.odds(u) >= mine {
			likelier++
		}
	}
	return likelier < d
}

// singledOut says whether the load cell, weighing fewer tiles since tag t was last read, and
// the tags missed since it did, name t as a tile that left, with chance of error under
// NewDelta (such a decision is made once a move, not once a poll, like a new tag's). Bayes over
// which tiles left since the count fell: each tag u missed at every poll since left with odds
// (1-p_u)^-m against a tile whose tag is not among them (odds 1: a tile the readers cannot
// reach, an exposure's third); t must be among the d likeliest, d the tiles the count fell by,
// and the odds of the rest under NewDelta times t's (t's read cautiously, the others' boldly).
func (z *Presence) singledOut(t *tagState) bool {
	w := &z.weight
	d := z.deficit(t)
	if d < 1 || t.face == tile.NoFace || t.missAt.After(w.since) {
		return false
	}
	mine := math.Pow(1-z.tagRate(t), -float64(t.misses))
	others := z.scratch[:0]
	for _, u := range z.tags {
		if u != t && z.suspect(u) && !u.missAt.After(w.since) {
			others = append(others, z.odds(u))
		}
	}
	z.scratch = others
	slices.Sort(others)
	rest := 1.0
	for i, x := range slices.Backward(others) {
		switch {
		case i < len(others)-(d-1) && x >= mine:
			return false // d others are likelier gone than t
		case i < len(others)-(d-1):
			rest += x
		}
	}
	return rest < z.p.NewDelta*mine
}

// deficit is how many tiles fewer the load cell weighs than when tag t was last read, less the
// tags judged gone and plus those judged come since; 0 with no count to go by.
func (z *Presence) deficit(t *tagState) int {
	w := &z.weight
	if !z.hasCell || !w.known || w.down() {
		return 0
	}
	return t.weighed + (z.arrivals - t.arrived) - (z.departures - t.departed) - w.value
}

// suspect says whether tag u is a tile's, judged present and missed now on a reader that works.
func (z *Presence) suspect(u *tagState) bool {
	return u.present && u.misses > 0 && u.face != tile.NoFace && !z.down(u.reader)
}

// odds are the odds that suspect u left rather than stayed, on its misses in a row alone:
// (1-p)^-m, with a bold p.
func (z *Presence) odds(u *tagState) float64 {
	return math.Pow(1-z.boldRate(u), -float64(u.misses))
}

// boldRate is a bold estimate of the chance that tag t answers a poll: the more likely a tag is
// read, the more a miss says against it staying.
func (z *Presence) boldRate(t *tagState) float64 {
	return t.rate.Upper(z.readers[t.reader].rate.Mean(readerPrior, readerPriorWeight), tagPriorWeight)
}
