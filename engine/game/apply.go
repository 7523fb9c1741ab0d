package game

import (
	"errors"
	"fmt"

	"github.com/siamesetable/siamesed/engine/tile"
)

// ErrImpossible wraps every refusal: an act that cannot have happened at the table.
var ErrImpossible = errors.New("impossible action")

// Apply plays one action. It returns the new state and what the referee finds; on an error the
// state is the one given (with nothing applied) and the action should be re-observed.
func Apply(s State, a Action) (State, []Verdict, error) {
	if err := a.check(); err != nil {
		return s, nil, fmt.Errorf("%w: %v", ErrImpossible, err)
	}
	if a.Seat < 0 || a.Seat >= len(s.Seats) {
		return s, nil, fmt.Errorf("%w: game: no seat %d at a %d-player table", ErrImpossible, a.Seat, len(s.Seats))
	}
	if s.Phase == PhaseOver {
		return s, nil, fmt.Errorf("%w: game: the game is over", ErrImpossible)
	}
	p := play{s: s.clone(), a: a}
	p.s.Seq++
	var err error
	switch a.Act {
	case ActDeal:
		err = p.deal()
	case ActDraw:
		err = p.draw()
	case ActDiscard:
		err = p.discard()
	case ActCall:
		err = p.call()
	case ActExchange:
		err = p.exchange()
	case ActMove:
		err = p.move()
	case ActMahJongg:
		err = p.mahjong()
	case ActFixRack:
		err = p.fixRack()
	case ActWallEnd:
		p.endGame("wall_game")
	}
	if err != nil {
		return s, nil, fmt.Errorf("%w: game: %s by seat %d: %v", ErrImpossible, a.Act, a.Seat, err)
	}
	if p.s.Phase != PhaseOver {
		p.checkEnd()
	}
	if len(p.v) == 0 {
		p.verdict(Verdict{Kind: Legal, Seat: a.Seat})
	}
	return p.s, p.v, nil
}

// play is one Apply in progress.
type play struct {
	s State
	a Action
	v []Verdict
}

func (p *play) verdict(v Verdict) {
	v.Seq = p.s.Seq
	p.v = append(p.v, v)
}

// infraction reports rule id of the ruleset (its text quoted) broken by the acting seat.
func (p *play) infraction(rule, detail string) { p.infractionBy(p.a.Seat, rule, detail) }

// infractionBy reports an infraction some other seat than the actor's caused.
func (p *play) infractionBy(seat int, rule, detail string) {
	p.verdict(Verdict{Kind: Infraction, Seat: seat, Rule: p.s.Rules.Name + " " + rule, Quote: p.s.Rules.quote(rule), Detail: detail})
}

func (p *play) seat() *Seat { return &p.s.Seats[p.a.Seat] }

// rack returns the acting seat's rack n (1 or 2).
func (p *play) rack(n int) *Rack { return &p.s.Seats[p.a.Seat].Racks[n-1] }

// rackOr1 is the action's rack or, when none is given, rack 1 unless rack 1 holds a declared
// Mah Jongg (a drawn tile goes in the rack still playing).
func (p *play) rackOr1() int {
	switch {
	case p.a.Rack != 0:
		return p.a.Rack
	case p.seat().Racks[0].MahJongg != nil:
		return 2
	}
	return 1
}

// takeFromWall removes tiles from the unseen tiles; they must exist there.
func (p *play) takeFromWall(fs []tile.Face) error {
	c, err := tile.CountsOf(fs)
	if err != nil {
		return err
	}
	if !p.s.Unseen.Sub(&c) {
		return fmt.Errorf("%s: not that many left unseen in the %s set", tile.Format(fs), p.s.Rules.Set)
	}
	p.s.WallLeft -= len(fs)
	return nil
}

// takeConcealed removes tiles from the seat's concealed tiles, from rack prefer first.
func (p *play) takeConcealed(fs []tile.Face, prefer int) error {
	st := p.seat()
	first, second := &st.Racks[prefer-1].Concealed, &st.Racks[2-prefer].Concealed
	a, b := *first, *second
	for _, f := range fs {
		switch {
		case a[f] > 0:
			a[f]--
		case b[f] > 0:
			b[f]--
		default:
			return fmt.Errorf("seat %d does not hold %v in its racks", p.a.Seat, f)
		}
	}
	*first, *second = a, b
	return nil
}

func (p *play) deal() error {
	if p.s.Phase != PhaseDeal {
		return errors.New("dealing is over")
	}
	if err := p.takeFromWall(p.a.Tiles); err != nil {
		return err
	}
	r := p.rack(p.rackOr1())
	for _, f := range p.a.Tiles {
		r.Concealed[f]++
	}
	p.seat().Dealt += len(p.a.Tiles)
	return nil
}

// startPlay ends the deal at the first act of play: a wrong count is a misdeal (siamese 18B).
func (p *play) startPlay() bool {
	if p.s.Phase != PhaseDeal {
		return true
	}
	for i := range p.s.Seats {
		if got, want := p.s.Seats[i].Dealt, p.s.dealFor(i); got != want {
			p.verdict(Verdict{Kind: Misdeal, Seat: i, Rule: p.s.Rules.Name + " misdeal", Quote: p.s.Rules.quote("misdeal"),
				Detail: fmt.Sprintf("seat %d was dealt %d tiles, not %d: re-deal", i, got, want)})
			p.endGame("misdeal")
			return false
		}
	}
	p.s.Turn = 0
	p.s.Phase = PhaseDiscard
	if p.s.Rules.EastDraws {
		p.s.Phase = PhaseDraw
	}
	return true
}

func (p *play) draw() error {
	if !p.startPlay() {
		return nil
	}
	if err := p.takeFromWall(p.a.Tiles); err != nil {
		return err
	}
	p.passStoppedTurn()
	switch {
	case p.a.Seat == p.s.Turn && p.s.Phase == PhaseDiscard:
		p.infraction("no-picking-ahead", fmt.Sprintf("seat %d drew again before discarding", p.a.Seat))
	case p.a.Seat != p.s.Turn || p.s.Phase != PhaseDraw:
		p.infraction("no-picking-ahead", fmt.Sprintf("seat %d drew out of turn (seat %d is to %s)", p.a.Seat, p.s.Turn, p.s.Phase))
	}
	p.rack(p.rackOr1()).Concealed[p.a.Tiles[0]]++
	p.s.Last = nil // covered: no longer callable
	p.s.Turn = p.a.Seat
	p.s.Phase = PhaseDiscard
	p.checkCount(p.s.expectedOffTurn() + 1)
	return nil
}

func (p *play) discard() error {
	if !p.startPlay() {
		return nil
	}
	f := p.a.Tiles[0]
	if err := p.takeConcealed(p.a.Tiles, p.rackOr1()); err != nil {
		return err
	}
	if p.a.Seat != p.s.Turn || p.s.Phase != PhaseDiscard {
		p.infraction("turn", fmt.Sprintf("seat %d discarded out of turn", p.a.Seat))
	}
	named := f
	if p.a.Named != nil && *p.a.Named != f {
		named = *p.a.Named
		p.infraction("misnamed", fmt.Sprintf("discarded %v named as %v", f, named))
	}
	p.s.Discards = append(p.s.Discards, f)
	p.s.Last = &Discard{Seat: p.a.Seat, Tile: f, Named: named}
	p.s.Pending = nil
	p.s.Phase = PhaseDraw
	p.s.Turn = p.nextLive(p.a.Seat)
	p.checkCount(p.s.expectedOffTurn())
	return nil
}

// passStoppedTurn: a seat that stopped playing in its own turn (a Mah Jongg and a dead rack)
// should discard to complete it (siamese 10); when the next seat draws instead, the turn has
// passed without that discard, which no text makes an infraction.
func (p *play) passStoppedTurn() {
	if p.s.Phase == PhaseDiscard && !p.s.Seats[p.s.Turn].Live() && p.a.Seat == p.nextLive(p.s.Turn) {
		p.s.Turn, p.s.Phase = p.a.Seat, PhaseDraw
	}
}

// nextLive is the next seat after from that still plays (from itself if no other does).
func (p *play) nextLive(from int) int {
	n := len(p.s.Seats)
	for i := 1; i <= n; i++ {
		if s := (from + i) % n; p.s.Seats[s].Live() {
			return s
		}
	}
	return from
}

// checkCount kills the acting seat's live racks when it holds the wrong number of tiles
// (siamese 18A after a Mah Jongg, 18C otherwise; masters "incorrect tile count").
func (p *play) checkCount(want int) {
	st := p.seat()
	if got := st.Holding(); got != want {
		rule := "tile-count"
		if st.MahJonggs > 0 {
			rule = "mahjong-rack-count"
		}
		for r := 1; r <= 2; r++ {
			if st.Racks[r-1].Live() {
				p.kill(p.a.Seat, r, fmt.Sprintf("wrong tile count: %d tiles, not %d", got, want), rule, -1)
			}
		}
		return
	}
	if !p.s.Rules.MahJonggRackHolds14 {
		return
	}
	for r := 1; r <= 2; r++ { // a Mah Jongg rack holds exactly 14 (Royale 12)
		rk := &st.Racks[r-1]
		if rk.MahJongg != nil && rk.Count() != 14 {
			other := 3 - r
			if st.Racks[other-1].Live() {
				p.kill(p.a.Seat, other, fmt.Sprintf("Mah Jongg rack holds %d tiles, not 14", rk.Count()), "mahjong-rack-count", -1)
			}
		}
	}
}

// kill declares a rack dead; exposure is the index of the exposure that caused it, or -1.
func (p *play) kill(seat, rack int, cause, rule string, exposure int) {
	rk := &p.s.Seats[seat].Racks[rack-1]
	if rk.Dead != "" {
		return
	}
	rk.Dead = cause
	if exposure >= 0 {
		rk.Exposures[exposure].Killed = true
	}
	p.verdict(Verdict{Kind: DeadHand, Seat: seat, Rack: rack, Rule: p.s.Rules.Name + " " + rule, Quote: p.s.Rules.quote(rule), Detail: cause})
}
