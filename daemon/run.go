package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/siamesetable/siamesed/configs"
	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/engine/track"
	"github.com/siamesetable/siamesed/hw/build"
	"github.com/siamesetable/siamesed/hw/rack"
	"github.com/siamesetable/siamesed/hw/simtable"
	"github.com/siamesetable/siamesed/internal/clock"
	"github.com/siamesetable/siamesed/mqtt"
	"github.com/siamesetable/siamesed/setup"
	"github.com/siamesetable/siamesed/sim/players"
	"golang.org/x/sync/errgroup"
)

// Options are what the command line gives the daemon besides its configuration.
type Options struct {
	DataDir string
	Log     *slog.Logger
	// Host opens real buses and pins (periph after host.Init); simulated profiles never call it.
	Host func() (build.Host, error)
	// Notify tells a service manager (systemd) the daemon is ready and alive; nil: nobody.
	Notify Notifier
	// Listening, when set, hears the display port's address once it listens.
	Listening chan<- string
	// Start is the simulated clock's start in fast mode (zero: now).
	Start time.Time
	// OwnerCreated hears the table owner's password when the first start makes it, for
	// siamesed run to print once with the set-up page's address (it is never logged).
	OwnerCreated func(password string)
	// ConfigFile names the configuration file, for the set-up page.
	ConfigFile string
	// SimTable, when set, hears a simulated table once it is laid out: a test's hands set
	// tiles on its readers as a person would (setup_racks.go).
	SimTable func(*simtable.Table)
	// SimCamera, when set, hears how to lay faces alone in the simulated camera's discard area
	// (camera: sim): a test's hands lay a tile to enrol on the set-up page as a person would.
	SimCamera func(show func(...tile.Face) error)
}

// Health is the sensors' state, per rack zone and for the camera and journal.
type Health struct {
	Schema  mqtt.SchemaVersion `json:"schema"` // docs/mqtt.md
	Racks   []RackHealth       `json:"racks"`
	Camera  string             `json:"camera"`
	Journal string             `json:"journal"`
	Games   int                `json:"games_finished"`
	// ActLatency: settled observation to journaled, published act, over the latest acts.
	ActLatency LatencyFigures `json:"act_latency"`
}

// daemon is one run: everything built from the configuration.
type daemon struct {
	cfg  Config
	opt  Options
	ctx  context.Context // the run's: ends when the daemon stops
	wall clock.Clock     // people's time (the set-up page's sessions), whatever the table's clock
	// configured is the configuration file's, before the set-up page's saved settings;
	// started what the daemon was built with; applied when the latest saved settings apply.
	configured Config
	started    started
	applied    *setup.Applied
	setup      *setup.Server
	racks      *setupRacks // the set-up page's Racks section (nil before it starts)
	log        *slog.Logger
	clk        clock.Clock
	table      *Table
	rig        *rig
	monitor    *rack.Monitor
	camera     camera
	players    *players.Players // the virtual players of a simulated table, or nil
	board      board
	events     chan event   // inputs to the table loop from other goroutines (MQTT commands)
	mqtt       *bridge      // nil with mqtt.broker: none
	beat       atomic.Int64 // when the table loop last went round (wall clock, for the watchdog)
	tour       *tournament  // nil unless the configuration names an event
}

// Run runs the daemon until ctx ends (SIGINT, SIGTERM), the simulated players have played the
// games asked for, or something fails that must stop it (a journal that cannot be written).
func Run(ctx context.Context, cfg Config, opt Options) error {
	if opt.Log == nil {
		opt.Log = slog.New(slog.DiscardHandler)
	}
	d := &daemon{cfg: cfg, configured: cfg, opt: opt, log: opt.Log, events: make(chan event, 64), wall: clock.Real{}, ctx: ctx}
	saved, err := d.savedSettings()
	if err != nil {
		return fmt.Errorf("daemon: %w", err)
	}
	if saved != nil {
		d.cfg = withSaved(cfg, *saved, opt.DataDir)
		cfg = d.cfg
		d.log.Info("the set-up page's saved settings win over the configuration's", "file", setup.SettingsFile(opt.DataDir),
			"rules", saved.Rules, "card", saved.CardName, "names", saved.Names)
	}
	begun := time.Now() // wall time, for the soak's games per second
	if cfg.Sim.Fast {
		start := opt.Start
		if start.IsZero() {
			start = time.Now()
		}
		d.clk = clock.NewFake(start)
	} else {
		d.clk = clock.Real{}
		if cfg.Sim.Speed != 1 {
			d.clk = clock.NewScaled(clock.Real{}, time.Now(), cfg.Sim.Speed)
		}
	}
	if err := d.build(); err != nil {
		return err
	}
	defer d.close()
	d.started = started{rules: d.table.rules, card: d.table.card}
	g, ctx := errgroup.WithContext(ctx)
	d.ctx = ctx
	if d.mqtt, err = d.startMQTT(ctx, g); err != nil {
		return err
	}
	defer d.mqtt.close()
	if d.setup, err = d.startSetup(); err != nil {
		return err
	}
	if d.mqtt != nil {
		d.table.Publish = func(s State) { d.board.set(s); d.mqtt.state(d.table, s) }
		d.table.OnSteps = func(game string, steps []track.Step) { d.mqtt.steps(d.table, game, steps) }
		d.mqtt.state(d.table, d.table.State()) // before the table loop starts
	}
	g.Go(func() error {
		return serveHTTP(ctx, cfg.HTTP, d.tour.routes(d.routes(), d.board.get), opt.Listening, d.log.With("part", "http"))
	})
	g.Go(func() error { return d.tour.run(ctx) })
	if opt.Notify != nil {
		d.beat.Store(time.Now().UnixNano())
		g.Go(func() error { feedWatchdog(ctx, opt.Notify, &d.beat, cfg.Stall.D()); return nil })
	}
	g.Go(func() error {
		defer func() {
			if opt.Notify != nil {
				_ = opt.Notify.Stopping()
			}
		}()
		if opt.Notify != nil {
			if err := opt.Notify.Ready(); err != nil {
				d.log.Warn("systemd notify", "err", err)
			}
		}
		var err error
		if cfg.Sim.Fast {
			err = d.runFast(ctx)
		} else {
			err = d.runLive(ctx)
		}
		if errors.Is(err, errDone) {
			return errDone
		}
		return err
	})
	err = g.Wait()
	if st := d.simStats(); st.Games > 0 {
		d.log.Info("simulated table", "summary", st.String(), "games", st.Games, "exact", st.Exact, "committed", st.Committed,
			"found", st.Found, "false", st.False, "missed", st.Missed, "hand_entered", st.HandEntered, "helped", st.Helped, "racks_right", st.RacksRight, "taken_back", st.TakenBack, "gave_in", st.GaveIn, "objected", st.Objected, "wall", time.Since(begun).Round(time.Millisecond),
			"games_per_s", fmt.Sprintf("%.2f", float64(st.Games)/time.Since(begun).Seconds()))
	}
	if lat := d.table.Latency(); lat.Count > 0 {
		d.log.Info("observation to act", "observations", lat.Count, "p50", lat.P50, "p99", lat.P99, "max", lat.Max)
	}
	if lag := d.table.ShownToAct(); lag.Count > 0 {
		legal := d.table.ShownToLegalAct()
		d.log.Info("sensors to act (table time)", "acts", lag.Count, "p50", lag.P50, "p99", lag.P99, "max", lag.Max,
			"legal_acts", legal.Count, "legal_p50", legal.P50, "legal_p99", legal.P99, "legal_max", legal.Max)
		settled, settledLegal := d.table.SettledToAct(), d.table.SettledToLegalAct()
		d.log.Info("settle to act (table time)", "acts", settled.Count, "p50", settled.P50, "p99", settled.P99, "max", settled.Max,
			"legal_p50", settledLegal.P50, "legal_p99", settledLegal.P99, "legal_max", settledLegal.Max)
	}
	if errors.Is(err, errDone) || errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// errDone ends a run whose simulated games are all played.
var errDone = errors.New("the games asked for are played")

// build opens the rules, card, racks, camera, journal and history.
func (d *daemon) build() (err error) {
	rules, err := configs.LoadRuleset(d.cfg.Rules)
	if err != nil {
		return fmt.Errorf("daemon: rules: %w", err)
	}
	card, err := configs.LoadCardFor(d.cfg.Card, rules)
	if err != nil {
		return fmt.Errorf("daemon: %w", err)
	}
	host := d.opt.Host
	if host == nil {
		host = func() (build.Host, error) { return nil, errors.New("daemon: no hardware host on this machine") }
	}
	if d.rig, err = buildRig(d.cfg, rules.TileSet(), d.opt.DataDir, d.clk, host); err != nil {
		return err
	}
	if d.rig.table == nil && d.cfg.Sim.Speed != 1 {
		return fmt.Errorf("daemon: sim.speed %g: only a simulated table runs faster than life (hardware %s is real)", d.cfg.Sim.Speed, d.cfg.Hardware)
	}
	l, err := newLayout(d.cfg.Seats, rules.Players, d.rig.profile)
	if err != nil {
		return fmt.Errorf("daemon: %w", err)
	}
	// The camera before the journal: a camera that cannot start stops the daemon before a new
	// game is begun.
	if d.camera, err = d.newCamera(rules); err != nil {
		return err
	}
	defer func() {
		if err != nil && d.camera != nil {
			_ = d.camera.close()
		}
	}()
	if d.tour, err = openTournament(d.cfg, rules, d.opt.DataDir, d.log); err != nil {
		return err
	}
	d.table, err = openTable(d.cfg, d.opt.DataDir, tableDeps{rules: rules, card: card, layout: l, onRecord: d.tour.record}, d.clk.Now(), d.log)
	if err != nil {
		return err
	}
	d.table.Publish = d.board.set
	d.board.set(d.table.State())
	d.monitor = d.rig.Monitor(d.clk)
	d.monitor.Log = d.log
	if d.rig.table != nil && d.cfg.Sim.Players == "virtual" {
		return d.seatPlayers(rules, card.Card, l)
	}
	return nil
}

func (d *daemon) close() {
	if d.camera != nil {
		if err := d.camera.close(); err != nil {
			d.log.Warn("camera close", "err", err)
		}
	}
	if err := d.table.Close(); err != nil {
		d.log.Error("journal close", "err", err)
	}
	if err := d.tour.close(); err != nil {
		d.log.Warn("tournament ledger close", "err", err)
	}
	if err := d.rig.Close(); err != nil {
		d.log.Warn("racks close", "err", err)
	}
}

// event is one input to the table loop.
type event struct {
	snap *rack.Snapshot
	cmd  *track.Command
	err  chan error
	// vet: a command from MQTT, refused if it breaks a rule (mqtt.Vet) rather than recorded
	// as an infraction: a phone is not the table.
	vet bool
	// do runs on the table loop for another goroutine (the set-up page), which waits on done.
	do   func()
	done chan struct{}
}

// runLive runs in real time: the racks are scanned by their own goroutine; the table, the
// camera's reports and the virtual players' hands take turns in the table loop.
func (d *daemon) runLive(ctx context.Context) error {
	events := d.events
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		err := d.monitor.Run(ctx, func(s rack.Snapshot) {
			select {
			case events <- event{snap: &s}:
			case <-ctx.Done():
			}
		})
		if errors.Is(err, context.Canceled) {
			return nil
		}
		return err
	})
	g.Go(func() error {
		tick, tc := d.clk.NewTimer(100 * time.Millisecond)
		defer tick.Stop()
		next := d.clk.Now()
		for {
			select {
			case <-ctx.Done():
				return nil
			case e := <-events:
				if err := d.handle(e); err != nil {
					return err
				}
			case <-tc:
				tick.Reset(100 * time.Millisecond)
				if err := d.tick(d.clk.Now()); err != nil {
					return err
				}
				if now := d.clk.Now(); d.players != nil && !now.Before(next) && d.playersMayDeal() {
					pace, done, err := d.players.Step(d.table, now, d.say)
					if err != nil {
						return err
					}
					if done {
						return errDone
					}
					next = now.Add(pace)
				}
			}
		}
	})
	return g.Wait()
}

// runFast runs a soak: one goroutine, a simulated clock stepped a scan period at a time, as
// fast as the machine goes.
func (d *daemon) runFast(ctx context.Context) error {
	clk := d.clk.(*clock.Fake)
	period := d.rig.profile.Period
	next := clk.Now()
	for ctx.Err() == nil {
		now := clk.Now()
		if d.players != nil && !now.Before(next) && d.playersMayDeal() {
			pace, done, err := d.players.Step(d.table, now, d.say)
			if err != nil {
				return err
			}
			if done {
				return errDone
			}
			next = now.Add(pace)
		}
		if err := d.drain(); err != nil {
			return err
		}
		clk.Advance(period)
		for _, s := range d.monitor.Step(ctx) {
			if err := d.handle(event{snap: &s}); err != nil {
				return err
			}
		}
		if err := d.tick(clk.Now()); err != nil {
			return err
		}
	}
	return nil
}

// drain handles the events waiting from other goroutines, without waiting for more (the
// soak's loop, which has no time to wait in).
func (d *daemon) drain() error {
	for {
		select {
		case e := <-d.events:
			if err := d.handle(e); err != nil {
				return err
			}
		default:
			return nil
		}
	}
}

// handle gives one event to the table.
func (d *daemon) handle(e event) error {
	switch {
	case e.do != nil:
		e.do()
		close(e.done)
	case e.snap != nil:
		if d.racks.hold(*e.snap) { // the tag enrolment walk runs (setup_racks.go)
			return nil
		}
		return d.table.Rack(*e.snap)
	case e.cmd != nil:
		var err error
		if e.vet {
			err = mqtt.Vet(d.table.Game(), *e.cmd)
		}
		if err == nil {
			err = d.table.Command(*e.cmd)
		}
		if e.err != nil {
			e.err <- err
			if err != nil && !errors.Is(err, track.ErrCommand) {
				return err // the journal failed: the daemon stops rather than play on unrecorded
			}
			return nil
		}
		if errors.Is(err, track.ErrCommand) {
			d.log.Info("command refused", "seat", e.cmd.Seat, "kind", e.cmd.Kind, "err", err)
			return nil
		}
		return err
	}
	return nil
}

// say is how the virtual players speak: their commands go to the table like any player's.
func (d *daemon) say(c track.Command) error {
	err := d.table.Command(c)
	if errors.Is(err, track.ErrCommand) {
		d.log.Info("command refused", "seat", c.Seat, "kind", c.Kind, "err", err)
		return nil
	}
	return err
}

// tick delivers the camera's due reports, tells the table the time and refreshes the health.
func (d *daemon) tick(now time.Time) error {
	d.beat.Store(time.Now().UnixNano())
	if err := d.racks.release(d.table); err != nil {
		return err
	}
	camera := d.cfg.Camera
	if d.camera != nil {
		st, changed := d.camera.health(now)
		if changed {
			if err := d.table.Camera(st); err != nil {
				return err
			}
		}
		camera = describe(camera, st)
		for _, r := range d.camera.due(now) {
			if err := d.table.Discard(r); err != nil {
				return err
			}
		}
	}
	if err := d.table.Motion(d.monitor.Motion(), now); err != nil {
		return err
	}
	if err := d.table.Tick(now); err != nil {
		return err
	}
	h := Health{Racks: d.table.RackHealth(d.monitor.Health()), Camera: camera, Journal: "ok", Games: d.table.Played(), ActLatency: d.table.RecentLatency()}
	d.board.setHealth(h)
	if d.mqtt != nil {
		d.mqtt.healthOf(h, now)
	}
	return nil
}
