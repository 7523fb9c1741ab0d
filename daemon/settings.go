package daemon

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/siamesetable/siamesed/configs"
	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/internal/safefile"
	"github.com/siamesetable/siamesed/setup"
)

// Table settings saved on the set-up page (package setup) win over the configuration file's
// rules, card and seat names: at start (withSaved), and while the daemon runs from the next
// game on (Table.plan), or at once when the game in play has no act yet.

// withSaved is the configuration with the saved settings over it. The racks stay the
// configuration's; a seat count the configuration's seats do not match sits at the default
// racks (p1a p1b, p2a p2b, ...).
func withSaved(cfg Config, s setup.Settings, dataDir string) Config {
	cfg.Rules = s.Rules
	cfg.Card = s.CardPath(dataDir)
	cfg.Seats = seatsNamed(cfg.Seats, s.Names)
	return cfg
}

// seatsNamed seats names at the configured racks, or the default racks when the configuration
// has a different number of seats.
func seatsNamed(configured []SeatConfig, names []string) []SeatConfig {
	out := make([]SeatConfig, len(names))
	for i, n := range names {
		if len(configured) == len(names) {
			out[i] = SeatConfig{Name: n, Racks: configured[i].Racks}
		} else {
			out[i] = SeatConfig{Name: n, Racks: []string{fmt.Sprintf("p%da", i+1), fmt.Sprintf("p%db", i+1)}}
		}
	}
	return out
}

// savedSettings reads the saved settings and checks that they still build (a configuration
// changed since: another tournament's rules, say); settings that do not are logged and left
// aside, and the configuration's are played.
func (d *daemon) savedSettings() (*setup.Settings, error) {
	s, err := setup.LoadSettings(d.opt.DataDir)
	if err != nil || s == nil {
		return nil, err
	}
	rules, err := configs.LoadRuleset(s.Rules)
	if err == nil {
		_, err = configs.LoadCardFor(s.CardPath(d.opt.DataDir), rules)
	}
	if err == nil && len(s.Names) != rules.Players {
		err = fmt.Errorf("%d names for %d players", len(s.Names), rules.Players)
	}
	if err == nil && d.cfg.Tournament.Event != "" && s.Rules != d.cfg.Rules {
		err = fmt.Errorf("this table plays a tournament's rules (%s)", d.cfg.Rules)
	}
	if err != nil {
		d.log.Error("the set-up page's saved settings are left aside: the configuration's are played; save them again on /setup",
			"file", setup.SettingsFile(d.opt.DataDir), "err", err)
		return nil, nil
	}
	return s, nil
}

// plan hands the table the settings for its next game; with no act played yet (and afresh:
// no virtual player is about to play), the game in play begins afresh with them (its journal,
// which holds only its header, is removed).
func (t *Table) plan(d tableDeps, now time.Time, afresh bool) (setup.When, error) {
	if !afresh || t.waiting || t.tracker.State().Seq > 0 {
		t.pending = &d
		return setup.NextGame, nil
	}
	if err := t.writer.Close(); err != nil {
		return "", fmt.Errorf("daemon: %w", err)
	}
	path := t.dir.GamePath(t.game)
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("daemon: %w", err)
	}
	if err := safefile.SyncDir(filepath.Dir(path)); err != nil {
		return "", err
	}
	t.log.Info("a game with no act yet begins afresh with the set-up page's settings", "game", t.game)
	t.pending = &d
	if err := t.newGame(now); err != nil {
		return "", err
	}
	t.publish()
	return setup.Now, nil
}

// takePending puts settings handed over by plan in place, as a game begins.
func (t *Table) takePending() {
	if t.pending == nil {
		return
	}
	t.rules, t.card, t.layout = t.pending.rules, t.pending.card, t.pending.layout
	t.pending = nil
}

// sameStart reports whether a ruleset can be played without starting the daemon again: the
// racks and the camera were set up for the tiles of the rules the daemon started with, and a
// simulated table's virtual players play the rules they started with (a card, any: they deal
// each game for the card the table plays).
func (d *daemon) sameStart(r *game.Ruleset) (bool, string) {
	if r.TileSet().Count != d.started.rules.TileSet().Count {
		return false, "the racks and camera were set up for the tiles of " + d.started.rules.Name
	}
	if d.players != nil && r.Name != d.started.rules.Name {
		return false, "the simulated table's virtual players play the rules they started with"
	}
	return true, ""
}
