package game

import "slices"

// checkEnd ends the game when the rules say it ceases: a seat's second Mah Jongg (siamese 14),
// a player with two dead hands where the ruleset stops there (siamese 12, masters), or no seat
// left that can play.
func (p *play) checkEnd() {
	for i := range p.s.Seats {
		st := &p.s.Seats[i]
		if st.MahJonggs >= 2 {
			p.endGame("second_mahjong")
			return
		}
		if st.DeadRacks() == 2 && p.s.Rules.TwoDead == "end" {
			p.endGame("two_dead")
			return
		}
	}
	if !slices.ContainsFunc(p.s.Seats, func(s Seat) bool { return s.Live() }) {
		p.endGame("all_dead")
		return
	}
	// A seat that stopped playing (two dead hands where play goes on, or a Mah Jongg and a dead
	// hand) does not draw: its turn passes. In its discard phase it still discards to complete
	// the turn (siamese 10).
	if p.s.Phase == PhaseDraw && !p.s.Seats[p.s.Turn].Live() {
		p.s.Turn = p.nextLive(p.s.Turn)
		p.s.Phase = PhaseDraw
	}
}

// endGame scores the game and stops it.
func (p *play) endGame(reason string) {
	p.s.Phase = PhaseOver
	p.s.Last, p.s.Pending = nil, nil
	r := score(&p.s, reason)
	p.s.Result = r
	p.verdict(Verdict{Kind: GameOver, Seat: -1, Detail: reason, Result: r})
}

// score computes every seat's points and the payouts (siamese 17, masters "scoring and
// payouts", royale 15, and the tournament options).
func score(s *State, reason string) *Result {
	sc := s.Scoring()
	n := len(s.Seats)
	r := &Result{Reason: reason, Scores: make([]int, n), Payouts: []Payout{}, MahJonggs: []SeatMahJong{}, Dead: []SeatDead{}}
	if reason == "misdeal" {
		return r
	}
	anyMJ := false
	for i := range s.Seats {
		st := &s.Seats[i]
		r.Scores[i] += st.Penalties
		for k := range st.Racks {
			rk := &st.Racks[k]
			if rk.Dead != "" {
				r.Dead = append(r.Dead, SeatDead{Seat: i, Rack: k + 1, Cause: rk.Dead})
			}
			if rk.MahJongg == nil {
				continue
			}
			anyMJ = true
			rk.MahJongg.Points = mahjongPoints(sc, rk.MahJongg)
			r.Scores[i] += rk.MahJongg.Points
			r.MahJonggs = append(r.MahJonggs, SeatMahJong{Seat: i, Rack: k + 1, MahJongg: *rk.MahJongg})
		}
	}
	switch {
	case reason == "two_dead":
		twoDead(s, r)
	case reason == "wall_game" && !anyMJ:
		for i := range s.Seats {
			r.Scores[i] += sc.WallGameBonus
			if s.Seats[i].Live() {
				r.Scores[i] += sc.WallGameLiveBonus
			}
		}
	}
	settle := slices.Clone(r.Scores)
	for i := range s.Seats {
		if b := s.Seats[i].Bouquets; b != 0 {
			settle[i] -= b
			for j := range s.Seats {
				if j != i {
					r.PaidAtOnce = append(r.PaidAtOnce, Payout{From: j, To: i, Points: b})
				}
			}
		}
	}
	r.Payouts = payouts(settle)
	r.WallPot = wallPotMove(s, reason, sc)
	return r
}

// mahjongPoints values one Mah Jongg.
func mahjongPoints(sc *Scoring, mj *MahJongg) int {
	pts := mj.Value
	doubles := mj.Jokerless && !(mj.Quint && sc.NoJokerlessDoubleForQuint)
	switch {
	case mj.BothAtOnce:
		if doubles && sc.JokerlessDouble && !(mj.Singles && sc.JokerlessExceptSingles) {
			pts *= 2
		}
		pts *= sc.BothAtOnceMultiplier
	case mj.Order == 1:
		if doubles && sc.JokerlessDouble && !(mj.Singles && sc.JokerlessExceptSingles) {
			pts *= 2
		}
	default:
		pts *= sc.SecondMultiplier
		if doubles && sc.SecondJokerlessDouble && !(mj.Singles && sc.SecondJokerlessExcept) {
			pts *= 2
		}
	}
	if mj.SelfPicked {
		pts += sc.SelfPickedBonus
	}
	if mj.Jokerless {
		pts += sc.JokerlessBonus
	}
	return pts
}

// twoDead: siamese 12 — the game ceases and the dead player pays the opponent four times the
// opponent's exposed Mah Jongg, or four times the card's lowest value: the opponent scores that
// instead of the Mah Jongg's own points, the dead player nothing, so the payout (the difference)
// is exactly the payment. Masters: the dead player gets -100.
func twoDead(s *State, r *Result) {
	for i := range s.Seats {
		if s.Seats[i].DeadRacks() != 2 {
			continue
		}
		r.Scores[i] += s.Rules.TwoDeadPenalty
		if s.Rules.TwoDeadPays == 0 {
			continue
		}
		r.Scores[i] = s.Seats[i].Penalties
		for j := range s.Seats {
			if j == i {
				continue
			}
			base := s.Card.Lowest()
			for _, rk := range s.Seats[j].Racks {
				if rk.MahJongg != nil {
					base = rk.MahJongg.Value
				}
			}
			r.Scores[j] = s.Seats[j].Penalties + s.Rules.TwoDeadPays*base
		}
	}
}

// payouts: with two players the lower score pays the difference (siamese 17); with more, each
// pays each higher scorer the difference (a pot payout is separate: Pot).
func payouts(scores []int) []Payout {
	out := []Payout{}
	for i := range scores {
		for j := i + 1; j < len(scores); j++ {
			d := scores[i] - scores[j]
			switch {
			case d > 0:
				out = append(out, Payout{From: j, To: i, Points: d})
			case d < 0:
				out = append(out, Payout{From: i, To: j, Points: -d})
			}
		}
	}
	return out
}
