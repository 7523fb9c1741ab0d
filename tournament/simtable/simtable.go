// Package simtable is a simulated tournament table, lighter than the daemon: virtual players
// (package sim) play whole games on the rules engine with no racks or camera; each game is
// journaled by the real journal (so its result carries a real log's hash), and its result goes
// through the same tournament/table code the daemon uses (ledger, outbox, sender, score sheet
// for the seat view). The tournament tests, the desk benchmark and `siamesed desk --simulate`
// run these.
package simtable

import (
	"context"
	"errors"
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

// SignRound has the virtual players sign round's sheet: each Mah Jongg its game, each player
// their total (West for East).
func (s *Table) SignRound(round int) error {
	sh := s.Sheet(round)
	for _, g := range sh.Played {
		for _, seat := range g.Signers {
			if err := s.Sign(seat, g.ID); err != nil {
				return err
			}
		}
	}
	if len(sh.Played) < sh.Games {
		return nil
	}
	for seat, by := range sh.Initial {
		if err := s.Initial(round, seat, by); err != nil {
			return err
		}
	}
	return nil
}

// Run plays a game every pace until the event's games are played or ctx ends, the virtual
// players signing each game and initialing each round's totals when sign is set.
func (s *Table) Run(ctx context.Context, pace time.Duration, sign bool) error {
	for {
		if s.Sheet(0).Over {
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(pace):
		}
		m, _, err := s.Play(time.Now())
		if errors.Is(err, table.ErrEventOver) {
			return nil
		}
		if err != nil {
			return err
		}
		if sign {
			if err := s.SignRound(m.Round); err != nil {
				return err
			}
		}
	}
}
