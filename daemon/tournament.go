package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/journal"
	"github.com/siamesetable/siamesed/mqtt"
	tevent "github.com/siamesetable/siamesed/tournament/event"
	"github.com/siamesetable/siamesed/tournament/link"
	"github.com/siamesetable/siamesed/tournament/table"
)

// TournamentConfig makes the table one of a tournament's (docs/tournament.md).
type TournamentConfig struct {
	// Event is the event file the desk reads too; empty: no tournament.
	Event string `yaml:"event"`
	// Table is this table's number in the event.
	Table int `yaml:"table"`
	// NATS are the cluster's client URLs (nats://host:4222), tried in turn.
	NATS []string `yaml:"nats"`
	// Replicas of the streams, if this table is the first to make them: 3 (a three-node
	// cluster), or 1 on a single server.
	Replicas int `yaml:"replicas"`
}

func (c TournamentConfig) check() []error {
	var errs []error
	bad := func(field, format string, a ...any) {
		errs = append(errs, fmt.Errorf("tournament.%s: %s", field, fmt.Sprintf(format, a...)))
	}
	if c.Event == "" {
		if c.Table != 0 || len(c.NATS) > 0 {
			bad("event", "empty: table and nats need the event file")
		}
		return errs
	}
	if c.Table < 1 {
		bad("table", "%d: want this table's number in the event (1, 2, ...)", c.Table)
	}
	if len(c.NATS) == 0 {
		bad("nats", "empty: want the cluster's URLs, e.g. [nats://10.0.0.2:4222, nats://10.0.0.3:4222, nats://10.0.0.4:4222]")
	}
	for i, u := range c.NATS {
		if !strings.HasPrefix(u, "nats://") && !strings.HasPrefix(u, "tls://") {
			bad(fmt.Sprintf("nats[%d]", i), "%q: want nats://host:port", u)
		}
	}
	if c.Replicas != 0 && c.Replicas != 1 && c.Replicas != 3 {
		bad("replicas", "%d: want 1 or 3", c.Replicas)
	}
	return errs
}

// tournament is the daemon's part in an event: each finished game's result into the table's
// ledger and outbox (from the history hook, Table.onRecord), the outbox sent to the cluster,
// the seat view's score sheet served at /api/sheet. A nil *tournament does nothing.
type tournament struct {
	cfg   TournamentConfig
	table *table.Table
	creds func(seat int, pass string) bool
	log   *slog.Logger
}

// openTournament opens the event and the table's ledger; nil when the configuration names no
// event. The table's ruleset must be the event's.
func openTournament(cfg Config, rules *game.Ruleset, dataDir string, log *slog.Logger) (*tournament, error) {
	tc := cfg.Tournament
	if tc.Event == "" {
		return nil, nil
	}
	ev, err := tevent.Load(tc.Event, tevent.ConfigsRules)
	if err != nil {
		return nil, fmt.Errorf("daemon: tournament: %w", err)
	}
	if ev.Rules != cfg.Rules || ev.Seats != rules.Players {
		return nil, fmt.Errorf("daemon: tournament: event %q plays %s, this table %s: set rules: %s", ev.Name, ev.Rules, cfg.Rules, ev.Rules)
	}
	t, err := table.Open(ev, tc.Table, dataDir, nil)
	if err != nil {
		return nil, fmt.Errorf("daemon: tournament: %w", err)
	}
	for _, w := range t.Warnings {
		log.Warn("tournament: " + w)
	}
	tr := &tournament{cfg: tc, table: t, log: log}
	credPath := cfg.MQTT.Credentials
	if credPath == "" {
		credPath = mqtt.CredentialsFile(dataDir)
	}
	tr.creds = func(seat int, pass string) bool {
		c, _, err := mqtt.LoadOrCreateCredentials(credPath)
		return err == nil && c.Check(strconv.Itoa(seat), pass)
	}
	log.Info("tournament", "event", ev.Name, "table", tc.Table, "round", t.Sheet(0).Round, "outbox", t.Pending())
	return tr, nil
}

// record puts a finished game's result in the outbox (Table.onRecord). A game past the
// event's rounds is logged and left out.
func (tr *tournament) record(g *journal.Game) error {
	if tr == nil {
		return nil
	}
	sum, err := table.JournalHash(g.Path)
	if err != nil {
		return fmt.Errorf("daemon: tournament: %w", err)
	}
	m, err := tr.table.Finished(g.Header.Game, sum, g.Rules.Name, g.State)
	if errors.Is(err, table.ErrEventOver) {
		tr.log.Warn("tournament: a game after the event's last round is not sent", "game", g.Header.Game)
		return nil
	}
	if err != nil {
		return fmt.Errorf("daemon: tournament: %w", err)
	}
	tr.log.Info("tournament: result", "round", m.Round, "game", m.Result.Game, "scores", m.Result.Scores, "outbox", tr.table.Pending())
	return nil
}

// run links the table to the cluster until ctx ends.
func (tr *tournament) run(ctx context.Context) error {
	if tr == nil {
		return nil
	}
	c, err := link.Dial(link.Options{URLs: tr.cfg.NATS, Name: fmt.Sprintf("table-%d", tr.cfg.Table), Replicas: tr.cfg.Replicas, Log: tr.log})
	if err != nil {
		return fmt.Errorf("daemon: tournament: %w", err)
	}
	defer c.Close()
	return c.RunTable(ctx, tr.table)
}

// routes adds the score sheet's API in front of the display's routes.
func (tr *tournament) routes(display http.Handler, state func() ([]byte, []byte)) http.Handler {
	if tr == nil {
		return display
	}
	sheet := tr.table.HTTP(tr.creds, func() json.RawMessage { s, _ := state(); return s })
	mux := http.NewServeMux()
	mux.Handle("/api/sheet", sheet)
	mux.Handle("/api/sheet/", sheet)
	mux.Handle("/", display)
	return mux
}

func (tr *tournament) close() error {
	if tr == nil {
		return nil
	}
	return tr.table.Close()
}
