package game

import (
	"fmt"

	"github.com/siamesetable/siamesed/engine/card"
	"github.com/siamesetable/siamesed/engine/tile"
)

// mahjong verifies a declaration on one rack, or both (rack 0: "two Mah Jonggs at the same time").
func (p *play) mahjong() error {
	if !p.startPlay() { // East may declare a Mah Jongg dealt to it, before its first discard
		return nil
	}
	p.leaveFlowers(false)
	racks := []int{p.a.Rack}
	if p.a.Rack == 0 {
		racks = []int{1, 2}
	}
	if p.a.Seat != p.s.Turn || p.s.Phase != PhaseDiscard {
		p.infraction("turn", "Mah Jongg is declared in one's own turn, after picking or calling")
	}
	pend := p.s.Pending
	if pend != nil && pend.Seat != p.a.Seat {
		pend = nil
	}
	type found struct {
		rack int
		m    card.Match
	}
	var ok []found
	var bad []int
	for _, r := range racks {
		rk := p.rack(r)
		if !rk.Live() {
			return fmt.Errorf("rack %d is not live", r)
		}
		ms := p.s.Card.Match(card.Rack{Concealed: rk.Concealed, Exposed: rk.cardExposures()})
		if len(ms) == 0 {
			bad = append(bad, r)
			continue
		}
		ok = append(ok, found{r, best(ms)})
	}
	if len(bad) > 0 {
		p.mahjongInError(racks, bad, pend)
		return nil
	}
	st := p.seat()
	for _, f := range ok {
		rk := p.rack(f.rack)
		st.MahJonggs++
		mj := &MahJongg{
			Hand: f.m.HandID, Value: p.s.Rules.handValue(f.m), Limit: f.m.Limit, Nth: p.s.declared(), Jokerless: f.m.Jokerless,
			Singles: f.m.Hand.SinglesAndPairs, Quint: f.m.Hand.Quint,
			SelfPicked: pend == nil || pend.Rack != f.rack, Thrower: -1,
			Order: st.MahJonggs, BothAtOnce: len(ok) == 2, Exposed: len(rk.Exposures),
		}
		if !mj.SelfPicked {
			mj.Thrower, mj.Exposed = pend.Thrower, pend.Exposed
		}
		// The whole hand goes face up on the rack; its jokers can no longer be exchanged.
		rk.Exposures = append(rk.Exposures, Exposure{Tiles: rk.Concealed.Faces()})
		rk.Concealed = tile.Counts{}
		rk.MahJongg = mj
		detail := fmt.Sprintf("Mah Jongg %d of seat %d, jokerless %v, self-picked %v", mj.Order, p.a.Seat, mj.Jokerless, mj.SelfPicked)
		if mj.Limit > 0 {
			detail = fmt.Sprintf("Mah Jongg %d of seat %d, a %s, self-picked %v", mj.Order, p.a.Seat, card.LimitName(mj.Limit), mj.SelfPicked)
		}
		p.verdict(Verdict{Kind: MahJonggOK, Seat: p.a.Seat, Rack: f.rack, Hand: mj.Hand, Points: mj.Value, Detail: detail})
		p.throwPenalties(mj)
	}
	p.s.Pending = nil
	return nil
}

// declared is how many Mah Jonggs the table has declared so far.
func (s *State) declared() int {
	n := 0
	for i := range s.Seats {
		n += s.Seats[i].MahJonggs
	}
	return n
}

// best picks the highest-valued hand the tiles make.
func best(ms []card.Match) card.Match {
	b := ms[0]
	for _, m := range ms[1:] {
		if m.Value > b.Value {
			b = m
		}
	}
	return b
}

// mahjongInError: with tiles exposed the rack is dead (NMJL tournament 5; siamese: "a Mah Jongg
// declared in error with tiles exposed"); claiming two and having fewer kills both (masters).
func (p *play) mahjongInError(racks, bad []int, pend *Call) {
	rule := "mahjong-in-error"
	if len(racks) == 2 {
		rule = p.s.Rules.citable("mahjong-in-error-two", rule)
	}
	for _, r := range bad {
		p.verdict(Verdict{Kind: MahJonggBad, Seat: p.a.Seat, Rack: r, Rule: p.s.Rules.Name + " " + rule,
			Quote: p.s.Rules.quote(rule), Detail: fmt.Sprintf("rack %d does not hold a hand on the card", r)})
	}
	if sc := p.s.Scoring(); sc.MahJonggInErrorPenalty != 0 || sc.MahJonggInErrorOthers != 0 {
		if sc.MahJonggInErrorPenalty != 0 {
			p.penalty(p.a.Seat, sc.MahJonggInErrorPenalty, "mahjong-in-error")
		}
		for i := range p.s.Seats {
			if i != p.a.Seat && sc.MahJonggInErrorOthers != 0 {
				p.penalty(i, sc.MahJonggInErrorOthers, "mahjong-in-error")
			}
		}
	}
	for _, r := range racks {
		rk := p.rack(r)
		exposed := len(rk.Exposures) > 0 || (pend != nil && pend.Rack == r)
		if len(racks) == 2 || exposed {
			p.kill(p.a.Seat, r, "Mah Jongg declared in error with tiles exposed", rule, -1)
		}
	}
}

// throwPenalties charges the thrower of a called Mah Jongg as the ruleset says.
func (p *play) throwPenalties(mj *MahJongg) {
	if mj.SelfPicked || mj.Thrower < 0 {
		return
	}
	sc := p.s.Scoring()
	// Two revealed at once: the called tile completed the winning pair (masters: "This applies
	// even if the discard completed the first Mah Jongg of two revealed simultaneously").
	if (mj.Order == 2 || mj.BothAtOnce) && sc.SecondDiscardPenalty != 0 {
		p.penalty(mj.Thrower, sc.SecondDiscardPenalty, "second-discard")
	}
	switch {
	case sc.ThrowIntoThreePenalty != 0 && (mj.Exposed >= 3 || (mj.Exposed == 2 && mj.Quint)):
		p.penalty(mj.Thrower, sc.ThrowIntoThreePenalty, "throw-into-three")
	case sc.ThrowIntoTwoPenalty != 0 && mj.Exposed == 2:
		p.penalty(mj.Thrower, sc.ThrowIntoTwoPenalty, "throw-into-two")
	}
}

// penalty adds points (negative: a penalty) to a seat's tally.
func (p *play) penalty(seat, points int, rule string) {
	p.s.Seats[seat].Penalties += points
	p.verdict(Verdict{Kind: Penalty, Seat: seat, Points: points, Rule: p.s.Rules.Name + " " + rule, Quote: p.s.Rules.quote(rule)})
}

// Scoring is the ruleset's scoring.
func (s *State) Scoring() *Scoring { return &s.Rules.Scoring }
