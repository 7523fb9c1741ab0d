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
	if a.Act == ActTakeBack {
		return s, nil, fmt.Errorf("%w: game: a take_back goes back to an earlier state, which a State alone does not hold: play it with an Undo (Replay does)", ErrImpossible)
	}
	p := play{s: s.clone(), a: a}
	p.s.Seq++
	if p.wallUsedUp() && a.Act != ActCall {
		// siamese 14, masters "End of the Game": the wall is used and the last discard was not
		// called, so the game is over; whatever came next does not count.
		p.endGame("wall_game")
		if a.Act != ActWallEnd {
			p.refuse(a.Seat, "wall-game", fmt.Sprintf("the wall is used up and the last discard was not called: the game is over, the %s does not count", a.Act))
		}
		return p.s, p.v, nil
	}
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
		err = p.wallEnd()
	case ActFlower:
		err = p.flower()
	case ActRoll:
		err = p.roll()
	}
	if err != nil {
		return s, nil, fmt.Errorf("%w: game: %s by seat %d: %v", ErrImpossible, a.Act, a.Seat, err)
	}
	if p.s.Phase != PhaseOver && p.s.Phase != PhaseDeal {
		p.checkCounts()
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
	if v.Faulty() || v.Kind == DeadHand {
		p.s.Warnings = append(p.s.Warnings, Warning{Seq: v.Seq, Kind: v.Kind, Seat: v.Seat, Rack: v.Rack, Rule: v.Rule, Quote: v.Quote, Detail: v.Detail})
	}
}

// infraction reports rule id of the ruleset (its text quoted) broken by the acting seat.
func (p *play) infraction(rule, detail string) { p.infractionBy(p.a.Seat, rule, detail) }

// infractionBy reports an infraction some other seat than the actor's caused.
func (p *play) infractionBy(seat int, rule, detail string) {
	p.verdict(Verdict{Kind: Infraction, Seat: seat, Rule: p.s.Rules.Name + " " + rule, Quote: p.s.Rules.quote(rule), Detail: detail})
}

// refuse reports an act the rules forbid and the players must undo; the caller leaves the
// table as it was.
func (p *play) refuse(seat int, rule, detail string) {
	p.verdict(Verdict{Kind: Refused, Seat: seat, Rule: p.s.Rules.Name + " " + rule, Quote: p.s.Rules.quote(rule), Detail: detail})
}

// faulted reports whether this act already brought an infraction against seat.
func (p *play) faulted(seat int) bool {
	for _, v := range p.v {
		if v.Seat == seat && v.Faulty() {
			return true
		}
	}
	return false
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
		return fmt.Errorf("%s: not that many left unseen in the %s set", tile.Format(fs), p.s.Rules.TileSet().Name)
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
	p.s.Turn, p.s.Phase = openingTurn(&p.s)
	return true
}

// openingTurn is who acts first once the deal is good, and in which phase: East, to discard
// (siamese 8) or to draw the 28th tile (masters 7); first, where flowers go to the flower wall,
// the exchange, from the first seat from East that holds a flower (Wright-Patterson).
func openingTurn(s *State) (int, Phase) {
	if s.Rules.FlowerWall {
		if seat := nextWithFlower(s, 0); seat >= 0 {
			return seat, PhaseFlowers
		}
	}
	return 0, playPhase(s)
}

// playPhase is East's phase when play begins.
func playPhase(s *State) Phase {
	if s.Rules.EastDraws {
		return PhaseDraw
	}
	return PhaseDiscard
}

func (p *play) draw() error {
	if !p.startPlay() {
		return nil
	}
	if err := p.takeFromWall(p.a.Tiles); err != nil {
		return err
	}
	p.passStoppedTurn()
	seat, turn := p.a.Seat, p.s.Turn
	drawer := p.seat()
	switch {
	case p.s.Phase == PhaseFlowers: // no one draws from the wall before East's first discard
		p.infraction(p.pickingRule(), fmt.Sprintf("seat %d drew from the wall during the flower exchange", seat))
	case seat == turn && p.s.Phase == PhaseDraw: // the seat's turn begins
		p.s.Last = nil // the last discard is covered: no longer callable
		p.s.Phase = PhaseDiscard
	case seat == turn: // drew again before discarding: it now holds a tile too many (18C)
		p.infraction(p.pickingRule(), fmt.Sprintf("seat %d drew again before discarding", seat))
	case drawer.PickedAhead: // a second pick ahead: a tile too many even for its turn (18C)
		p.infraction(p.pickingRule(), fmt.Sprintf("seat %d drew again before its turn", seat))
	case p.s.Phase == PhaseDiscard && seat == p.nextLive(turn):
		// Picking ahead (NMJL tournament rule 1): the next seat picked before the seat to play
		// discarded. The offender is the drawer, not the seat to play, which finishes its turn
		// as it would have: the turn stays. The pick stands as the drawer's next turn's, and
		// the drawer "can no longer call the previous discard" (call refuses it).
		p.infraction(p.aheadRule(), fmt.Sprintf("seat %d picked the next tile before seat %d discarded: it can no longer call that discard", seat, turn))
		drawer.PickedAhead = true
	default: // out of turn while another seat is to play: the turn stays where it was
		p.infraction(p.pickingRule(), fmt.Sprintf("seat %d drew out of turn (seat %d is to %s)", seat, turn, p.s.Phase))
	}
	p.rack(p.rackOr1()).Concealed[p.a.Tiles[0]]++
	return nil
}

// pickingRule is the rule a draw out of turn breaks: NMJL tournament rule 1 where the ruleset
// takes it, else the tile count it leads to (siamese 18C, masters "Tile Count").
func (p *play) pickingRule() string { return p.s.Rules.citable("no-picking-ahead", "tile-count") }

// aheadRule is the rule picking ahead breaks: NMJL tournament rule 1 where the ruleset takes it,
// else the turn's order (siamese 8: "then the opposite player picks ...; then discards a
// tile"). Its count is no fault: the pick is the drawer's next turn's.
func (p *play) aheadRule() string { return p.s.Rules.citable("no-picking-ahead", "turn") }

func (p *play) discard() error {
	if !p.startPlay() {
		return nil
	}
	f := p.a.Tiles[0]
	if err := p.takeConcealed(p.a.Tiles, p.rackOr1()); err != nil {
		return err
	}
	p.leaveFlowers(true)
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
	p.turnAfterPickAhead()
	return nil
}

// turnAfterPickAhead: after a discard, a seat that picked ahead and is now to play has begun its
// turn with that pick, which covered the discard (NMJL tournament rule 2: "once it is covered by
// the next player in turn, either by racking or discarding a tile"), so no one calls it. Any
// other seat's pick ahead is no longer its turn's: the turn went elsewhere, and its count says
// what follows (siamese 18C).
func (p *play) turnAfterPickAhead() {
	for i := range p.s.Seats {
		st := &p.s.Seats[i]
		switch {
		case !st.PickedAhead:
		case i == p.s.Turn && i != p.a.Seat:
			p.s.Phase, p.s.Last = PhaseDiscard, nil
		default:
			st.PickedAhead = false
		}
	}
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
func (p *play) nextLive(from int) int { return nextLiveSeat(&p.s, from) }

// checkCounts judges every seat's tile count after every act, not only the actor's: a seat
// holds deal_others tiles (27) outside its turn and one more in it, or once it has picked ahead
// for its next turn (siamese 18C, masters "Tile Count"). A wrong count kills the seat's live
// racks (cited as 18A once it has a Mah Jongg), and the end of the game follows where two racks
// are dead (rule 12). Where the ruleset says so
// (Royale 12), a Mah Jongg rack holds only its 14 tiles once the seat's turn is over.
func (p *play) checkCounts() {
	for i := range p.s.Seats {
		st := &p.s.Seats[i]
		inTurn := (i == p.s.Turn && p.s.Phase == PhaseDiscard) || st.PickedAhead
		want := p.s.Rules.DealOthers
		switch {
		case p.s.Phase == PhaseFlowers: // before East's first discard: the deal's counts
			want = p.s.dealFor(i)
		case inTurn:
			want++
		}
		if got := st.Holding(); got != want {
			rule, why := "tile-count", fmt.Sprintf("holds %d tiles outside its turn, not %d", got, want)
			switch {
			case st.PickedAhead && i != p.s.Turn:
				why = fmt.Sprintf("holds %d tiles, not the %d of the turn it picked ahead for", got, want)
			case inTurn:
				why = fmt.Sprintf("holds %d tiles in its turn, not %d", got, want)
			}
			if st.MahJonggs > 0 {
				rule = "mahjong-rack-count"
			}
			p.killForCount(i, []int{1, 2}, rule, why)
			continue
		}
		if !p.s.Rules.MahJonggRackHolds14 || inTurn {
			continue
		}
		for r := 1; r <= 2; r++ {
			if rk := &st.Racks[r-1]; rk.MahJongg != nil && rk.Count() != 14 {
				p.killForCount(i, []int{3 - r}, "mahjong-rack-count", fmt.Sprintf("holds %d tiles on its Mah Jongg rack %d, not 14", rk.Count(), r))
			}
		}
	}
}

// killForCount declares a seat's live racks among racks dead for a wrong count, reporting the
// infraction unless this act already brought one against the seat.
func (p *play) killForCount(seat int, racks []int, rule, why string) {
	st := &p.s.Seats[seat]
	var live []int
	for _, r := range racks {
		if st.Racks[r-1].Live() {
			live = append(live, r)
		}
	}
	if len(live) == 0 {
		return
	}
	if !p.faulted(seat) {
		p.infractionBy(seat, rule, fmt.Sprintf("seat %d %s", seat, why))
	}
	for _, r := range live {
		p.kill(seat, r, "wrong tile count: "+why, rule, -1)
	}
}

// wallUsedUp: the wall is empty and the last discard lies uncalled (log version 2 on; a log
// without a header ends only at its wall_end line, as it always did).
func (p *play) wallUsedUp() bool {
	return p.s.LogVersion >= 2 && p.s.WallLeft == 0 && p.s.Phase == PhaseDraw && len(p.s.Discards) > 0
}

// wallEnd ends the game as a wall game. From log version 2 it must agree with the wall: the
// last tile drawn and the last discard made.
func (p *play) wallEnd() error {
	if p.s.LogVersion >= 2 {
		switch {
		case p.s.WallLeft > 0:
			return fmt.Errorf("wall_end with %d tiles still in the wall", p.s.WallLeft)
		case p.s.Phase != PhaseDraw:
			return fmt.Errorf("wall_end before seat %d made the last discard", p.s.Turn)
		}
	}
	p.endGame("wall_game")
	return nil
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
