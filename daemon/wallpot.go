package daemon

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/history"
)

// sessionWallPot is the wall-game pot waiting now for the session's next first Mah Jongg
// (Wright-Patterson: "Players contribute blue chip/50 points to a pot for the player with the
// next Mah Jongg. The pot will increase with each Wall game."), from the session's games in
// the history in the order they finished; nil where the ruleset has no wall-game pot. The
// scoreboard shows it; the end-of-day tally (siamesed history tally) settles it.
func (t *Table) sessionWallPot(now time.Time) (*int, error) {
	if t.rules.Scoring.WallGamePot == 0 {
		return nil, nil
	}
	session := t.cfg.Session
	if session == "" {
		session = history.DefaultSession(now)
	}
	pot := 0
	db, err := history.Open(t.history, history.Options{ReadOnly: true, Timeout: 2 * time.Second})
	if errors.Is(err, history.ErrNoHistory) {
		return &pot, nil
	}
	if err != nil {
		return nil, fmt.Errorf("daemon: history: %w", err)
	}
	defer db.Close()
	games, err := db.List(history.Filter{Session: session})
	if err != nil {
		return nil, fmt.Errorf("daemon: history: %w", err)
	}
	slices.SortStableFunc(games, func(a, b history.Game) int { return a.Finished.Compare(b.Finished) })
	results := make([]*game.Result, len(games))
	for i := range games {
		results[i] = &games[i].Result
	}
	pot = game.WallPotOf(len(t.layout.names), 0, results, game.CarryPot).Left
	return &pot, nil
}
