package daemon

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/hw/rack"
	"github.com/siamesetable/siamesed/hw/simtable"
	"github.com/siamesetable/siamesed/internal/clock"
	"github.com/siamesetable/siamesed/journal"
	"github.com/siamesetable/siamesed/sim/players"
	"github.com/siamesetable/siamesed/sim/table"
)

// fastConfig is a soak run of the simulated table: a simulated clock, n games, the racks read
// without emulated chips and the simulated camera's reports without frames (sim.racks and
// camera: direct, the soak's fast path, four times as fast under -race;
// TestSimulatedGamesAreTrackedFromTheSensors reads the chips, vision_test.go runs the real
// camera pipeline).
func fastConfig(n int, faults float64) Config {
	c := Defaults()
	c.Camera = "direct"
	c.Sim.Racks = "direct"
	c.HTTP = "127.0.0.1:0"
	c.Sim.Fast, c.Sim.Games, c.Sim.Faults = true, n, faults
	c.Sim.Noise = table.Noise{Noise: simtable.Noise{TagDropout: 0.002, BusError: 0.00002, GhostTag: 0.0002, WeightSpike: 0.001}, UnknownDiscard: 0.05}
	return c
}

// simRun is a fast simulated run kept for inspection.
type simRun struct {
	d     *daemon
	games []finished // each game as the players played it and as the table tracked it
}

type finished struct {
	id      string
	truth   game.State
	tracked game.State
	log     []game.Action
	faults  int // committed on purpose
}

// runSim runs cfg on a simulated clock in this process, recording every finished game.
func runSim(t testing.TB, cfg Config, dataDir string) *simRun {
	t.Helper()
	log := slog.New(slog.DiscardHandler)
	if os.Getenv("DAEMON_DEBUG") != "" {
		log = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	d := &daemon{cfg: cfg, opt: Options{DataDir: dataDir, Log: log}, log: log, clk: clock.NewFake(time.Date(2026, 11, 23, 19, 0, 0, 0, time.UTC))}
	if err := d.build(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.close)
	r := &simRun{d: d}
	// The players compare each game with their own once the table has ended it.
	d.players.OnCheck = func(id string, _ error) {
		truth := d.players.Truth()
		r.games = append(r.games, finished{id: id, truth: truth.State, tracked: d.table.Game(), log: truth.Log(), faults: len(truth.Deliberate)})
	}
	if err := d.runFast(context.Background()); err != nil && err != errDone {
		t.Fatal(err)
	}
	return r
}

// TestSimulatedGamesAreTrackedFromTheSensors: virtual players play whole games on the simulated
// table (real drivers on emulated chips, sensor noise, the simulated camera); the daemon follows
// them from the sensors alone and must end each game exactly as it was played, with no
// infraction nobody committed.
func TestSimulatedGamesAreTrackedFromTheSensors(t *testing.T) {
	n := 4
	if testing.Short() {
		n = 2
	}
	cfg := fastConfig(n, 0)
	cfg.Sim.Racks = "chips"
	r := runSim(t, cfg, t.TempDir())
	r.trackedExactly(t, n)
	if fw := r.d.rig.Readers[0].Firmware; fw == "simulated" {
		t.Errorf("the first reader is %q: the racks were not read through the chips", fw)
	}
}

// TestSimulatedGamesOnDirectRacks: the same table read without chips or drivers (sim.racks:
// direct, the soak's fast path) is tracked as exactly.
func TestSimulatedGamesOnDirectRacks(t *testing.T) {
	cfg := fastConfig(2, 0)
	cfg.Sim.Seed = 2
	r := runSim(t, cfg, t.TempDir())
	r.trackedExactly(t, 2)
	if fw := r.d.rig.Readers[0].Firmware; fw != "simulated" {
		t.Errorf("the first reader is %q, not the direct path's", fw)
	}
	// Acts the sensors showed are timed in table time, from the first sensor to the play: at
	// least a rack's settle, well under the time the table asks after.
	if lag := r.d.table.ShownToAct(); lag.Count == 0 || lag.P50 <= 0 || lag.Max > 30*time.Second {
		t.Errorf("sensors to act %+v", lag)
	}
	// Each reader's read rate is in the health report (/api/health, MQTT health).
	h := r.d.monitor.Health()
	if len(h) != 8 {
		t.Fatalf("health of %d zones", len(h))
	}
	for _, z := range h {
		if len(z.Readers) != map[rack.Zone]int{rack.In: 15, rack.On: 4}[z.Zone] {
			t.Errorf("%s/%s: %d readers in the health report", z.Rack, z.Zone, len(z.Readers))
		}
		for _, rd := range z.Readers {
			if rd.Failing || rd.Polls > 0 && rd.ReadRate < 0.95 {
				t.Errorf("%s/%s %+v at the default noise", z.Rack, z.Zone, rd)
			}
		}
	}
}

// trackedExactly checks that n games finished, each ended as it was played, and no fault was
// found that was not committed on purpose.
func (r *simRun) trackedExactly(t *testing.T, n int) {
	t.Helper()
	if len(r.games) != n {
		t.Fatalf("%d games finished, want %d", len(r.games), n)
	}
	for _, g := range r.games {
		if err := players.SameGame(g.tracked, g.truth); err != nil {
			t.Errorf("game %s: %v", g.id, err)
		}
		if found := players.FaultCount(g.tracked); found != g.faults {
			t.Errorf("game %s: %d faults found, %d committed on purpose", g.id, found, g.faults)
		}
	}
}

// TestSimulatedGameEqualsItsJournalReplayed: every game the daemon played, replayed from its
// journal by `siamesed replay`'s code, ends exactly as the daemon ended it.
func TestSimulatedGameEqualsItsJournalReplayed(t *testing.T) {
	dir := t.TempDir()
	r := runSim(t, fastConfig(2, 0.01), dir)
	if len(r.games) != 2 {
		t.Fatalf("%d games", len(r.games))
	}
	for _, g := range r.games {
		jg, err := journal.Load(filepath.Join(dir, "games", g.id+".jsonl"), journal.Sources{})
		if err != nil {
			t.Fatal(err)
		}
		if jg.State.Digest() != g.tracked.Digest() {
			t.Fatalf("game %s: replayed %d acts to %+v, the daemon played %d to %+v", g.id, jg.State.Seq, jg.State.Result, g.tracked.Seq, g.tracked.Result)
		}
	}
}
