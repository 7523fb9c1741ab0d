package simtable_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/hw/build"
	"github.com/siamesetable/siamesed/hw/config"
	"github.com/siamesetable/siamesed/hw/rack"
	"github.com/siamesetable/siamesed/hw/simtable"
	"github.com/siamesetable/siamesed/internal/clock"
)

var t0 = time.Date(2026, 11, 22, 8, 0, 0, 0, time.UTC)

// world is a simulated table, the rig the real drivers make of it, and a monitor on a fake clock.
type world struct {
	t     testing.TB
	p     *config.Profile
	table *simtable.Table
	rig   *build.Rig
	clk   *clock.Fake
	mon   *rack.Monitor
	taps  []*tap
	// latest is the last snapshot of each zone; before, what each zone held at the scan before.
	latest map[rack.Key]rack.Snapshot
	before map[rack.Key]tile.Counts
}

func load(t testing.TB, name string) *config.Profile {
	t.Helper()
	p, err := config.Load("../../configs/hw/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func newWorld(t testing.TB, p *config.Profile, o simtable.Options) *world {
	t.Helper()
	tb, err := simtable.New(p, o)
	if err != nil {
		t.Fatal(err)
	}
	clk := clock.NewFake(t0)
	rig, err := build.Build(p, tb.Host(), tb.Enrolment(), tb.Calibrations(), build.Options{NoWait: true, Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := rig.Close(); err != nil {
			t.Error(err)
		}
	})
	for _, r := range rig.Readers {
		if r.Err != nil {
			t.Fatalf("reader %s/%s did not start: %v", r.Rack, r.Slot, r.Err)
		}
	}
	w := &world{t: t, p: p, table: tb, rig: rig, clk: clk, latest: map[rack.Key]rack.Snapshot{}, before: map[rack.Key]tile.Counts{}}
	var srcs []rack.Source
	for _, s := range rig.Sources {
		tp := &tap{Source: s, faults: map[rack.FaultKind]int{}}
		w.taps = append(w.taps, tp)
		srcs = append(srcs, tp)
	}
	w.mon = rack.NewMonitor(clk, p.Settle, p.Period, srcs...)
	return w
}

// tap counts the faults and unsure weights a source's observations carry, and the most of each
// face any one observation of a zone named.
type tap struct {
	rack.Source
	mu     sync.Mutex
	faults map[rack.FaultKind]int
	unsure int
	most   map[rack.Zone]*tile.Counts
}

func (tp *tap) Scan(ctx context.Context) []rack.Observation {
	obs := tp.Source.Scan(ctx)
	tp.mu.Lock()
	defer tp.mu.Unlock()
	if tp.most == nil {
		tp.most = map[rack.Zone]*tile.Counts{rack.In: {}, rack.On: {}}
	}
	for _, o := range obs {
		for f, n := range o.Tiles {
			tp.most[o.Zone][f] = max(tp.most[o.Zone][f], n)
		}
		for _, f := range o.Faults {
			tp.faults[f.Kind]++
		}
		if o.Weighed && !o.WeightSure {
			tp.unsure++
		}
	}
	return obs
}

func (w *world) faults(k rack.FaultKind) int {
	n := 0
	for _, tp := range w.taps {
		n += tp.faults[k]
	}
	return n
}

// step scans n times, one period apart, checking every snapshot against the table.
func (w *world) step(n int) []rack.Snapshot {
	w.t.Helper()
	var out []rack.Snapshot
	for range n {
		for _, s := range w.mon.Step(context.Background()) {
			w.check(s)
			w.latest[rack.Key{Rack: s.Rack, Zone: s.Zone}] = s
			out = append(out, s)
		}
		for _, r := range w.table.Racks() {
			for _, z := range rack.Zones {
				w.before[rack.Key{Rack: r, Zone: z}], _ = w.table.Contents(r, z)
			}
		}
		w.clk.Advance(w.p.Period)
	}
	return out
}

// settle scans until every zone has settled: a settle window and a bit more, and until no
// zone is being decided (at most ten seconds).
func (w *world) settle() []rack.Snapshot {
	w.t.Helper()
	out := w.step(int(w.p.Settle/w.p.Period) + 3)
	for i := 0; i < int(10*time.Second/w.p.Period) && len(w.mon.Motion().Moving) > 0; i++ {
		out = append(out, w.step(1)...)
	}
	return out
}

// check holds a settled snapshot to what is really on the table: no tile is ever named that is
// not there; an OK snapshot names exactly what the readers can reach; a weighed zone counts
// every tile. The load cell's driver takes the median of its last three conversions, so a count
// shows a move a scan late: a snapshot may be true of the zone as it was at the scan before.
func (w *world) check(s rack.Snapshot) {
	w.t.Helper()
	now, err := w.table.Contents(s.Rack, s.Zone)
	if err != nil {
		w.t.Fatal(err)
	}
	vis, _ := w.table.Visible(s.Rack, s.Zone)
	got := s.Counts()
	truth, before := now, w.before[rack.Key{Rack: s.Rack, Zone: s.Zone}]
	if s.WeightCount >= 0 && s.Count != now.Total() && s.Count == before.Total() {
		truth = before
	}
	if !truth.Contains(&got) {
		w.t.Fatalf("%v names a tile that is not there (truth %v)", s, truth)
	}
	if s.WeightCount >= 0 && s.Count != truth.Total() {
		w.t.Fatalf("%v counts %d tiles, there are %d", s, s.Count, truth.Total())
	}
	if s.Quality == rack.OK && (got != truth || truth == now && got != vis) {
		w.t.Fatalf("OK snapshot %v, but the truth is %v and the readers reach %v", s, truth, vis)
	}
}

// snap is the latest snapshot of a zone.
func (w *world) snap(r string, z rack.Zone) rack.Snapshot {
	w.t.Helper()
	s, ok := w.latest[rack.Key{Rack: r, Zone: z}]
	if !ok {
		w.t.Fatalf("%s/%s never settled", r, z)
	}
	return s
}

func (w *world) noViolations() {
	w.t.Helper()
	if err := w.table.Violations(); err != nil {
		w.t.Fatalf("the drivers broke the chips' protocol: %v", err)
	}
}

func faces(t testing.TB, s string) []tile.Face {
	t.Helper()
	fs, err := tile.ParseList(s)
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
