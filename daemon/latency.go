package daemon

import (
	"slices"
	"sync"
	"time"
)

// latencies keeps how long the latest observations took to become acts: from a settled
// snapshot or camera report reaching the table to its acts journaled (synced) and published.
// It keeps the latest window of them; safe for concurrent use (the health page reads it).
type latencies struct {
	mu   sync.Mutex
	ring []time.Duration
	next int
	full bool
	n    int // all observations ever recorded
	// recent are the figures last taken for the health page, at recentAt (wall time).
	recent   LatencyFigures
	recentAt time.Time
}

// latencyRefresh is how often the health page's percentiles are taken again: every tick of a
// soak's fast clock sorted the whole window, a third of the soak's CPU by the hundredth game.
const latencyRefresh = time.Second

// latencyWindow is how many of the latest observations the figures are taken over.
const latencyWindow = 4096

func (l *latencies) add(d time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ring == nil {
		l.ring = make([]time.Duration, latencyWindow)
	}
	l.ring[l.next] = d
	l.next = (l.next + 1) % len(l.ring)
	l.full = l.full || l.next == 0
	l.n++
}

// LatencyFigures are the observation-to-act latency over the latest window.
type LatencyFigures struct {
	Count int           `json:"count"` // observations that became acts, ever
	P50   time.Duration `json:"p50_ns"`
	P99   time.Duration `json:"p99_ns"`
	Max   time.Duration `json:"max_ns"`
}

func (l *latencies) figures() LatencyFigures {
	l.mu.Lock()
	w := l.ring[:l.next]
	if l.full {
		w = l.ring
	}
	w = slices.Clone(w)
	f := LatencyFigures{Count: l.n}
	l.mu.Unlock()
	if len(w) == 0 {
		return f
	}
	slices.Sort(w)
	at := func(q float64) time.Duration { return w[min(len(w)-1, int(q*float64(len(w))))] }
	f.P50, f.P99, f.Max = at(0.50), at(0.99), w[len(w)-1]
	return f
}

// recentFigures are the figures as of at most latencyRefresh before now: percentiles taken
// again only that often, the count always current.
func (l *latencies) recentFigures(now time.Time) LatencyFigures {
	l.mu.Lock()
	fresh, f, n := now.Sub(l.recentAt) < latencyRefresh && !l.recentAt.IsZero(), l.recent, l.n
	l.mu.Unlock()
	if !fresh {
		f = l.figures()
		l.mu.Lock()
		l.recent, l.recentAt = f, now
		l.mu.Unlock()
	}
	f.Count = n
	return f
}

// timed records, for an observation that played acts, how long it took since began.
func (t *Table) timed(began time.Time, seqBefore int, err error) error {
	if err == nil && t.tracker.State().Seq != seqBefore {
		t.latency.add(time.Since(began))
	}
	return err
}
