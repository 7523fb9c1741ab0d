package rack_test

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/hw/rack"
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
