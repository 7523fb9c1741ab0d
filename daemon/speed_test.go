package daemon

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/internal/clock"
	"github.com/siamesetable/siamesed/sim/table"
)

// TestSpeedRunsTheWholeTableFaster: a simulated table at sim.speed 5 runs on a clock five times
// as fast as life, for the players' hands, the racks' scans and settle windows and the tracker
// alike: in four seconds of the wall clock the players make the moves of some twenty seconds,
// more than a table at life speed could in the time, and the table follows every act from its
// sensors, its record the players' own game.
func TestSpeedRunsTheWholeTableFaster(t *testing.T) {
	cfg := Defaults()
	cfg.Camera, cfg.HTTP, cfg.MQTT.Broker = "direct", "127.0.0.1:0", "none"
	cfg.Sim.Faults, cfg.Sim.Noise = 0, table.Noise{}
	cfg.Sim.Speed = 5
	if err := cfg.Check(); err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 11, 24, 19, 0, 0, 0, time.UTC)
	d := &daemon{cfg: cfg, opt: Options{DataDir: t.TempDir(), Log: testLog()}, log: testLog(), events: make(chan event, 64),
		clk: clock.NewScaled(clock.Real{}, start, cfg.Sim.Speed)}
	if err := d.build(); err != nil {
		t.Fatal(err)
	}
	defer d.close()
	const wall = 4 * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), wall)
	defer cancel()
	began := time.Now()
	if err := d.runLive(ctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		t.Fatal(err)
	}
	elapsed := time.Since(began)
	if ran := d.clk.Now().Sub(start); ran < 9*elapsed/2 {
		t.Errorf("the table's clock ran %v in %v of the wall clock, want five times as much", ran, elapsed)
	}
	// At life speed four seconds hold the deal's first three or four tiles (a tile racked is
	// looked at: three paces of 400 ms); five times as fast, some fifteen.
	g := d.table.Game()
	played := len(d.players.Truth().Log())
	t.Logf("%v of the wall clock: the table clock ran %v; the players made %d acts, the table tracked %d", elapsed, d.clk.Now().Sub(start), played, g.Seq)
	if played < 9 {
		t.Errorf("the players made %d acts in %v of the wall clock, want at least 9 at five times life speed", played, elapsed)
	}
	if g.Seq < played-2 {
		t.Errorf("the table tracked %d acts of the players' %d", g.Seq, played)
	}
	if _, same := d.players.SameSoFar(g); !same {
		t.Errorf("the table's record (%d acts) is not the players' game (%d acts)", g.Seq, played)
	}
	if q := d.table.tracker.Questions(); len(q) > 0 {
		t.Errorf("the table asks %d questions: %v", len(q), q[0].Text)
	}
}
