package rack

import "time"

// weightJudge decides a zone's tile count by weight. The load cell's driver already drops a
// single spike (a rolling median of three conversions); a run of spikes can still show a wrong
// whole count for a scan or two. So a new count is taken only after a run of sure readings a
// run of spikes would make with chance under δ: q^k < δ, q the estimated chance that a sure
// reading is off the count (readings off the count that went back to it were spikes; those of
// a count taken were not). An unsure reading (a hand on the rack, a tile half on) decides
// nothing and keeps the zone from settling.
type weightJudge struct {
	known bool
	value int
	since time.Time // the first reading of value
	// cand is a count other than value read run times in a row, the first at candAt.
	cand, run int
	candAt    time.Time
	// agree counts the sure readings of value in a row; current: enough of them, so that one
	// reading of the old count between those of a new one does not pass for the count.
	agree     int
	current   bool
	fails     int
	failSince time.Time
	detail    string
	spikes    Rate
}

// observe takes one scan; it reports a new count taken, dated by the first reading of it.
func (w *weightJudge) observe(o *Observation, now time.Time, p Params) (time.Time, bool) {
	if !o.HasCell {
		return time.Time{}, false
	}
	if !o.Weighed {
		if w.fails == 0 {
			w.failSince = now
		}
		w.fails++
		w.current = false
		for _, f := range o.Faults {
			if f.Kind == LoadCellError {
				w.detail = f.Detail
			}
		}
		if w.fails == DownAfter {
			return w.failSince, true
		}
		return time.Time{}, false
	}
	back := w.fails >= DownAfter
	w.fails = 0
	if !o.WeightSure {
		w.current, w.run, w.agree = false, 0, 0
		return time.Time{}, false
	}
	n, need := o.WeightTiles, RunFor(1-w.spikes.Upper(spikePrior, spikePriorWeight), p.Delta)
	if w.known && n == w.value {
		for range w.run {
			w.spikes.Add(true, p.Window)
		}
		w.spikes.Add(false, p.Window)
		w.run = 0
		w.agree++
		w.current = w.agree >= need
		if back {
			return now, true
		}
		return time.Time{}, false
	}
	w.current, w.agree = false, 0
	if w.run > 0 && n == w.cand {
		w.run++
	} else {
		w.cand, w.run, w.candAt = n, 1, now
	}
	if w.run < need {
		return time.Time{}, false
	}
	w.known, w.value, w.since, w.agree, w.run, w.current = true, w.cand, w.candAt, w.run, 0, true
	return w.candAt, true
}

// down says whether the load cell has failed DownAfter scans in a row.
func (w *weightJudge) down() bool { return w.fails >= DownAfter }

// pending says whether the count is being decided: the cell failing but not yet down, a
// reading unsure or off the count.
func (w *weightJudge) pending() bool { return !w.down() && !w.current }
