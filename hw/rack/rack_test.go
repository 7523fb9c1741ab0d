package rack_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/hw/config"
	"github.com/siamesetable/siamesed/hw/loadcell"
	"github.com/siamesetable/siamesed/hw/rack"
	"github.com/siamesetable/siamesed/hw/simtable"
	"github.com/siamesetable/siamesed/internal/clock"
)

var t0 = time.Date(2026, 11, 22, 8, 0, 0, 0, time.UTC)

func faces(t testing.TB, s string) []tile.Face {
	t.Helper()
	fs, err := tile.ParseList(s)
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

// simRacks is a simulated table on the kind sim profile (configs/hw/sim.yaml: racks p1a to p2b,
// one reader a zone that reaches every tile, a load cell under each), read directly, and its
// racks' sources.
func simRacks(t testing.TB, seed uint64) (*simtable.Table, []rack.Source) {
	t.Helper()
	p, err := config.Load("../../configs/hw/sim.yaml")
	if err != nil {
		t.Fatal(err)
	}
	tb, err := simtable.New(p, simtable.Options{Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return tb, tb.Sources()
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestMonitorWaitsForTheWindow(t *testing.T) {
	clk := clock.NewFake(t0)
	tb, srcs := simRacks(t, 1)
	must(t, tb.Put("p1a", rack.In, faces(t, "1B 1B 2C")...))
	m := rack.NewMonitor(clk, 300*time.Millisecond, 50*time.Millisecond, srcs[0])
	ctx := context.Background()
	var got []rack.Snapshot
	for i := 0; i <= 6; i++ { // 0, 50, .., 300 ms
		got = append(got, m.Step(ctx)...)
		if i < 6 && len(got) > 0 {
			t.Fatalf("snapshot after %v, before the 300ms window: %v", time.Duration(i)*50*time.Millisecond, got)
		}
		clk.Advance(50 * time.Millisecond)
	}
	if len(got) != 2 { // both zones settle at 300 ms
		t.Fatalf("got %d snapshots, want 2: %v", len(got), got)
	}
	in := got[0]
	if in.Zone != rack.In || tile.Format(in.Tiles) != "1B 1B 2C" || in.Count != 3 || in.Quality != rack.OK || !in.At.Equal(t0.Add(300*time.Millisecond)) {
		t.Fatalf("in-zone snapshot %v at %v", in, in.At)
	}
	// Nothing changes: nothing more is sent.
	for i := 0; i < 20; i++ {
		clk.Advance(50 * time.Millisecond)
		if s := m.Step(ctx); len(s) != 0 {
			t.Fatalf("repeat snapshot %v", s)
		}
	}
}

// TestTransitAndHandProduceNothing: a tile passing over a reader (read for one poll) and a
// hand resting on the rack (its weight never a whole number of tiles) make no snapshot; when the
// hand lifts, the zone settles.
func TestTransitAndHandProduceNothing(t *testing.T) {
	clk := clock.NewFake(t0)
	tb, srcs := simRacks(t, 1)
	m := rack.NewMonitor(clk, 0, 0, srcs[0])
	ctx := context.Background()
	step := func(n int) (out []rack.Snapshot) {
		for i := 0; i < n; i++ {
			out = append(out, m.Step(ctx)...)
			clk.Advance(50 * time.Millisecond)
		}
		return out
	}
	step(10)                 // settle the empty rack
	for i := 0; i < 5; i++ { // a tile carried past: in reach for one poll
		must(t, tb.Put("p1a", rack.In, tile.Joker))
		m.Step(ctx)
		must(t, tb.Take("p1a", rack.In, tile.Joker))
		clk.Advance(50 * time.Millisecond)
		if s := step(12); len(s) != 0 {
			t.Fatalf("tile in transit produced %v", s)
		}
	}
	// A hand over the rack while a tile is placed: nothing until the hand lifts and 300 ms pass.
	must(t, tb.SetHand("p1a", true))
	must(t, tb.Put("p1a", rack.On, faces(t, "RD RD RD")...))
	if s := step(40); len(s) != 0 {
		t.Fatalf("hand over the rack produced %v", s)
	}
	must(t, tb.SetHand("p1a", false))
	s := step(8)
	if len(s) != 1 || s[0].Zone != rack.On || s[0].Count != 3 {
		t.Fatalf("after the hand lifted: %v", s)
	}
}

func TestRunWithFakeClock(t *testing.T) {
	clk := clock.NewFake(t0)
	tb, srcs := simRacks(t, 1)
	must(t, tb.Put("p1a", rack.In, faces(t, "N N N")...))
	m := rack.NewMonitor(clk, 300*time.Millisecond, 100*time.Millisecond, srcs[0])
	ctx, cancel := context.WithCancel(context.Background())
	out := make(chan rack.Snapshot, 4)
	done := make(chan error)
	go func() { done <- m.Run(ctx, func(s rack.Snapshot) { out <- s }) }()
	deadline := time.Now().Add(5 * time.Second)
	for len(out) < 2 && time.Now().Before(deadline) {
		waitPending(t, clk)
		clk.Advance(100 * time.Millisecond)
	}
	// Scans 100 ms apart: the tags are judged by the fourth read, the load cell's count by its
	// fifth reading (see TestFirstSnapshot), at 400 ms.
	s := <-out
	if !s.At.Equal(t0.Add(400 * time.Millisecond)) {
		t.Fatalf("settled at %v, want t0+400ms", s.At.Sub(t0))
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
}

// waitPending waits (without sleeping on the fake clock) until Run has parked on its timer.
func waitPending(t *testing.T, clk *clock.Fake) {
	t.Helper()
	for i := 0; clk.Pending() == 0; i++ {
		if i > 1e7 {
			t.Fatal("Run never armed its timer")
		}
		time.Sleep(time.Microsecond) // real time, only to yield to Run's goroutine
	}
}

type reader struct {
	uids []string
	err  error
}

func (r reader) ReadTags() ([]string, error) { return r.uids, r.err }

type enrol map[string]tile.Face

func (e enrol) Face(uid string) (tile.Face, bool) { f, ok := e[uid]; return f, ok }

type weigher struct {
	n   loadcell.Count
	err error
}

func (w weigher) Count() (loadcell.Count, error) { return w.n, w.err }

func TestScannerFaults(t *testing.T) {
	en := enrol{"AA": tile.Joker, "BB": tile.Red, "CC": tile.Red}
	sc := &rack.Scanner{Name: "R2", Enrolled: en,
		Slots: []rack.Slot{
			{Name: "in-00", Zone: rack.In, Reader: reader{uids: []string{"AA"}}},
			{Name: "in-01", Zone: rack.In, Reader: reader{err: errors.New("pn532: write: i2c: NACK")}},
			{Name: "in-02", Zone: rack.In, Reader: reader{err: rack.ErrSilent}},
			{Name: "in-03", Zone: rack.In, Reader: reader{uids: []string{"EE"}}},
			{Name: "on-00", Zone: rack.On, Reader: reader{uids: []string{"BB", "CC"}}},
		},
		Cells: map[rack.Zone]rack.Weigher{
			rack.In: weigher{n: loadcell.Count{Tiles: 4, Sure: true}},
			rack.On: weigher{n: loadcell.Count{Tiles: 3, Sure: true}},
		},
	}
	obs := sc.Scan(context.Background())
	in, on := obs[0], obs[1]
	want := map[string]rack.FaultKind{"in-01": rack.BusError, "in-02": rack.Silent, "in-03": rack.Unenrolled}
	if len(in.Faults) != len(want) {
		t.Fatalf("in faults %v", in.Faults)
	}
	for _, f := range in.Faults {
		if want[f.Reader] != f.Kind || f.Rack != "R2" || f.Zone != rack.In {
			t.Errorf("fault %v", f)
		}
	}
	if in.Tiles.Total() != 1 || in.Tiles[tile.Joker] != 1 {
		t.Fatalf("in tiles %v: a tile was invented or lost", in.Tiles)
	}
	if len(on.Faults) != 1 || on.Faults[0].Kind != rack.WeightMismatch {
		t.Fatalf("on faults %v", on.Faults)
	}
	// Settle both and check the snapshot qualities.
	clk := clock.NewFake(t0)
	m := rack.NewMonitor(clk, 0, 0, sc)
	var snaps []rack.Snapshot
	for i := 0; i < 8; i++ {
		snaps = append(snaps, m.Step(context.Background())...)
		clk.Advance(50 * time.Millisecond)
	}
	if len(snaps) != 2 || snaps[0].Quality != rack.Degraded || snaps[1].Quality != rack.Disagree {
		t.Fatalf("snapshots %v", snaps)
	}
	if snaps[0].TagCount != 1 || snaps[0].Count != 4 {
		t.Fatalf("degraded snapshot %v: want 1 tile named, 4 counted", snaps[0])
	}
	h := m.Health()
	if len(h) != 2 || !h[0].Degraded || h[0].Zone != rack.In || len(h[0].Faults) != 3 {
		t.Fatalf("health %+v", h)
	}
}

func TestLoadCellsOnlyRack(t *testing.T) {
	sc := &rack.Scanner{Name: "R3", Cells: map[rack.Zone]rack.Weigher{
		rack.In: weigher{n: loadcell.Count{Tiles: 13, Sure: true}},
		rack.On: weigher{err: errors.New("loadcell: reading 1 of 5: timed out")},
	}}
	clk := clock.NewFake(t0)
	m := rack.NewMonitor(clk, 0, 0, sc)
	var snaps []rack.Snapshot
	for i := 0; i < 8; i++ {
		snaps = append(snaps, m.Step(context.Background())...)
		clk.Advance(50 * time.Millisecond)
	}
	if len(snaps) != 2 || snaps[0].Quality != rack.WeightOnly || snaps[0].Count != 13 || len(snaps[0].Tiles) != 0 {
		t.Fatalf("snapshots %v", snaps)
	}
	if snaps[1].Quality != rack.Degraded || snaps[1].Faults[0].Kind != rack.LoadCellError {
		t.Fatalf("on zone %v", snaps[1])
	}
}

func TestOneFailingRackDoesNotStopTheOthers(t *testing.T) {
	clk := clock.NewFake(t0)
	tb, srcs := simRacks(t, 1)
	must(t, tb.Put("p1a", rack.In, faces(t, "3D 3D")...))
	must(t, tb.Put("p1b", rack.In, faces(t, "5B")...))
	must(t, tb.SetSilent("p1b", "in-all", true))
	m := rack.NewMonitor(clk, 0, 0, srcs[0], srcs[1])
	got := map[string]rack.Snapshot{}
	for i := 0; i < 8; i++ {
		for _, s := range m.Step(context.Background()) {
			got[s.Rack+"/"+string(s.Zone)] = s
		}
		clk.Advance(50 * time.Millisecond)
	}
	if s := got["p1a/in"]; s.Quality != rack.OK || tile.Format(s.Tiles) != "3D 3D" {
		t.Fatalf("healthy rack: %v", s)
	}
	s := got["p1b/in"]
	if s.Quality != rack.Degraded || len(s.Tiles) != 0 || s.Count != 1 || s.Faults[0].Kind != rack.Silent {
		t.Fatalf("silent rack: %v (no tile may be named, the weight still counts 1)", s)
	}
	for _, h := range m.Health() {
		if h.Degraded != (h.Rack == "p1b" && h.Zone == rack.In) {
			t.Errorf("health %+v", h)
		}
	}
}
