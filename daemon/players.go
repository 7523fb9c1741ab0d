package daemon

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
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
	helped  bool      // an act of this game was entered by hand
	entered int       // the table's act count when the players last entered an act by hand (-1: none)
	// sameAt and same remember sameSoFar's last answer, for the table's game digest it was
	// given: a stuck table is checked every step, and the answer changes only with an act.
	sameAt   string
	same     bool
	sameActs int
}

// stallAfter is how long a soak's players wait for a table stuck on a question they cannot
// answer, or on a game they have finished: past it the soak stops, naming the game.
const stallAfter = 10 * time.Minute

func newPlayers(cfg SimConfig, c *card.Card, r *game.Ruleset, l layout, hands Hands, eyes Eyes) *players {
	return &players{cfg: cfg, card: c, rules: r, layout: l, hands: hands, eyes: eyes, rng: rand.New(rand.NewPCG(cfg.Seed, 99)), entered: -1}
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
		p.game, p.cleared, p.overAt, p.helped, p.entered = t.GameID(), false, time.Time{}, false, -1
		p.games++
		p.truth = sim.NewGame(p.rules, p.card, p.cfg.Seed*1_000_003+uint64(p.games), p.cfg.Faults)
	}
	if entered, err := p.correct(t, now, say); entered || err != nil {
		return pace, false, err
	}
	if len(p.ops) == 0 && len(p.undo) > 0 {
		// The referee refused the act: the players hear it, then put the tiles back.
		p.ops, p.undo = p.undo, nil
		return refusedPause, false, nil
	}
	if len(p.ops) == 0 {
		if err := p.stalled(t, now); err != nil {
			return pace, false, err
		}
		if len(t.tracker.Questions()) > 0 {
			return pace, false, nil // the table asks: people stop and answer before they play on
		}
		turn, ok := p.truth.Next()
		if !ok { // over: the table finishes it and waits for the racks to clear
			if p.overAt.IsZero() {
				p.overAt = now
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

// stalled names, in a soak, a table stuck for stallAfter: a question nobody could answer, or a
// game the players finished and the table has not.
func (p *players) stalled(t *Table, now time.Time) error {
	since, what := p.overAt, "the players finished it"
	for _, q := range t.tracker.Questions() {
		if since.IsZero() || q.Since.Before(since) {
			since, what = q.Since, "a question is open"
		}
	}
	if !p.cfg.Fast || since.IsZero() || now.Sub(since) <= stallAfter {
		return nil
	}
	g, played := t.Game(), p.truth.Log()
	var qs []string
	for _, q := range t.tracker.Questions() {
		qs = append(qs, q.Text)
	}
	return fmt.Errorf("daemon: game %s stuck: %s since %v (the players played %d acts, the last %v; the table %d, seat %d to %s, %d in the wall; questions %q)",
		t.GameID(), what, now.Sub(since), len(played), played[max(0, len(played)-3):], g.Seq, g.Turn, g.Phase, g.WallLeft, qs)
}

// answerAfter is how long the players let a question stand, or the table lag behind a game they
// have finished, before they do what people at a table do: enter the act the sensors missed by
// hand (the seat view's "correct a reading").
const answerAfter = 20 * time.Second

// correct enters by hand the next act the table has not played, when the table is stuck (a
// question open for answerAfter, or the players' game over that long) and its record so far is
// the game as played. A record gone wrong cannot be put right this way: it is left for the stall
// to name.
func (p *players) correct(t *Table, now time.Time, say func(track.Command) error) (bool, error) {
	played, g := p.truth.Log(), t.Game()
	stuck := !p.overAt.IsZero() && now.Sub(p.overAt) > answerAfter
	for _, q := range t.tracker.Questions() {
		stuck = stuck || now.Sub(q.Since) > answerAfter
	}
	if !stuck || say == nil || g.Seq == p.entered {
		return false, nil
	}
	done, same := p.sameSoFar(g)
	if !same {
		return false, nil
	}
	if done == len(played) { // the table has all they did: what the camera reported did not happen
		for _, q := range t.tracker.Questions() {
			if slices.ContainsFunc(q.Options, func(o track.Option) bool { return o.Key == "misread" }) {
				p.noteHelp()
				return true, say(track.Command{Seat: 0, Kind: track.CmdAnswer, Question: q.ID, Option: "misread", At: now})
			}
		}
		return false, nil
	}
	a := played[done]
	p.entered = g.Seq // once: a refused entry is not repeated
	if err := say(track.Command{Seat: a.Seat, Kind: track.CmdAct, Action: &a, At: now}); err != nil {
		if errors.Is(err, track.ErrCommand) {
			return false, nil // refused: the table will say why; the stall names it if it lasts
		}
		return false, err
	}
	p.noteHelp()
	return true, nil
}

// noteHelp counts a player's answer or act entered by hand.
func (p *players) noteHelp() {
	p.stats.HandEntered++
	if !p.helped {
		p.helped = true
		p.stats.Helped++
	}
}

// sameSoFar says whether the table's game is the players' own game as far as it goes, and how
// many of their acts that is (the table may record as one act what they did as two: tiles
// moved between racks twice before the racks were still).
func (p *players) sameSoFar(g game.State) (int, bool) {
	key := p.game + " " + g.Digest()
	if key != p.sameAt {
		p.sameAt = key
		p.sameActs, p.same = p.replaysTo(g)
	}
	return p.sameActs, p.same
}

// replayWindow is how far from the table's act count the players look for the same game.
const replayWindow = 3

// replaysTo replays the players' acts and compares each game near the table's act count with
// the table's, as played: act numbers and the order of an exposure's tiles aside.
func (p *players) replaysTo(g game.State) (int, bool) {
	played := p.truth.Log()
	want := asPlayed(g).Digest()
	s := game.New(p.rules, p.card)
	for n := 0; n <= min(len(played), g.Seq+replayWindow); n++ {
		if n >= g.Seq-replayWindow && asPlayed(s).Digest() == want {
			return n, true
		}
		if n == len(played) {
			break
		}
		next, _, err := game.Apply(s, played[n])
		if err != nil {
			return 0, false
		}
		s = next
	}
	return 0, false
}

// asPlayed is s as the players see their game: no act numbers, and each exposure's tiles in
// one order (a call laid as 8C J 8C is the call the player made as 8C 8C J). s is not changed.
func asPlayed(s game.State) game.State {
	s.Seq = 0
	s.Warnings = slices.Clone(s.Warnings)
	for i := range s.Warnings {
		s.Warnings[i].Seq = 0
	}
	s.Seats = slices.Clone(s.Seats)
	for i := range s.Seats {
		for r := range s.Seats[i].Racks {
			rk := &s.Seats[i].Racks[r]
			rk.Exposures = slices.Clone(rk.Exposures)
			for x := range rk.Exposures {
				rk.Exposures[x].Tiles = slices.Sorted(slices.Values(rk.Exposures[x].Tiles))
			}
		}
	}
	return s
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
