package rack_test

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/hw/config"
	"github.com/siamesetable/siamesed/hw/rack"
	"github.com/siamesetable/siamesed/hw/simtable"
	"github.com/siamesetable/siamesed/internal/clock"
)

// faulty is a rack whose "in" reader reports a fault on the scans listed.
type faulty struct {
	scan   int
	faulty func(scan int) bool
}

func (f *faulty) Rack() string { return "p1a" }
func (f *faulty) Scan(context.Context) []rack.Observation {
	f.scan++
	o := rack.Observation{Rack: "p1a", Zone: rack.In, Tagged: true}
	if f.faulty(f.scan) {
		o.Faults = []rack.Fault{{Rack: "p1a", Zone: rack.In, Reader: "in-01", Kind: rack.FaultKind("bus_error"), Detail: "scan " + string(rune('0'+f.scan%10))}}
	}
	return []rack.Observation{o}
}

// logged keeps the log records' levels and messages.
type logged struct {
	mu   sync.Mutex
	recs []string
}

func (l *logged) Enabled(context.Context, slog.Level) bool { return true }
func (l *logged) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.recs = append(l.recs, r.Level.String()+" "+r.Message)
	return nil
}
func (l *logged) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *logged) WithGroup(string) slog.Handler      { return l }

func (l *logged) count(what string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, r := range l.recs {
		if r == what {
			n++
		}
	}
	return n
}

// TestTransientFaultsAreNotWarnings: a reader that glitches for a scan now and then (as a bus
// does at a real table) is logged for debugging only; one that keeps failing past
// FaultWarnAfter is a warning, once, and its recovery is said.
func TestTransientFaultsAreNotWarnings(t *testing.T) {
	clk := clock.NewFake(time.Date(2026, 11, 23, 19, 0, 0, 0, time.UTC))
	src := &faulty{faulty: func(scan int) bool { return scan%7 == 0 || scan > 200 && scan <= 300 }}
	m := rack.NewMonitor(clk, 0, 0, src)
	log := &logged{}
	m.Log = slog.New(log)
	for range 400 {
		clk.Advance(rack.DefaultPeriod)
		m.Step(context.Background())
	}
	if n := log.count("WARN rack fault"); n != 1 {
		t.Errorf("%d warnings, want 1 (for the five seconds the reader failed): %s", n, strings.Join(log.recs, "; "))
	}
	if n := log.count("INFO rack zone healthy again"); n != 1 {
		t.Errorf("%d recoveries said, want 1", n)
	}
	if n := log.count("DEBUG rack fault"); n < 25 {
		t.Errorf("%d glitches logged for debugging, want every one (about 30)", n)
	}
}

// TestFailingReadersAreNamed: readers that read worse than the warning rate are named in the
// log (once each) and flagged failing in the health report, before any tile goes wrong; the
// others are not. A reader reading about at the warning rate is not named and cleared over and
// over.
func TestFailingReadersAreNamed(t *testing.T) {
	p, err := config.Load("../../configs/hw/sim-pn532.yaml")
	must(t, err)
	tb, err := simtable.New(p, simtable.Options{Seed: 6})
	must(t, err)
	must(t, tb.SetNoise(simtable.Noise{TagDropout: 0.115}))
	must(t, tb.Put("p1a", rack.In, faces(t, "1B 2B 3B 4C 5C 6C 7D 8D 9D E S W N J RD")...))
	clk := clock.NewFake(time.Date(2026, 11, 25, 19, 0, 0, 0, time.UTC))
	m := rack.NewMonitor(clk, 0, 0, tb.Sources()[0])
	log := &logged{}
	m.Log = slog.New(log)
	for range 4000 {
		m.Step(context.Background())
		clk.Advance(rack.DefaultPeriod)
	}
	if n := log.count("WARN rack reader failing"); n > 15 {
		t.Errorf("15 readers at the warning rate named failing %d times", n)
	}
	named := slices.ContainsFunc(m.Health()[0].Readers, func(r rack.ReaderHealth) bool { return r.Failing })
	if got := m.Motion().Failing; (len(got) > 0) != named {
		t.Errorf("Failing() = %v; a reader failing in the health report: %v", got, named)
	}
	tb.Clear()
	must(t, tb.SetNoise(simtable.Noise{TagDropout: 0.002, WeakReaders: 0.2, WeakDropout: 0.3}))
	must(t, tb.Put("p1a", rack.In, faces(t, "1B 2B 3B 4C 5C 6C 7D 8D 9D E S W N J RD")...))
	m = rack.NewMonitor(clk, 0, 0, tb.Sources()[0])
	log = &logged{}
	m.Log = slog.New(log)
	for range 2000 {
		m.Step(context.Background())
		clk.Advance(rack.DefaultPeriod)
	}
	failing := 0
	for _, rd := range m.Health()[0].Readers {
		weak := rd.ReadRate < 0.8
		if rd.Failing != weak || !weak && rd.ReadRate < 0.99 {
			t.Errorf("%+v", rd)
		}
		if rd.Failing {
			failing++
		}
	}
	if n := log.count("WARN rack reader failing"); failing < 1 || n != failing {
		t.Errorf("%d readers failing, %d named in the log", failing, n)
	}
	// The tracker hears it too: the zone is listed failing (rule breaks wait the grace period).
	if got := m.Motion().Failing; len(got) != 1 || got[0] != (rack.Key{Rack: "p1a", Zone: rack.In}) {
		t.Errorf("Failing() = %v with %d readers failing, want p1a/in", got, failing)
	}
}

// TestMotionNamesTheZonesReweighed: Motion lists a zone reweighed from the scans that weigh a
// tile taken to the snapshot that shows it, moving all the while, and never before the zone's
// first snapshot (when every zone is moving and changing).
func TestMotionNamesTheZonesReweighed(t *testing.T) {
	tb, srcs := simRacks(t, 1)
	must(t, tb.Put("p1a", rack.In, faces(t, "1B 2B 3B 4C 5C 6C 7D 8D 9D E S W N J RD")...))
	clk := clock.NewFake(time.Date(2026, 11, 25, 19, 0, 0, 0, time.UTC))
	m := rack.NewMonitor(clk, 0, 0, srcs...)
	step := func() rack.Motion {
		m.Step(context.Background())
		clk.Advance(rack.DefaultPeriod)
		return m.Motion()
	}
	p1a := rack.Key{Rack: "p1a", Zone: rack.In}
	mo := step()
	if len(mo.Moving) != 8 || len(mo.Changing) != 8 || len(mo.Reweighed) != 0 {
		t.Fatalf("before any snapshot: %+v; want every zone moving and changing, none reweighed", mo)
	}
	for range 100 {
		if mo = step(); len(mo.Moving) == 0 {
			break
		}
	}
	if len(mo.Moving)+len(mo.Changing)+len(mo.Failing)+len(mo.Reweighed) != 0 {
		t.Fatalf("settled: %+v", mo)
	}
	must(t, tb.Take("p1a", rack.In, faces(t, "RD")...))
	reweighed := 0
	for range 100 {
		mo = step()
		if slices.Contains(mo.Reweighed, p1a) {
			reweighed++
			if !slices.Contains(mo.Moving, p1a) {
				t.Fatalf("p1a/in reweighed but not moving: %+v", mo)
			}
		}
		if len(mo.Moving) == 0 {
			break
		}
	}
	if reweighed == 0 || len(mo.Reweighed) != 0 || len(mo.Moving) != 0 {
		t.Errorf("an RD taken: reweighed for %d scans, then %+v; want reweighed, then settled", reweighed, mo)
	}
}
