// Package players is the virtual players of a simulated table: they play their own game
// (sim.Game) with their hands on the physical table (sim/table), as people would, whatever the
// referee makes of it, and they behave as people at a table do when it asks: they stop while a
// question is open and, after a while, enter by hand the act the sensors missed. The daemon
// tracks their game from the sensors alone; Stats compares the two.
package players

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
	"github.com/siamesetable/siamesed/sim/table"
)

// Referee is what the players see of the table's referee: its game and its questions.
type Referee interface {
	Waiting() bool // a game is over and the racks must be cleared for the next
	GameID() string
	Game() game.State
	Played() int // games finished
	Questions() []track.Question
}

// Config is how the players play.
type Config struct {
	Seed   uint64
	Games  int           // games to play, then stop (0: on)
	Pace   time.Duration // one movement of a hand
	Faults float64       // chance per turn of a rule broken on purpose
	// Overlap is the chance, per act, that the next act's first movement is made together
	// with this act's last: two hands moving at once.
	Overlap float64
	// Soak: a table stuck for stallAfter stops the run, naming the game, rather than wait.
	Soak bool
}

// Players are the virtual players of a simulated table. Each step does one movement of a hand.
type Players struct {
	cfg   Config
	card  *card.Card
	rules *game.Ruleset
	racks [][2]string // each seat's hardware racks
	table *table.Table
	rng   *rand.Rand

	truth   *sim.Game
	ops     []sim.Op // the movements of the act under way
	act     game.Act // the act under way
	undo    []sim.Op // the movements that put back an act the referee refuses, once it has
	game    string   // the table's game the players are playing
	games   int      // games begun
	moved   bool     // a tile was moved (Dealt)
	cleared bool     // the table was cleared after the last game
	checked string   // the last game compared with what was played
	stats   Stats
	// OnCheck hears each game compared with what was played once the table has ended it.
	OnCheck func(id string, err error)
	// OnAct hears each act the players begin, in notation, at table time: the debug log sets
	// what they did beside what the table read.
	OnAct    func(now time.Time, act string)
	overAt   time.Time // when the players finished the game the table has not finished yet
	helped   bool      // an act of this game was entered by hand
	entered  int       // the table's act count when the players last entered an act by hand (-1: none)
	vouched  int       // the table's act count when they last said the racks are right (-1: never)
	tookBack int       // the table's act count when they last took its last act back (-1: never)
	objected int       // the table's act count when they last objected to a fault named (-1: never)
	// base is the game their own game's log starts from: a new game, or the table's record
	// where they sat down at it (a restart) or gave in to it.
	base game.State
	// gaveIn is what they gave up by giving in to the table's record in this game (nil: they
	// did not), and gaveAt the table's act count when they last did.
	gaveIn *GaveIn
	gaveAt int
	// sameAt and same remember sameSoFar's last answer, for the table's game digest it was
	// given: a stuck table is checked every step, and the answer changes only with an act.
	sameAt   string
	same     bool
	sameActs int
}

// stallAfter is how long a soak's players wait for a table stuck on a question they cannot
// answer, or on a game they have finished: past it the soak stops, naming the game.
const stallAfter = 10 * time.Minute

// New seats players at a simulated table: racks are each seat's two hardware racks.
func New(cfg Config, c *card.Card, r *game.Ruleset, racks [][2]string, t *table.Table) *Players {
	return &Players{cfg: cfg, card: c, rules: r, racks: racks, table: t, rng: rand.New(rand.NewPCG(cfg.Seed, 99)), entered: -1, vouched: -1, tookBack: -1, objected: -1, gaveAt: -1, base: game.New(r, c)}
}

// Stats are the games compared so far.
func (p *Players) Stats() Stats { return p.stats }

// Truth is the players' own game (nil between games).
func (p *Players) Truth() *sim.Game { return p.truth }

// SitDown makes the physical table show the game ref is in, as after a restart from the
// journal, and has the players carry on from there.
func (p *Players) SitDown(ref Referee) error {
	s := ref.Game()
	p.table.SitDown(s.Discards)
	for _, o := range sim.Layout(&s) {
		if err := p.handle(o, time.Time{}, nil); err != nil {
			return err
		}
	}
	p.followCard(s)
	p.truth, p.base = sim.Resume(s, p.card, p.cfg.Seed+uint64(s.Seq)*7919, p.cfg.Faults), s
	p.game = ref.GameID()
	p.games++
	return nil
}

// followCard has the players play for the card of the table's game, where it names one: the
// set-up page may have given the table another card since they sat down.
func (p *Players) followCard(s game.State) {
	if s.Card != nil {
		p.card = s.Card
	}
}

// Dealt says whether the players have moved a tile yet: before, the table's empty game may
// begin afresh under them (the set-up page's settings applied at once), and they may be held
// back from dealing.
func (p *Players) Dealt() bool { return p.moved }

// refusedPause is how long players take to hear that the referee refused an act and start to
// undo it: longer than the tracker's grace period, as at a real table, where the referee says
// so before the tiles go back.
const refusedPause = 3 * time.Second

// Step does the next movement at now, telling the table what the players say. It reports how
// long the movement takes (the pace, longer once a tile from the wall is racked, by a draw or
// as a flower's replacement: a player looks at the tile), and done once the configured number
// of games has been played.
func (p *Players) Step(t Referee, now time.Time, say func(track.Command) error) (time.Duration, bool, error) {
	pace := p.cfg.Pace
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
			err := p.stats.Add(t.Game(), p.truth.State, len(p.truth.Deliberate), p.gaveIn)
			if p.OnCheck != nil {
				p.OnCheck(t.GameID(), err)
			}
		}
		if p.cfg.Games > 0 && t.Played() >= p.cfg.Games {
			return pace, true, nil
		}
		if !p.cleared { // the players push the tiles back to the wall
			p.table.Clear(now)
			p.cleared, p.truth, p.ops, p.undo = true, nil, nil, nil
		}
		return pace, false, nil
	case p.game != t.GameID() || p.truth == nil:
		// A new game has begun: shuffle and deal.
		p.game, p.cleared, p.overAt, p.helped, p.entered, p.vouched, p.tookBack = t.GameID(), false, time.Time{}, false, -1, -1, -1
		p.games++
		p.followCard(t.Game())
		p.truth = sim.NewGame(p.rules, p.card, p.cfg.Seed*1_000_003+uint64(p.games), p.cfg.Faults)
		p.base, p.gaveIn, p.gaveAt, p.objected = game.New(p.rules, p.card), nil, -1, -1
	}
	if objected, err := p.object(t.Game(), now, say); objected || err != nil {
		return pace, false, err
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
		if len(t.Questions()) > 0 {
			return pace, false, nil // the table asks: people stop and answer before they play on
		}
		if !p.next(now) {
			return pace, false, nil
		}
	}
	o := p.ops[0]
	p.ops = p.ops[1:]
	if len(p.ops) == 0 && (p.act == game.ActDraw || p.act == game.ActDeal || p.act == game.ActFlower) {
		pace += 2 * p.cfg.Pace // a tile from the wall racked: the player looks at it
	}
	if err := p.handle(o, now, say); err != nil {
		return pace, false, err
	}
	// Two hands at once: the next act's first movement with this one's last.
	if len(p.ops) == 0 && len(p.undo) == 0 && p.cfg.Overlap > 0 && p.rng.Float64() < p.cfg.Overlap && p.next(now) {
		o := p.ops[0]
		p.ops = p.ops[1:]
		return pace, false, p.handle(o, now, say)
	}
	return pace, false, nil
}

// next takes the players' next act; false when their game is over (the table finishes it and
// waits for the racks to clear).
func (p *Players) next(now time.Time) bool {
	turn, ok := p.truth.Next()
	if !ok {
		if p.overAt.IsZero() {
			p.overAt = now
		}
		return false
	}
	if p.OnAct != nil {
		p.OnAct(now, turn.Act.Notation())
	}
	p.ops, p.undo, p.act = turn.Ops, turn.Undo, turn.Act.Act
	return len(p.ops) > 0
}

// stalled names, in a soak, a table stuck for stallAfter: a question nobody could answer, or a
// game the players finished and the table has not.
func (p *Players) stalled(t Referee, now time.Time) error {
	since, what := p.overAt, "the players finished it"
	for _, q := range t.Questions() {
		if since.IsZero() || q.Since.Before(since) {
			since, what = q.Since, "a question is open"
		}
	}
	if !p.cfg.Soak || since.IsZero() || now.Sub(since) <= stallAfter {
		return nil
	}
	g, played := t.Game(), p.truth.Log()
	var qs []string
	for _, q := range t.Questions() {
		qs = append(qs, q.Text)
	}
	var last []string
	for _, a := range played[max(0, len(played)-stuckShown):] {
		last = append(last, a.Notation())
	}
	return fmt.Errorf("players: game %s stuck: %s since %v (the players played %d acts, the last %q; the table %d, seat %d to %s, %d in the wall; questions %q)",
		t.GameID(), what, now.Sub(since), len(played), last, g.Seq, g.Turn, g.Phase, g.WallLeft, qs)
}

// stuckShown is how many of the players' last acts a stall names: enough to reach back past
// the acts the table missed.
const stuckShown = 8

// answerAfter is how long the players let a question stand, or the table lag behind a game they
// have finished, before they do what people at a table do: enter the act the sensors missed by
// hand (the seat view's "correct a reading").
const answerAfter = 20 * time.Second

// correct enters by hand an act the table has not played, when the table is stuck (a question
// open for answerAfter, or the players' game over that long) and one act puts its record on the
// game as played (missing). A record no act puts right is left for the racks (vouch); a record
// that is still not their game then has its last act taken back (takeBack); when nothing is
// left to take back, they give in to the record (giveIn).
func (p *Players) correct(t Referee, now time.Time, say func(track.Command) error) (bool, error) {
	played, g := p.truth.Log(), t.Game()
	stuck := !p.overAt.IsZero() && now.Sub(p.overAt) > answerAfter
	for _, q := range t.Questions() {
		stuck = stuck || now.Sub(q.Since) > answerAfter
	}
	if !stuck || say == nil {
		return false, nil
	}
	if g.Seq != p.entered {
		if entered, err := p.enter(t, g, played, now, say); entered || err != nil {
			return entered, err
		}
	}
	if vouched, err := p.vouch(g, now, say); vouched || err != nil {
		return vouched, err
	}
	if took, err := p.takeBack(g, now, say); took || err != nil {
		return took, err
	}
	return p.giveIn(t, g, now)
}

// enter enters by hand the act the table's record lacks, or answers that the camera misread:
// false when no act puts the record right, or the entry was refused.
func (p *Players) enter(t Referee, g game.State, played []game.Action, now time.Time, say func(track.Command) error) (bool, error) {
	// The table has all they did: what the camera reported did not happen.
	if done, same := p.SameSoFar(g); same && done == len(played) {
		for _, q := range t.Questions() {
			if slices.ContainsFunc(q.Options, func(o track.Option) bool { return o.Key == "misread" }) {
				p.noteHelp()
				return true, say(track.Command{Seat: 0, Kind: track.CmdAnswer, Question: q.ID, Option: "misread", At: now})
			}
		}
		return false, nil
	}
	a, ok := p.missing(g, played)
	if !ok {
		return false, nil
	}
	p.entered = g.Seq // once: a refused entry is not repeated
	return p.tell(say, track.Command{Seat: a.Seat, Kind: track.CmdAct, Action: &a, At: now})
}

// missing is the act the table's record lacks, as the players read it off the display: the first
// of their acts near the record's act count that, played on the record, makes it their game as
// played. On a record that is their game so far, that is their next act. On a record holding
// their acts in another order, it is the act left out: a move between racks read before the
// pick that came first (real-rack seed 42, whose pick was never read), the pick.
func (p *Players) missing(g game.State, played []game.Action) (game.Action, bool) {
	acts := g.InEffect() - p.base.InEffect()
	from, to := max(0, acts-replayWindow), min(len(played), acts+replayWindow+1)
	if from >= to { // the record holds more acts than they played, and more than the window
		return game.Action{}, false
	}
	for _, a := range played[from:to] {
		next, _, err := game.Apply(g, a)
		if err != nil {
			continue
		}
		if _, same := p.replaysTo(next); same {
			return a, true
		}
	}
	return game.Action{}, false
}

// vouch: what they could enter did not help (the record has gone wrong, or the entry was
// refused), and their hands are still: they say the racks are right as they are (the seat
// view's button), once for each act count of the table. The tracker plays the acts that explain
// the racks, or says what nothing explains, and the stall names it if it lasts.
func (p *Players) vouch(g game.State, now time.Time, say func(track.Command) error) (bool, error) {
	if len(p.ops) > 0 || len(p.undo) > 0 || g.Seq == p.vouched {
		return false, nil
	}
	p.vouched = g.Seq
	p.stats.RacksRight++
	return p.tell(say, track.Command{Seat: 0, Kind: track.CmdRacksRight, At: now})
}

// takeBack: the table's record is not their game as far as it goes, and neither an act
// entered by hand nor the racks said right put it right: they take back the table's last act
// (the seat view's button), once for each act count of the table. Act by act, the record goes
// back to where it was still their game, and the acts entered by hand take it on from there.
func (p *Players) takeBack(g game.State, now time.Time, say func(track.Command) error) (bool, error) {
	if len(p.ops) > 0 || len(p.undo) > 0 || g.Seq == p.tookBack {
		return false, nil
	}
	if _, same := p.SameSoFar(g); same {
		return false, nil
	}
	p.tookBack = g.Seq
	return p.sayTakeBack(now, say, &p.stats.TakenBack)
}

// sayTakeBack presses the seat view's take back; count goes up when the table took it.
func (p *Players) sayTakeBack(now time.Time, say func(track.Command) error, count *int) (bool, error) {
	took, err := p.tell(say, track.Command{Seat: 0, Kind: track.CmdTakeBack, At: now})
	if took {
		*count++
	}
	return took, err
}

// object: the table's last act named a rule broken that the players never broke (their own
// game, always ahead of the record, has fewer such faults). They take that act back at once, as
// a player named at the table would from the display; the table then reads the racks again.
// Once for each act count of the table.
func (p *Players) object(g game.State, now time.Time, say func(track.Command) error) (bool, error) {
	if say == nil || g.Seq == p.objected || g.Phase == game.PhaseOver {
		return false, nil
	}
	if !slices.ContainsFunc(g.Warnings, func(w game.Warning) bool { return w.Seq == g.Seq }) {
		return false, nil // the last act named nothing (most acts): no need to count faults
	}
	named, real := faultsOf(g), faultsOf(p.truth.State)
	if !slices.ContainsFunc(g.Warnings, func(w game.Warning) bool {
		k := fault{w.Seat, w.Rule}
		return w.Seq == g.Seq && named[k] > real[k]
	}) {
		return false, nil
	}
	p.objected = g.Seq
	return p.sayTakeBack(now, say, &p.stats.Objected)
}

// giveIn: the table has stayed stuck for giveInAfter, and nothing the players can say puts
// its record right (it went wrong further back than the table can take back). They do what
// the table asks: put the tiles as its game has them (the seat views show it), and play on
// from its record; the game as they had played it is lost, and it is counted so (Stats).
// Once for each act count of the table.
func (p *Players) giveIn(t Referee, g game.State, now time.Time) (bool, error) {
	since := p.overAt
	for _, q := range t.Questions() {
		if since.IsZero() || q.Since.Before(since) {
			since = q.Since
		}
	}
	if g.Seq == p.gaveAt || len(p.ops) > 0 || len(p.undo) > 0 || since.IsZero() || now.Sub(since) < giveInAfter || g.Phase == game.PhaseOver {
		return false, nil
	}
	ops, err := rearranged(p.shows, &g)
	if err != nil {
		return false, fmt.Errorf("players: giving in to the table's record: %w", err)
	}
	for _, o := range ops {
		if err := p.handle(o, now, nil); err != nil {
			return false, fmt.Errorf("players: giving in to the table's record: %w", err)
		}
	}
	if p.gaveIn == nil {
		p.gaveIn = &GaveIn{}
	}
	p.gaveIn.add(p.truth.State, g, len(p.truth.Deliberate))
	p.gaveAt = g.Seq
	p.stats.GaveIn++
	p.truth, p.base, p.overAt = sim.Resume(g, p.card, p.cfg.Seed+uint64(g.Seq)*7919, p.cfg.Faults), g, time.Time{}
	p.entered, p.vouched, p.tookBack, p.objected = -1, -1, -1, -1 // their game is new: what they may say is too
	p.sameAt = ""                                                 // and so is how far the record is their game
	return true, nil
}

// giveInAfter is how long the players let the table stay stuck before they give in to its
// record: long enough for every act entered by hand, racks said right and take back to have
// been tried, well within the soak's stall.
const giveInAfter = 3 * time.Minute

// rearranged are the movements that take the table, whose zones hold what shows says, to one
// showing game to: the tiles standing in and lying on each rack that differ, taken away, then
// put there (a tile put on one rack may be one taken from another). It starts from the tiles as
// they lie, not from the players' game: a tile laid otherwise than their game has it (real-rack
// seed 217: a 1D lying beside a pung their game had standing) made the first take fail and
// stopped the run.
func rearranged(shows func(sim.Place) (tile.Counts, error), to *game.State) ([]sim.Op, error) {
	var takes, puts []sim.Op
	for i := range to.Seats {
		for r := 1; r <= 2; r++ {
			b := &to.Seats[i].Racks[r-1]
			for _, z := range []struct {
				zone sim.Zone
				want tile.Counts
			}{{sim.In, b.Concealed}, {sim.On, lying(b)}} {
				place := sim.Place{Seat: i, Rack: r, Zone: z.zone}
				have, err := shows(place)
				if err != nil {
					return nil, err
				}
				take, put := differ(place, have, z.want)
				takes, puts = append(takes, take...), append(puts, put...)
			}
		}
	}
	return append(takes, puts...), nil
}

// shows is what the physical table holds in a zone now.
func (p *Players) shows(at sim.Place) (tile.Counts, error) {
	return p.table.Racks().Contents(p.racks[at.Seat][at.Rack-1], rackZone(at.Zone))
}

// rackZone is the racks' name for a zone.
func rackZone(z sim.Zone) rack.Zone {
	if z == sim.On {
		return rack.On
	}
	return rack.In
}

// lying counts the tiles lying on a rack: its exposures and flowers.
func lying(rk *game.Rack) tile.Counts {
	var c tile.Counts
	for _, e := range rk.Exposures {
		for _, f := range e.Tiles {
			c[f]++
		}
	}
	c[tile.Flower] += uint8(rk.Flowers)
	return c
}

// differ takes from place the tiles it holds beyond want, and puts there those it lacks.
func differ(place sim.Place, have, want tile.Counts) (take, put []sim.Op) {
	var taken, putting []tile.Face
	for f := tile.Face(0); f < tile.NumFaces; f++ {
		for n := int(have[f]); n > int(want[f]); n-- {
			taken = append(taken, f)
		}
		for n := int(have[f]); n < int(want[f]); n++ {
			putting = append(putting, f)
		}
	}
	if len(taken) > 0 {
		take = []sim.Op{{Kind: sim.Take, Place: place, Tiles: taken}}
	}
	if len(putting) > 0 {
		put = []sim.Op{{Kind: sim.Put, Place: place, Tiles: putting}}
	}
	return take, put
}

// tell says c at the table, as a player does on the display or a phone: false, with no error,
// when the table refused it (it says why there); an answer taken counts as help.
func (p *Players) tell(say func(track.Command) error, c track.Command) (bool, error) {
	if err := say(c); err != nil {
		if errors.Is(err, track.ErrCommand) || errors.Is(err, track.ErrUnreconciled) {
			return false, nil
		}
		return false, err
	}
	p.noteHelp()
	return true, nil
}

// noteHelp counts a player's answer or act entered by hand.
func (p *Players) noteHelp() {
	p.stats.HandEntered++
	if !p.helped {
		p.helped = true
		p.stats.Helped++
	}
}

// SameSoFar says whether the table's game is the players' own game as far as it goes, and how
// many of their acts that is (the table may record as one act what they did as two: tiles
// moved between racks twice before the racks were still).
func (p *Players) SameSoFar(g game.State) (int, bool) {
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
func (p *Players) replaysTo(g game.State) (int, bool) {
	played := p.truth.Log()
	want := asPlayed(g).Digest()
	s := p.base
	acts := g.InEffect() - p.base.InEffect()
	for n := 0; n <= min(len(played), acts+replayWindow); n++ {
		if n >= acts-replayWindow && asPlayed(s).Digest() == want {
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
	s.Seq, s.TakenBack = 0, 0
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
func (p *Players) handle(o sim.Op, now time.Time, say func(track.Command) error) error {
	p.moved = true
	z := rackZone(o.Place.Zone)
	switch o.Kind {
	case sim.Put:
		return p.table.Put(p.racks[o.Place.Seat][o.Place.Rack-1], z, o.Tiles...)
	case sim.Take:
		return p.table.Take(p.racks[o.Place.Seat][o.Place.Rack-1], z, o.Tiles...)
	case sim.Discard:
		p.table.Discard(o.Tiles[0], now)
	case sim.TakeDiscard:
		p.table.TakeDiscard(o.Tiles[0], now)
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
				return fmt.Errorf("players: seat %d said %s: %w", o.Seat, o.Command, err)
			}
		}
	}
	return nil
}
