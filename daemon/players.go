package daemon

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/siamesetable/siamesed/engine/card"
	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/engine/track"
	"github.com/siamesetable/siamesed/hw/rack"
	"github.com/siamesetable/siamesed/sim"
)

// Hands is the physical table the virtual players' hands move tiles on (the simulated racks).
type Hands interface {
	Put(rackName string, z rack.Zone, fs ...tile.Face) error
	Take(rackName string, z rack.Zone, fs ...tile.Face) error
	Clear()
}

// Eyes is what the virtual players show the camera: a tile laid in or taken from the discards.
type Eyes interface {
	Show(seen bool, f tile.Face, at time.Time)
}

// players are the virtual players of a simulated table. Each step does one movement of a hand:
// they play their own game (sim.Game) on the physical table, as people would, whatever the
// tracker makes of it; the daemon then tracks it from the sensors alone.
type players struct {
	cfg    SimConfig
	card   *card.Card
	rules  *game.Ruleset
	layout layout
	hands  Hands
	eyes   Eyes
	rng    *rand.Rand

	truth   *sim.Game
	ops     []sim.Op // the movements of the act under way
	act     game.Act // the act under way
	undo    []sim.Op // the movements that put back an act the referee refuses, once it has
	game    string   // the table's game the players are playing
	games   int      // games begun
	cleared bool     // the table was cleared after the last game
	checked string   // the last game compared with what was played
	stats   SoakStats
	onCheck func(id string, err error)
	overAt  time.Time // when the players finished the game the table has not finished yet
}

// stallAfter is how long the players wait, their game over, for the table to finish it. Past it a
// soak stops, naming the game: the tracker is stuck (a live table would ask the players).
const stallAfter = 10 * time.Minute

func newPlayers(cfg SimConfig, c *card.Card, r *game.Ruleset, l layout, hands Hands, eyes Eyes) *players {
	return &players{cfg: cfg, card: c, rules: r, layout: l, hands: hands, eyes: eyes, rng: rand.New(rand.NewPCG(cfg.Seed, 99))}
}

// sitDown makes the physical table show the game t is in, as after a restart from the journal,
// and has the players carry on from there.
func (p *players) sitDown(t *Table) error {
	p.hands.Clear()
	s := t.Game()
	if sw, ok := p.eyes.(sweeper); ok {
		sw.Lay(s.Discards, time.Time{})
	}
	for _, o := range sim.Layout(&s) {
		if err := p.handle(o, time.Time{}, nil); err != nil {
			return err
		}
	}
	p.truth = sim.Resume(s, p.card, p.cfg.Seed+uint64(s.Seq)*7919, p.cfg.Faults)
	p.game = t.GameID()
	p.games++
	return nil
}

// refusedPause is how long players take to hear that the referee refused an act and start to
// undo it: longer than the tracker's grace period, as at a real table, where the referee says
// so before the tiles go back.
const refusedPause = 3 * time.Second

// step does the next movement at now, telling the table what the players say. It reports how
// long the movement takes (the pace, longer once a tile from the wall is racked, by a draw or
// as a flower's replacement: a player looks at the tile), and done once the configured number
// of games has been played.
func (p *players) step(t *Table, now time.Time, say func(track.Command) error) (time.Duration, bool, error) {
	pace := p.cfg.Pace.D()
	switch {
	case t.Waiting():
		if p.truth != nil && p.checked != t.GameID() {
			p.checked = t.GameID()
			// The table ends a game on the player's word ("Mah Jongg!"); the players' own
			// record still has the declaration itself to play.
			for i := 0; i < 2 && !p.truth.Over(); i++ {
				if _, ok := p.truth.Next(); !ok {
					break
				}
			}
			err := p.stats.add(t.Game(), p.truth.State, len(p.truth.Deliberate))
			if p.onCheck != nil {
				p.onCheck(t.GameID(), err)
			}
		}
		if p.cfg.Games > 0 && t.Played() >= p.cfg.Games {
			return pace, true, nil
		}
		if !p.cleared { // the players push the tiles back to the wall
			p.hands.Clear()
			if sw, ok := p.eyes.(sweeper); ok {
				sw.Clear(now)
			}
			p.cleared, p.truth, p.ops, p.undo = true, nil, nil, nil
		}
		return pace, false, nil
	case p.game != t.GameID() || p.truth == nil:
		// A new game has begun: shuffle and deal.
		p.game, p.cleared, p.overAt = t.GameID(), false, time.Time{}
		p.games++
		p.truth = sim.NewGame(p.rules, p.card, p.cfg.Seed*1_000_003+uint64(p.games), p.cfg.Faults)
	}
	if len(p.ops) == 0 && len(p.undo) > 0 {
		// The referee refused the act: the players hear it, then put the tiles back.
		p.ops, p.undo = p.undo, nil
		return refusedPause, false, nil
	}
	if len(p.ops) == 0 {
		turn, ok := p.truth.Next()
		if !ok { // over: the table finishes it and waits for the racks to clear
			if p.overAt.IsZero() {
				p.overAt = now
			}
			if p.cfg.Fast && now.Sub(p.overAt) > stallAfter {
				g, played := t.Game(), p.truth.Log()
				var qs []string
				for _, q := range t.tracker.Questions() {
					qs = append(qs, q.Text)
				}
				return pace, false, fmt.Errorf("daemon: game %s: the players finished it %v ago (%d acts, the last %v), the table has not (%d acts, seat %d to %s, %d in the wall; questions %q)",
					t.GameID(), now.Sub(p.overAt), len(played), played[max(0, len(played)-3):], g.Seq, g.Turn, g.Phase, g.WallLeft, qs)
			}
			return pace, false, nil
		}
		p.ops, p.undo, p.act = turn.Ops, turn.Undo, turn.Act.Act
	}
	o := p.ops[0]
	p.ops = p.ops[1:]
	if len(p.ops) == 0 && (p.act == game.ActDraw || p.act == game.ActDeal || p.act == game.ActFlower) {
		pace += 2 * p.cfg.Pace.D() // a tile from the wall racked: the player looks at it
	}
	return pace, false, p.handle(o, now, say)
}

// handle does one movement on the physical table.
func (p *players) handle(o sim.Op, now time.Time, say func(track.Command) error) error {
	z := rack.In
	if o.Place.Zone == sim.On {
		z = rack.On
	}
	switch o.Kind {
	case sim.Put:
		return p.hands.Put(p.layout.rackName(o.Place.Seat, o.Place.Rack), z, o.Tiles...)
	case sim.Take:
		return p.hands.Take(p.layout.rackName(o.Place.Seat, o.Place.Rack), z, o.Tiles...)
	case sim.Discard, sim.TakeDiscard:
		p.eyes.Show(o.Kind == sim.Discard, o.Tiles[0], now)
	case sim.Say:
		c := track.Command{Seat: o.Seat, Kind: track.CmdMahJongg, Rack: o.Rack, At: now}
		switch o.Command {
		case "wall_game":
			c.Kind = track.CmdWallGame
		case "act": // what no sensor sees (a roll of the die), entered on the display or a phone
			c.Kind, c.Rack, c.Action = track.CmdAct, 0, o.Act
		}
		if say != nil {
			if err := say(c); err != nil {
				return fmt.Errorf("daemon: seat %d said %s: %w", o.Seat, o.Command, err)
			}
		}
	}
	return nil
}
