// Package simtable is a simulated tournament table, lighter than the daemon: virtual players
// (package sim) play whole games on the rules engine with no racks or camera; each game is
// journaled by the real journal (so its result carries a real log's hash), and its result goes
// through the same tournament/table code the daemon uses (ledger, outbox, sender, score sheet
// for the seat view). The tournament tests, the desk benchmark and `siamesed desk --simulate`
// run these.
package simtable

import (
	"fmt"
	"time"

	"github.com/siamesetable/siamesed/configs"
	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/journal"
	"github.com/siamesetable/siamesed/sim"
	"github.com/siamesetable/siamesed/tournament/event"
	"github.com/siamesetable/siamesed/tournament/table"
	"github.com/siamesetable/siamesed/tournament/wire"
)

// Table is a simulated table of an event.
type Table struct {
	*table.Table
	dir   *journal.Dir
	rules *game.Ruleset
	card  configs.Card
	seed  uint64
	games int
	// Played are the final states of the games played, in order (an independent record for tests).
	Played []game.State
}

// Open opens simulated table number of ev with its data in dataDir; seed makes its games.
func Open(ev *event.Event, number int, dataDir string, seed uint64, now func() time.Time) (*Table, error) {
	rules, err := configs.LoadRuleset(ev.Rules)
	if err != nil {
		return nil, fmt.Errorf("simtable: %w", err)
	}
	card, err := configs.LoadCardFor(ev.Card, rules)
	if err != nil {
		return nil, fmt.Errorf("simtable: %w", err)
	}
	dir, err := journal.OpenDir(dataDir)
	if err != nil {
		return nil, fmt.Errorf("simtable: %w", err)
	}
	t, err := table.Open(ev, number, dataDir, now)
	if err != nil {
		return nil, err
	}
	return &Table{Table: t, dir: dir, rules: rules, card: card, seed: seed}, nil
}

// Play plays the table's next game to its end, journals it, and makes its result.
func (s *Table) Play(now time.Time) (wire.Message, game.State, error) {
	sh := s.Sheet(0)
	h := game.NewHeader(s.rules, s.card.Card, s.card.Data, sh.Players)
	h.Started = now.UTC().Format(time.RFC3339Nano)
	s.games++
	h.Game = fmt.Sprintf("t%d-g%d-%d", s.Number, s.games, now.UnixNano())
	w, err := s.dir.Create(h, s.card)
	if err != nil {
		return wire.Message{}, game.State{}, fmt.Errorf("simtable: %w", err)
	}
	g := sim.NewGame(s.rules, s.card.Card, s.seed*1000+uint64(s.games), 0)
	for {
		turn, ok := g.Next()
		if !ok {
			break
		}
		if err := w.Append(turn.Act); err != nil {
			w.Close()
			return wire.Message{}, game.State{}, fmt.Errorf("simtable: %w", err)
		}
	}
	if err := w.Close(); err != nil {
		return wire.Message{}, game.State{}, fmt.Errorf("simtable: %w", err)
	}
	sum, err := table.JournalHash(s.dir.GamePath(h.Game))
	if err != nil {
		return wire.Message{}, game.State{}, err
	}
	m, err := s.Finished(h.Game, sum, s.rules.Name, g.State)
	if err == nil {
		s.Played = append(s.Played, g.State)
	}
	return m, g.State, err
}
