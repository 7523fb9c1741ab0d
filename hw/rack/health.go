package rack

import "math"

// ReaderHealth is one reader's health: how often the tags in its field answer its polls (its
// read rate, estimated from the tags judged present: see Presence), on how many tag polls that
// rests, how many tags are judged in its field, and whether it is failing: down, or surely reading under Params.WarnRate. A failing
// reader is named before it makes a wrong call: its tags take longer to be judged gone, and a
// tile set off its antenna shows here first.
type ReaderHealth struct {
	Reader   string  `json:"reader"`
	ReadRate float64 `json:"read_rate"` // to two decimals
	// Polls is how many tag polls the rate rests on, old ones counting less. It is not in the
	// JSON: it changes every scan, and the health is published when it changes.
	Polls   int  `json:"-"`
	Tags    int  `json:"tags"` // tags judged present in its field
	Down    bool `json:"down,omitempty"`
	Failing bool `json:"failing,omitempty"`
}

// Readers reports each reader of the zone.
func (z *Presence) Readers() []ReaderHealth {
	out := make([]ReaderHealth, len(z.readers))
	for i := range z.readers {
		r := &z.readers[i]
		out[i] = ReaderHealth{Reader: r.name, ReadRate: math.Round(r.rate.Mean(readerPrior, readerPriorWeight)*100) / 100,
			Polls: int(math.Round(r.rate.Trials())), Down: z.down(i), Failing: z.failing(i)}
	}
	for _, t := range z.tags {
		if t.present && t.reader < len(out) {
			out[t.reader].Tags++
		}
	}
	return out
}

// failing says whether reader i is down or reads under the warning rate: it starts to when
// its read rate is surely under (the estimate's upper bound), and stops when it is surely over
// again (the lower bound), so that a reader reading about at the warning rate is not named and
// cleared at every other poll.
func (z *Presence) failing(i int) bool {
	r := &z.readers[i]
	switch {
	case !r.slow && r.rate.Upper(readerPrior, readerPriorWeight) < z.p.WarnRate:
		r.slow = true
	case r.slow && r.rate.Lower(readerPrior, readerPriorWeight) >= z.p.WarnRate:
		r.slow = false
	}
	return z.down(i) || r.slow
}

// anyFailing says whether a reader of the zone is failing.
func (z *Presence) anyFailing() bool {
	for i := range z.readers {
		if z.failing(i) {
			return true
		}
	}
	return false
}

// noteRates logs a reader that starts failing by its read rate, once, and its recovery.
func (m *Monitor) noteRates(k Key, z *Presence) {
	named := m.failing[k]
	for i := range z.readers {
		r := &z.readers[i]
		bad := z.failing(i) && !z.down(i) // a reader down is logged with its fault
		switch {
		case bad && !named[r.name]:
			if named == nil {
				named = map[string]bool{}
				m.failing[k] = named
			}
			named[r.name] = true
			m.Log.Warn("rack reader failing", "rack", k.Rack, "zone", k.Zone, "reader", r.name,
				"read_rate", math.Round(r.rate.Mean(readerPrior, readerPriorWeight)*100)/100, "polls", int(r.rate.Trials()))
		case !bad && named[r.name]:
			delete(named, r.name)
			m.Log.Info("rack reader reads again", "rack", k.Rack, "zone", k.Zone, "reader", r.name,
				"read_rate", math.Round(r.rate.Mean(readerPrior, readerPriorWeight)*100)/100)
		}
	}
}
