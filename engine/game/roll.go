package game

import "fmt"

// roll records a die rolled at a table that records its rolls (Wright-Patterson: "Roll the die
// for high = East"; "East rolls for Prevailing (*even number = East, odd number = West)").
func (p *play) roll() error {
	if !p.s.Rules.Rolls {
		return fmt.Errorf("%s records no rolls (rolls)", p.s.Rules.Name)
	}
	if p.a.For == "east" {
		p.rollEast(p.a.Dice[0])
	} else {
		p.rollPrevailing(p.a.Dice[0])
	}
	return nil
}

// rollEast records one seat's roll for East, before the deal. When every seat has rolled, a
// tie rolls again; otherwise the high roller must be seat 0, whom the log deals to as East.
func (p *play) rollEast(die int) {
	seat := p.a.Seat
	if p.s.EastRolled || p.s.Phase != PhaseDeal || dealtAny(&p.s) {
		p.refuse(seat, "roll-east", "East is rolled for once, before the deal: this roll does not count")
		return
	}
	p.s.EastRoll[seat] = die
	high, highs := 0, 0
	for i := range p.s.Seats {
		switch r := p.s.EastRoll[i]; {
		case r == 0:
			return // another seat still to roll
		case r > high:
			high, highs = r, 1
		case r == high:
			highs++
		}
	}
	if highs > 1 {
		p.s.EastRoll = [4]int{}
		p.verdict(Verdict{Kind: Legal, Seat: seat, Detail: fmt.Sprintf("a tie at %d for East: roll again", high)})
		return
	}
	p.s.EastRolled = true
	if east := p.s.EastRoll[0]; east != high {
		winner := 0
		for i := range p.s.Seats {
			if p.s.EastRoll[i] == high {
				winner = i
			}
		}
		p.infractionBy(winner, "roll-east", fmt.Sprintf("seat %d rolled %d, higher than seat 0's %d: the high roller is East, but seat 0 is dealt East's tiles", winner, high, east))
		return
	}
	p.verdict(Verdict{Kind: Legal, Seat: 0, Detail: fmt.Sprintf("seat 0 rolled high (%d): East", high)})
}

// rollPrevailing records East's roll for the prevailing wind, once, before the first discard
// (the text has it after the deal; the engine takes it any time before play begins).
func (p *play) rollPrevailing(die int) {
	seat := p.a.Seat
	switch {
	case seat != 0:
		p.refuse(seat, "roll-prevailing", fmt.Sprintf("seat %d rolled for the prevailing wind; East rolls for it: this roll does not count", seat))
	case p.s.Prevailing != 0:
		p.refuse(seat, "roll-prevailing", fmt.Sprintf("the prevailing wind is already rolled (%d): this roll does not count", p.s.Prevailing))
	case len(p.s.Discards) > 0:
		p.refuse(seat, "roll-prevailing", "the prevailing wind is rolled before play begins: this roll does not count")
	default:
		p.s.Prevailing = die
		p.verdict(Verdict{Kind: Legal, Seat: seat, Detail: fmt.Sprintf("East rolled %d: %v is the prevailing wind", die, p.s.PrevailingWind())})
	}
}

// dealtAny reports whether any tile has been dealt.
func dealtAny(s *State) bool {
	for i := range s.Seats {
		if s.Seats[i].Dealt > 0 {
			return true
		}
	}
	return false
}
