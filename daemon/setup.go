package daemon

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/siamesetable/siamesed/configs"
	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/mqtt"
	"github.com/siamesetable/siamesed/setup"
)

// The daemon's side of the set-up page: what the table plays and settings handed to it
// (setupTable, on the table loop), the seats' MQTT passwords (seatKeys).

// started is what the daemon was built with: the racks, camera and virtual players cannot
// change under it.
type started struct {
	rules *game.Ruleset
	card  configs.Card
}

// startSetup builds the set-up page's server: the owner's password (made on first start and
// handed to Options.OwnerCreated, for siamesed run to print once), the seats' codes, the
// saved settings.
func (d *daemon) startSetup() (*setup.Server, error) {
	owner, created, err := setup.LoadOrCreateOwner(d.opt.DataDir)
	if err != nil {
		return nil, fmt.Errorf("daemon: %w", err)
	}
	if created {
		d.log.Info("setup: the owner's password was made (siamesed run prints it once)", "file", setup.OwnerFile(d.opt.DataDir))
		if d.opt.OwnerCreated != nil {
			d.opt.OwnerCreated(owner.Password())
		}
	}
	o := setup.Options{DataDir: d.opt.DataDir, Owner: owner, Now: d.wallNow, Log: d.log.With("part", "setup"),
		Table: setupTable{d}, Broker: "none", Seats: d.table.rules.Players, ConfigFile: d.opt.ConfigFile,
		Config:  setup.Settings{Rules: d.configured.Rules, CardName: d.configured.Card, Names: configuredNames(d.configured, d.table.rules.Players)},
		LANHost: setup.LANHost(d.cfg.HTTP),
		// The racks' and the camera's readiness join Checks with their sections of the page.
	}
	racks := d.newSetupRacks()
	d.racks = racks // before the table loop starts: it holds snapshots while the walk runs
	o.Racks, o.Cells, o.Checks = racks, racks, append(o.Checks, setup.RacksCheck(racks))
	if d.mqtt != nil {
		o.Keys, o.Broker = seatKeys{d}, "mosquitto"
		if d.mqtt.broker != nil {
			o.Broker = "embedded"
		}
	}
	d.cameraOptions(&o)
	return setup.New(o)
}

// wallNow is the set-up page's clock: sessions and tries held back are in people's time, even
// on a simulated table's clock.
func (d *daemon) wallNow() time.Time { return d.wall.Now() }

// configuredNames are the configuration's seat names, or the winds'.
func configuredNames(c Config, players int) []string {
	if len(c.Seats) == 0 {
		return defaultSeatNames(players)
	}
	var out []string
	for _, s := range c.Seats {
		out = append(out, s.Name)
	}
	return out
}

// onLoop runs f on the table loop (the Table is the loop's alone) and waits for it. On an
// error (the daemon stopping) f may yet run, or be running: the caller must not read what f
// writes.
func (d *daemon) onLoop(f func()) error {
	done := make(chan struct{})
	select {
	case d.events <- event{do: f, done: done}:
	case <-d.ctx.Done():
		return fmt.Errorf("daemon: stopping: %w", context.Cause(d.ctx))
	}
	select {
	case <-done:
		return nil
	case <-d.ctx.Done():
		return fmt.Errorf("daemon: stopping: %w", context.Cause(d.ctx))
	}
}

// setupTable is setup.Table.
type setupTable struct{ d *daemon }

func (s setupTable) Playing() (setup.Playing, setup.InUse) {
	var p setup.Playing
	var in setup.InUse
	err := s.d.onLoop(func() {
		t := s.d.table
		p = setup.Playing{Rules: t.rules.Name, Card: t.card.Name, Names: slices.Clone(t.layout.names), Game: t.game,
			Acts: t.tracker.State().Seq, Waiting: t.waiting}
		if a := s.d.applied; a != nil && (t.pending != nil || a.Rules == setup.NextStart || a.Names == setup.NextStart) {
			p.Pending = a
		}
		in = setup.InUse{Data: t.card.Data, Builtin: t.card.Path == ""}
	})
	if err != nil {
		// The daemon is stopping: the loop may still be running f, so what it writes is not
		// read here.
		return setup.Playing{}, setup.InUse{}
	}
	return p, in
}

// Fits checks what the page's form cannot: a seat for each player at the racks, a tournament's
// rules.
func (s setupTable) Fits(p setup.Plan) error {
	d := s.d
	if d.cfg.Tournament.Event != "" && p.Rules.Name != d.configured.Rules {
		return &setup.FormError{Problems: []setup.Problem{{Field: "rules", Msg: fmt.Sprintf("this table plays its tournament's rules, %s (%s)", d.configured.Rules, d.cfg.Tournament.Event)}}}
	}
	if _, err := newLayout(seatsNamed(d.configured.Seats, p.Settings.Names), p.Rules.Players, d.rig.profile); err != nil {
		return &setup.FormError{Problems: []setup.Problem{{Field: "names", Msg: fmt.Sprintf("the racks (hardware %s) cannot seat them: %v", d.cfg.Hardware, err)}}}
	}
	return nil
}

// Apply hands saved settings (nil: the configuration's) to the table: from the next game on,
// at once where the game in play has no act yet (on a table of people), or at the next start
// where what the daemon started with cannot change (sameStart).
func (s setupTable) Apply(p *setup.Plan) (setup.Applied, error) {
	d := s.d
	var rules *game.Ruleset
	var card configs.Card
	var names []string
	var err error
	if p == nil {
		if rules, err = configs.LoadRuleset(d.configured.Rules); err != nil {
			return setup.Applied{}, fmt.Errorf("daemon: %w", err)
		}
		if card, err = configs.LoadCardFor(d.configured.Card, rules); err != nil {
			return setup.Applied{}, fmt.Errorf("daemon: %w", err)
		}
		names = configuredNames(d.configured, rules.Players)
	} else {
		rules, card, names = p.Rules, p.Card, p.Settings.Names
		card.Path = p.Settings.CardPath(d.opt.DataDir)
	}
	var out setup.Applied
	loopErr := d.onLoop(func() {
		t := d.table
		deps := tableDeps{rules: rules, card: card}
		if ok, why := d.sameStart(rules); !ok {
			out.Rules, out.Why = setup.NextStart, why
			deps.rules, deps.card = t.rules, t.card
		}
		if deps.rules.Players != len(names) { // names for rules that wait for the next start
			out.Names = setup.NextStart
			t.pending = nil
			d.applied = &out
			return
		}
		if deps.layout, err = newLayout(seatsNamed(d.configured.Seats, names), deps.rules.Players, d.rig.profile); err != nil {
			return
		}
		if out.Names, err = t.plan(deps, d.clk.Now(), d.players == nil || !d.players.Dealt()); err != nil {
			return
		}
		if out.Rules == "" {
			out.Rules = out.Names
		}
		d.applied = &out
	})
	if loopErr != nil {
		return setup.Applied{}, loopErr // the loop may still be writing out
	}
	return out, err
}

// seatKeys is setup.Keys: the seats' MQTT passwords, from the bridge.
type seatKeys struct{ d *daemon }

func (k seatKeys) Login(seat int) (setup.Login, error) {
	creds := k.d.mqtt.credentials()
	if seat < 0 || seat >= len(creds.Seats) {
		return setup.Login{}, fmt.Errorf("daemon: no seat %d", seat)
	}
	var name string
	if err := k.d.onLoop(func() {
		if seat < len(k.d.table.layout.names) {
			name = k.d.table.layout.names[seat]
		}
	}); err != nil {
		return setup.Login{}, err // the loop may still be writing name
	}
	return setup.Login{Table: k.d.cfg.Table, Seat: seat, Name: name, User: strconv.Itoa(seat), Password: creds.Seats[seat]}, nil
}

func (k seatKeys) TakeBack(seat int) (setup.TakenBack, error) {
	return k.d.mqtt.takeBack(seat, k.d.opt.DataDir)
}

// takeBack gives a seat a new password, written to the credentials file (atomically) before
// anything else: the embedded broker takes it at once and drops the phones logged in as the
// seat; Mosquitto reads its own password file, which the daemon cannot write, so the steps
// the owner must take are returned.
func (b *bridge) takeBack(seat int, dataDir string) (setup.TakenBack, error) {
	b.credsMu.Lock()
	defer b.credsMu.Unlock()
	next, err := b.creds.WithNewSeatPassword(seat)
	if err != nil {
		return setup.TakenBack{}, fmt.Errorf("daemon: %w", err)
	}
	if err := next.Write(b.file); err != nil {
		return setup.TakenBack{}, fmt.Errorf("daemon: %w", err)
	}
	b.creds = next
	if b.broker != nil {
		b.broker.SetCredentials(next)
		return setup.TakenBack{Dropped: b.broker.Drop(strconv.Itoa(seat))}, nil
	}
	return setup.TakenBack{Steps: mosquittoSteps(dataDir, b.file)}, nil
}

// mosquittoSteps tell the owner how Mosquitto learns a seat's new password (as
// deploy/install.sh makes its password file) and drops the phone that held the seat.
func mosquittoSteps(dataDir, credentials string) []string {
	from := "--data " + dataDir
	if credentials != mqtt.CredentialsFile(dataDir) {
		from = "--credentials " + credentials
	}
	const pw = "/etc/mosquitto/siamese.passwd"
	return []string{
		"Mosquitto reads its own password file, which the daemon cannot write: until you run the two commands below on the table's computer, Mosquitto still lets the old phone in and refuses the new one.",
		fmt.Sprintf("sudo sh -c 'siamesed mqtt passwords %s > %s.new && mosquitto_passwd -U %s.new && chmod 0640 %s.new && chgrp mosquitto %s.new && mv %s.new %s'", from, pw, pw, pw, pw, pw, pw),
		"sudo systemctl restart mosquitto   # drops every connection: the old phone is out; the table, the display and the other phones connect again by themselves",
	}
}
