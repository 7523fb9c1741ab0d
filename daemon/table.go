package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/siamesetable/siamesed/configs"
	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/track"
	"github.com/siamesetable/siamesed/history"
	"github.com/siamesetable/siamesed/hw/rack"
	"github.com/siamesetable/siamesed/journal"
)

// Table is the game being played: the tracker follows it, the journal keeps it, the history
// records it once over. It is driven by one goroutine (the daemon's table loop); it is not safe
// for concurrent use. What others may read goes out through Publish.
type Table struct {
	cfg     Config
	log     *slog.Logger
	rules   *game.Ruleset
	card    configs.Card
	layout  layout
	dir     *journal.Dir
	history string // the history database's path

	game    string // the game's id
	header  game.Header
	writer  *journal.Writer
	tracker *track.Tracker
	// waiting: the game is over and the next begins once every rack is empty.
	waiting bool
	latest  map[string]rack.Snapshot // hardware rack zone -> its latest settled snapshot
	played  int                      // games finished since the daemon started
	wallPot *int                     // the session's wall-game pot waiting (sessionWallPot)
	resumed bool                     // the game in play was resumed from its journal
	now     time.Time                // the time of the latest event

	// latency is how long observations take to become acts (wall time).
	latency latencies
	// shownToAct is how long, in table time, acts the sensors showed waited to be played: from
	// the first sensor that showed one to its play (a rack settling, evidence held to settle).
	shownToAct latencies
	// shownToLegalAct is shownToAct for the acts that break no rule (one that breaks one is
	// held until the evidence has settled, so as not to name it falsely).
	shownToLegalAct latencies
	// settledToAct is how long, in table time, acts waited in the tracker once the sensors had
	// settled on what shows them (Step.Settled): shownToAct less the racks' own settling.
	settledToAct, settledToLegalAct latencies
	// observed is when the observation that played the latest act reached the table.
	observed time.Time

	// Publish, when set, hears the table's state after every change.
	Publish func(State)
	// onRecord, when set, hears each finished game before the history records it
	// (tournament.go: the game's result into the tournament's outbox). It must be idempotent:
	// a game is heard again if the daemon stopped before recording it.
	onRecord func(*journal.Game) error
	// OnSteps, when set, hears the acts the tracker played, once journaled, before the state
	// that follows them is published (the MQTT events topic).
	OnSteps func(game string, steps []track.Step)
	asked   string // the questions and sensor notes last published, to publish when they change
	// pending are settings from the set-up page for the next game (settings.go).
	pending *tableDeps
}

// tableDeps is what a table is built from.
type tableDeps struct {
	rules  *game.Ruleset
	card   configs.Card
	layout layout
	// onRecord: Table.onRecord, set before a game left unrecorded by a stop is recorded.
	onRecord func(*journal.Game) error
}

// openTable opens the data directory and resumes the unfinished game there, if any; otherwise
// it starts a new one at now.
func openTable(cfg Config, dataDir string, d tableDeps, now time.Time, log *slog.Logger) (*Table, error) {
	dir, err := journal.OpenDir(dataDir)
	if err != nil {
		return nil, err
	}
	t := &Table{cfg: cfg, log: log, rules: d.rules, card: d.card, layout: d.layout, dir: dir, history: history.Path(dataDir), latest: map[string]rack.Snapshot{}, onRecord: d.onRecord}
	done, err := t.recordedGames()
	if err != nil {
		return nil, err
	}
	if t.wallPot, err = t.sessionWallPot(now); err != nil {
		return nil, err
	}
	open, over, err := dir.Unrecorded(done)
	if err != nil {
		return nil, fmt.Errorf("daemon: %w", err)
	}
	for _, o := range over {
		// Stopped between ending a game and recording it: record it now, as of its last write.
		if err := t.record(o.Game, o.Modified); err != nil {
			return nil, err
		}
		log.Info("a finished game missing from the history was recorded", "game", o.ID, "file", o.Path)
	}
	if len(open) > 0 {
		if err := t.resume(open[0].Path); err != nil {
			return nil, err
		}
		for _, o := range open[1:] {
			log.Warn("another unfinished game is left as it is", "file", o.Path)
		}
		return t, nil
	}
	return t, t.newGame(now)
}

// recordedGames lists the games the history holds, so the journal need not replay them.
func (t *Table) recordedGames() (func(string) bool, error) {
	db, err := history.Open(t.history, history.Options{ReadOnly: true, Timeout: 2 * time.Second})
	if errors.Is(err, history.ErrNoHistory) {
		return func(string) bool { return false }, nil
	}
	if err != nil {
		return nil, fmt.Errorf("daemon: %w", err)
	}
	defer db.Close()
	games, err := db.List(history.Filter{})
	if err != nil {
		return nil, fmt.Errorf("daemon: %w", err)
	}
	ids := map[string]bool{}
	for _, g := range games {
		ids[g.ID] = true
	}
	return func(id string) bool { return ids[id] }, nil
}

// resume carries on the game a journal holds: replayed to its exact state, a torn last line cut.
func (t *Table) resume(path string) error {
	w, g, err := t.dir.Resume(path, journal.Sources{CardPath: t.card.Path})
	if err != nil {
		return fmt.Errorf("daemon: the game in play cannot be resumed: %w", err)
	}
	if g.Torn != nil {
		t.log.Warn("journal: a torn last line was cut", "file", path, "line", g.Torn.Line, "bytes", g.Torn.Bytes)
	}
	if g.Rules.Name != t.rules.Name {
		t.log.Warn("the game in play keeps its own rules", "game", g.Rules.Name, "configured", t.rules.Name)
	}
	t.rules, t.card = g.Rules, g.Card
	t.game, t.header, t.writer = g.Header.Game, *g.Header, w
	t.tracker = track.Resume(t.trackConfig(), g.State, g.Undo)
	t.resumed = true
	t.log.Info("game resumed", "game", t.game, "acts", g.State.Seq, "digest", g.State.Digest(), "file", path)
	return nil
}

func (t *Table) at(now time.Time) {
	if now.After(t.now) {
		t.now = now
	}
}

// newGame starts the next game: its header written and synced before any act.
func (t *Table) newGame(now time.Time) error {
	t.takePending()
	stamp := now.UTC().Format("2006-01-02T15-04-05.000Z")
	h := game.NewHeader(t.rules, t.card.Card, t.card.Data, t.layout.names)
	h.Started = now.UTC().Format(time.RFC3339Nano)
	// A clock set back (a Pi has no battery clock) can name a game already played: the new
	// one then takes the next free suffix, never the old one's file.
	var w *journal.Writer
	var err error
	for n := 1; ; n++ {
		h.Game = stamp
		if n > 1 {
			h.Game = fmt.Sprintf("%s-%d", stamp, n)
		}
		if w, err = t.dir.Create(h, t.card); !errors.Is(err, journal.ErrIDUsed) || n == 100 {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("daemon: starting a game: %w", err)
	}
	id := h.Game
	t.game, t.header, t.writer = id, h, w
	t.tracker = track.New(t.trackConfig(), h.Start(t.rules, t.card.Card))
	t.waiting, t.resumed, t.observed = false, false, time.Time{}
	t.log.Info("new game", "game", id, "rules", t.rules.Name, "card", t.card.Name, "seats", t.layout.names)
	return nil
}

// trackConfig is the tracker's defaults with what the configuration sets. UnnamedWait is
// zero, as the daemon has always run it: a tile gone from a rack that may be on its way to the
// seat's other rack is waited for on that rack's live signal (Motion), and the fixed wait
// would hold every discard the camera could not name 500 ms (harsh noise: settle-to-act p99
// 0.55 to 0.6 s over all acts, and the same over the acts that break no rule, against 0 to
// 0.3 s and 0 s without it).
func (t *Table) trackConfig() track.Config {
	c := track.DefaultConfig()
	c.AskAfter, c.Grace, c.FaultWait, c.CallWindow = t.cfg.Track.AskAfter.D(), t.cfg.Track.Grace.D(), t.cfg.Track.FaultWait.D(), t.cfg.Track.CallWindow.D()
	c.UnnamedWait = 0
	c.Camera = t.cfg.Camera != "none"
	c.Debug = func(format string, args ...any) {
		if t.log.Enabled(context.Background(), slog.LevelDebug) { // formatted only when debugging
			t.log.Debug("track: " + fmt.Sprintf(format, args...))
		}
	}
	return c
}

// Rack takes a settled snapshot from the racks.
func (t *Table) Rack(s rack.Snapshot) error {
	t.at(s.At)
	t.latest[s.Rack+"/"+string(s.Zone)] = s
	t.log.Debug("snapshot", "snapshot", s) // formatted only when debugging
	if t.waiting {
		return t.waitForEmpty(s)
	}
	r, ok := t.layout.reading(s)
	if !ok {
		return nil
	}
	began, seq := time.Now(), t.tracker.State().Seq
	return t.timed(began, seq, t.play(t.tracker.Rack(r), began))
}

// Discard takes the camera's report.
func (t *Table) Discard(d track.DiscardReading) error {
	t.at(d.At)
	if t.waiting {
		return nil
	}
	began, seq := time.Now(), t.tracker.State().Seq
	return t.timed(began, seq, t.play(t.tracker.Discard(d), began))
}

// Camera takes the camera's health.
func (t *Table) Camera(c track.CameraStatus) error {
	t.at(c.At)
	if t.waiting {
		return nil
	}
	return t.play(t.tracker.Camera(c), time.Now())
}

// Command takes a player's command; a bad one is an error for that player and changes nothing.
func (t *Table) Command(c track.Command) error {
	t.at(c.At)
	if t.waiting {
		return fmt.Errorf("%w: the game is over; the next begins when every rack is empty", track.ErrCommand)
	}
	began := time.Now()
	steps, err := t.tracker.Command(c)
	if err != nil {
		return err
	}
	if c.Kind == track.CmdTakeBack || c.Kind == track.CmdRacksRight {
		// Who changed the record in bulk: the journal's take_back names the seat whose act it
		// took back, not the seat that asked.
		t.log.Info("command", "game", t.game, "seat", c.Seat, "kind", c.Kind, "acts", len(steps))
	}
	return t.play(steps, began)
}

// Motion tells the table what the racks say of their zones now (rack.Monitor.Motion): which
// move, which of them are more likely than not changing, which have a reader failing and which
// weigh otherwise than their last snapshot.
func (t *Table) Motion(m rack.Motion, now time.Time) error {
	if t.waiting {
		return nil
	}
	tm := track.Motion{Moving: t.places(m.Moving), Changing: t.places(m.Changing), Failing: t.places(m.Failing), Reweighed: t.places(m.Reweighed)}
	return t.play(t.tracker.Motion(tm, now), time.Now())
}

// places are the seats' places of the rack zones keys (those of racks no seat has left out).
func (t *Table) places(keys []rack.Key) []track.Place {
	places := make([]track.Place, 0, len(keys))
	for _, k := range keys {
		if at, ok := t.layout.where[k.Rack]; ok {
			p := track.Place{Seat: at[0], Rack: at[1], Zone: track.In}
			if k.Zone == rack.On {
				p.Zone = track.On
			}
			places = append(places, p)
		}
	}
	return places
}

// Tick tells the table the time.
func (t *Table) Tick(now time.Time) error {
	t.at(now)
	if t.waiting {
		return nil
	}
	return t.play(t.tracker.Tick(now), time.Now())
}

// play journals the acts the tracker played, each synced to disk before anything is shown, and
// ends the game when it is over. A journal that cannot be written is an error: the daemon stops
// rather than play on unrecorded. began is when what played them reached the table (an
// observation, a command, a timer): the state shown says it, for a display's own delay.
func (t *Table) play(steps []track.Step, began time.Time) error {
	if len(steps) > 0 {
		t.observed = began
	}
	for _, st := range steps {
		if err := t.writer.Append(st.Action); err != nil {
			return fmt.Errorf("daemon: %w", err)
		}
		t.logStep(st)
		if !st.Shown.IsZero() && !st.At.Before(st.Shown) {
			legal := !game.HasFaults(st.Verdicts)
			t.shownToAct.add(st.At.Sub(st.Shown))
			t.settledToAct.add(st.At.Sub(st.Settled))
			if legal {
				t.shownToLegalAct.add(st.At.Sub(st.Shown))
				t.settledToLegalAct.add(st.At.Sub(st.Settled))
			}
		}
	}
	if len(steps) > 0 && t.OnSteps != nil {
		t.OnSteps(t.game, steps)
	}
	if len(steps) > 0 && t.tracker.State().Phase == game.PhaseOver {
		return t.finish()
	}
	if len(steps) > 0 || t.askedKey() != t.asked {
		t.publish()
	}
	return nil
}

func (t *Table) logStep(st track.Step) {
	out := game.OutcomeOf(st.Verdicts)
	attrs := []any{"game", t.game, "seq", t.tracker.State().Seq, "act", st.Action.String(), "outcome", out, "source", st.Source}
	if !st.Shown.IsZero() {
		attrs = append(attrs, "shown_to_act", st.At.Sub(st.Shown), "settled_to_act", st.At.Sub(st.Settled))
	}
	if out == game.Applied {
		t.log.Debug("act", attrs...)
		return
	}
	for _, v := range st.Verdicts {
		if v.Faulty() {
			attrs = append(attrs, "rule", v.Rule, "detail", v.Detail)
			break
		}
	}
	t.log.Info("act", attrs...)
}

// finish records the game in the history and waits for the racks to be cleared.
func (t *Table) finish() error {
	s := t.tracker.State()
	if err := t.writer.Close(); err != nil {
		return fmt.Errorf("daemon: %w", err)
	}
	g := &journal.Game{Path: t.dir.GamePath(t.game), Header: &t.header, Rules: t.rules, Card: t.card, State: s}
	if err := t.record(g, t.now); err != nil {
		return err
	}
	pot, err := t.sessionWallPot(t.now)
	if err != nil {
		return err
	}
	t.wallPot = pot
	t.played++
	t.waiting = true
	t.log.Info("game over", "game", t.game, "reason", s.Result.Reason, "scores", s.Result.Scores)
	t.publish()
	return nil
}

// record adds a game finished at the given time to the history (opened only for that, so
// `siamesed history` can read it meanwhile). A game recorded already is left as it is.
func (t *Table) record(g *journal.Game, finished time.Time) error {
	if t.onRecord != nil {
		if err := t.onRecord(g); err != nil {
			return err
		}
	}
	hg, err := history.GameOf(g, t.cfg.Session, finished)
	if err != nil {
		return fmt.Errorf("daemon: history: %w", err)
	}
	db, err := history.Open(t.history, history.Options{Timeout: 5 * time.Second})
	if err != nil {
		return fmt.Errorf("daemon: history: %w", err)
	}
	if t.cfg.Pot.Cents > 0 {
		if err := db.SetPot(hg.Session, history.Pot{Cents: t.cfg.Pot.Cents, Triple: t.cfg.Pot.Triple}); err != nil {
			db.Close()
			return fmt.Errorf("daemon: history: %w", err)
		}
	}
	if _, err := db.Record(hg); err != nil {
		db.Close()
		return fmt.Errorf("daemon: history: %w", err)
	}
	return db.Close()
}

// waitForEmpty starts the next game once every rack zone reads empty after a game ended (a
// zone never reported since the daemon started has not changed from empty).
func (t *Table) waitForEmpty(s rack.Snapshot) error {
	for _, racks := range t.layout.racks {
		for _, name := range racks {
			for _, z := range rack.Zones {
				if l, ok := t.latest[name+"/"+string(z)]; ok && (l.Count > 0 || len(l.Tiles) > 0) {
					return nil
				}
			}
		}
	}
	return t.newGame(s.At)
}

// NewGame starts the next game at once (a player's command after a game ended, or the
// simulated table that has cleared itself).
func (t *Table) NewGame(now time.Time) error {
	if !t.waiting {
		return fmt.Errorf("%w: a game is in play", track.ErrCommand)
	}
	if err := t.newGame(now); err != nil {
		return err
	}
	t.publish()
	return nil
}

// Close closes the journal.
func (t *Table) Close() error {
	if t.writer == nil {
		return nil
	}
	return t.writer.Close()
}

// GameID is the game in play (or just finished).
func (t *Table) GameID() string { return t.game }

// Game is the tracked game.
func (t *Table) Game() game.State { return t.tracker.State() }

// Waiting reports whether the last game is over and the next has not begun.
func (t *Table) Waiting() bool { return t.waiting }

// Latency is how long settled observations took to become journaled, published acts.
func (t *Table) Latency() LatencyFigures { return t.latency.figures() }

// RecentLatency is Latency as of at most a second ago (wall time), for the health page that
// every tick refreshes.
func (t *Table) RecentLatency() LatencyFigures { return t.latency.recentFigures(time.Now()) }

// ShownToAct is how long, in table time, acts the sensors showed took to be played.
func (t *Table) ShownToAct() LatencyFigures { return t.shownToAct.figures() }

// ShownToLegalAct is ShownToAct for the acts that break no rule.
func (t *Table) ShownToLegalAct() LatencyFigures { return t.shownToLegalAct.figures() }

// SettledToAct is how long, in table time, acts waited in the tracker once the sensors had
// settled on what shows them.
func (t *Table) SettledToAct() LatencyFigures { return t.settledToAct.figures() }

// SettledToLegalAct is SettledToAct for the acts that break no rule.
func (t *Table) SettledToLegalAct() LatencyFigures { return t.settledToLegalAct.figures() }

// Played is how many games finished since the daemon started.
func (t *Table) Played() int { return t.played }
