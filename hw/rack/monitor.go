package rack

import (
	"context"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/siamesetable/siamesed/internal/clock"
)

// DefaultPeriod is the pause between scans of all racks.
const DefaultPeriod = 50 * time.Millisecond

// Monitor scans its sources in a loop, judges each zone's tags and hands out snapshots and
// health.
type Monitor struct {
	Clock  clock.Clock
	Period time.Duration
	// Params tune how tags are judged; set them before the first Step.
	Params Params
	Log    *slog.Logger

	sources []Source
	// scan is held through each scan of the sources: Hold takes it to reach a sensor between
	// scans (a load cell's calibration).
	scan   sync.Mutex
	mu     sync.Mutex
	zones  map[Key]*Presence
	health map[Key][]Fault
	// failing is each reader named failing (by its read rate) in the log, by rack zone.
	failing map[Key]map[string]bool
	// faultSince is when each zone's reader first reported each kind of fault, without a
	// break; warned, the zones whose fault lasted long enough to be logged as a warning.
	faultSince map[Key]map[faultID]time.Time
	warned     map[Key]bool
}

// faultID is a fault without its detail, which changes from scan to scan ("weight says 13").
type faultID struct {
	reader string
	kind   FaultKind
}

// FaultWarnAfter is how long a fault must last to be logged as a warning: a tag missed for a
// poll, a glitch on the bus or a spike on a load cell is normal at a real table (logged for
// debugging only); a reader silent for two seconds is not.
const FaultWarnAfter = 2 * time.Second

// NewMonitor watches sources; zero durations take the defaults.
func NewMonitor(clk clock.Clock, settle, period time.Duration, sources ...Source) *Monitor {
	if period <= 0 {
		period = DefaultPeriod
	}
	if settle <= 0 {
		settle = DefaultSettle
	}
	return &Monitor{Clock: clk, Period: period, Params: Params{Settle: settle}, Log: slog.New(slog.DiscardHandler),
		sources: sources, zones: map[Key]*Presence{}, health: map[Key][]Fault{}, failing: map[Key]map[string]bool{},
		faultSince: map[Key]map[faultID]time.Time{}, warned: map[Key]bool{}}
}

// Step scans every source once at the clock's now and returns the snapshots that settled.
func (m *Monitor) Step(ctx context.Context) []Snapshot {
	m.scan.Lock()
	defer m.scan.Unlock()
	var out []Snapshot
	for _, src := range m.sources {
		obs := src.Scan(ctx)
		now := m.Clock.Now()
		m.mu.Lock()
		for i := range obs {
			o := &obs[i]
			k := o.Key()
			m.noteHealth(k, o.Faults, now)
			z := m.zones[k]
			if z == nil {
				z = NewPresence(m.Params)
				m.zones[k] = z
			}
			if s, ok := z.Observe(o, now); ok {
				out = append(out, s)
			}
			m.noteRates(k, z)
		}
		m.mu.Unlock()
	}
	return out
}

func (m *Monitor) noteHealth(k Key, fs []Fault, now time.Time) {
	since := m.faultSince[k]
	if since == nil {
		since = map[faultID]time.Time{}
		m.faultSince[k] = since
	}
	current := map[faultID]bool{}
	for _, f := range fs {
		id := faultID{f.Reader, f.Kind}
		current[id] = true
		first, ok := since[id]
		switch {
		case !ok:
			since[id] = now
			m.Log.Debug("rack fault", "rack", f.Rack, "zone", f.Zone, "reader", f.Reader, "kind", f.Kind, "detail", f.Detail)
		case now.Sub(first) >= FaultWarnAfter && !m.warned[k]:
			m.warned[k] = true
			m.Log.Warn("rack fault", "rack", f.Rack, "zone", f.Zone, "reader", f.Reader, "kind", f.Kind, "detail", f.Detail,
				"for", now.Sub(first).Round(time.Millisecond))
		}
	}
	for id := range since {
		if !current[id] {
			delete(since, id)
		}
	}
	if len(fs) == 0 && m.warned[k] {
		m.warned[k] = false
		m.Log.Info("rack zone healthy again", "rack", k.Rack, "zone", k.Zone)
	}
	m.health[k] = slices.Clone(fs)
}

// Motion is what the tracker hears of the zones between snapshots, each list sorted.
type Motion struct {
	// Moving: reading otherwise than their last snapshot now (tiles in motion, a hand over a
	// rack, a flapping tag; Presence.Moving).
	Moving []Key
	// Changing: more likely than not holding otherwise than their last snapshot
	// (Presence.Changing).
	Changing []Key
	// Failing: a reader down or surely reading under the warning rate (see ReaderHealth):
	// their departures are judged late.
	Failing []Key
	// Reweighed: the load cell weighs otherwise than at their last snapshot
	// (Presence.Reweighed).
	Reweighed []Key
}

// Motion lists the zones moving, changing, failing and reweighed now, in one pass under one
// lock, so that the four lists describe the same moment.
func (m *Monitor) Motion() Motion {
	m.mu.Lock()
	defer m.mu.Unlock()
	var mo Motion
	for _, k := range m.keys() {
		z := m.zones[k]
		if z.Moving() {
			mo.Moving = append(mo.Moving, k)
		}
		if z.Changing() {
			mo.Changing = append(mo.Changing, k)
		}
		if z.anyFailing() {
			mo.Failing = append(mo.Failing, k)
		}
		if z.Reweighed() {
			mo.Reweighed = append(mo.Reweighed, k)
		}
	}
	return mo
}

// Health is the latest fault list of every zone scanned so far, sorted by rack and zone.
func (m *Monitor) Health() []Health {
	m.mu.Lock()
	defer m.mu.Unlock()
	hs := make([]Health, 0, len(m.health))
	for k, fs := range m.health {
		h := Health{Rack: k.Rack, Zone: k.Zone, Degraded: len(fs) > 0, Faults: fs}
		if z := m.zones[k]; z != nil {
			h.Readers = z.Readers()
		}
		hs = append(hs, h)
	}
	slices.SortFunc(hs, func(a, b Health) int {
		if a.Rack != b.Rack {
			if a.Rack < b.Rack {
				return -1
			}
			return 1
		}
		return slices.Index(Zones, a.Zone) - slices.Index(Zones, b.Zone)
	})
	return hs
}

// Health is one rack zone's health report: this scan's faults, and each reader's read rate.
type Health struct {
	Rack     string         `json:"rack"`
	Zone     Zone           `json:"zone"`
	Degraded bool           `json:"degraded"`
	Faults   []Fault        `json:"faults,omitempty"`
	Readers  []ReaderHealth `json:"readers,omitempty"`
}

// Run scans every Period until ctx ends, calling emit with each settled snapshot. A failing rack
// only degrades its own snapshots; Run itself returns only ctx's error.
func (m *Monitor) Run(ctx context.Context, emit func(Snapshot)) error {
	step := func() {
		for _, s := range m.Step(ctx) {
			m.Log.Debug("rack snapshot", "rack", s.Rack, "zone", s.Zone, "count", s.Count, "quality", s.Quality, "seq", s.Seq)
			emit(s)
		}
	}
	// The first scan comes before the timer exists: a timer armed and then stopped could be
	// advanced past (by a test's fake clock) in between, and leave a stale tick that skips a scan.
	step()
	t, c := m.Clock.NewTimer(m.Period)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-c:
		}
		step()
		t.Reset(m.Period)
	}
}
