package game

import (
	"errors"
	"fmt"
	"slices"

	"github.com/siamesetable/siamesed/engine/tile"
)

func (p *play) call() error {
	last := p.s.Last
	if last == nil {
		if len(p.s.Discards) == 0 {
			return errors.New("there is no discard to call")
		}
		covered := p.s.Discards[len(p.s.Discards)-1]
		if p.seat().PickedAhead {
			// NMJL tournament rule 1: "Once you touch the next tile in play you can no longer
			// call the previous discard." Without it, rule 2 by reference: the drawer's pick
			// racked covered the discard.
			p.refuse(p.a.Seat, p.s.Rules.citable("no-picking-ahead", "covered"), fmt.Sprintf("seat %d picked ahead of the discard %v and can no longer call it", p.a.Seat, covered))
			return nil
		}
		// The tile was covered by the next draw (NMJL tournament rule 2: it "cannot be called"):
		// the caller puts it back.
		p.refuse(p.a.Seat, "covered", fmt.Sprintf("the discard %v was covered by the next draw and can no longer be called", covered))
		return nil
	}
	if last.Seat == p.a.Seat {
		return errors.New("a player cannot call their own discard")
	}
	includes := p.a.Tiles[0] == last.Tile || slices.Contains(p.a.Tiles, last.Tile)
	if !includes && !p.claimsNamed(last) {
		return fmt.Errorf("the call does not include the discard %v", last.Tile)
	}
	if p.s.Rules.ChowsDrawn && p.a.For != "mahjong" && isChow(p.a.Tiles) {
		// Wright-Patterson: "Chows must be drawn unless ready to Mah Jongg": the caller puts
		// the tiles back and the discard stays callable.
		p.refuse(p.a.Seat, "chow-call", fmt.Sprintf("%s is a chow: a chow is drawn, or called only for Mah Jongg", tile.Format(p.a.Tiles)))
		return nil
	}
	if !includes && !p.replaceMisnamed(last) {
		return nil
	}
	p.checkPriority(last.Seat)
	p.misnamedCall(last)
	if !p.seat().Racks[p.a.Rack-1].Live() {
		p.infraction("dead-call", fmt.Sprintf("rack %d is not live and cannot call", p.a.Rack))
	}
	rest := slices.Clone(p.a.Tiles)
	rest = slices.Delete(rest, slices.Index(rest, last.Tile), slices.Index(rest, last.Tile)+1)
	if err := p.takeConcealed(rest, p.a.Rack); err != nil {
		return err
	}
	p.s.Discards = p.s.Discards[:len(p.s.Discards)-1]
	rk := p.rack(p.a.Rack)
	if p.a.For == "mahjong" {
		p.s.Pending = &Call{Seat: p.a.Seat, Rack: p.a.Rack, Thrower: last.Seat, Tile: last.Tile, Exposed: len(rk.Exposures)}
		rk.Concealed[last.Tile]++
	} else {
		rk.Exposures = append(rk.Exposures, Exposure{Tiles: slices.Clone(p.a.Tiles)})
		if !isPungLike(p.a.Tiles) {
			p.infraction("exposure-shape", fmt.Sprintf("%s is not a pung, kong or quint: only those are exposed before Mah Jongg", tile.Format(p.a.Tiles)))
		}
		p.checkExposures(p.a.Seat, p.a.Rack)
	}
	p.s.Last = nil
	p.s.Turn = p.a.Seat
	p.s.Phase = PhaseDiscard
	return nil
}

// isChow: three numbers in a row, of one suit (a chow) or of three suits (a mixed chow).
func isChow(fs []tile.Face) bool {
	if len(fs) != 3 {
		return false
	}
	var ranks [3]int
	suits := map[tile.Suit]bool{}
	for i, f := range fs {
		s, ok := f.Suit()
		if !ok {
			return false
		}
		ranks[i] = f.Rank()
		suits[s] = true
	}
	slices.Sort(ranks[:])
	return ranks[1] == ranks[0]+1 && ranks[2] == ranks[1]+1 && len(suits) != 2
}

// isPungLike: three or more of one natural tile, jokers allowed.
func isPungLike(fs []tile.Face) bool { return len(fs) >= 3 && exposureFace(fs) != tile.NoFace }

// checkExposures kills a rack whose exposures fit no hand on the card (siamese 11: "a player's
// hand should be declared dead if the combined exposures do not match a hand"). The newest
// exposure is the one that made it dead.
func (p *play) checkExposures(seat, rack int) {
	rk := &p.s.Seats[seat].Racks[rack-1]
	if !rk.Live() || len(p.s.Card.Possible(rk.cardExposures())) > 0 {
		return
	}
	p.kill(seat, rack, "exposures fit no hand on the card", "dead-exposures", len(rk.Exposures)-1)
}

func (p *play) exchange() error {
	t := p.a.Target
	if t.Seat < 0 || t.Seat >= len(p.s.Seats) || t.Rack < 1 || t.Rack > 2 {
		return fmt.Errorf("no rack %d at seat %d", t.Rack, t.Seat)
	}
	rk := &p.s.Seats[t.Seat].Racks[t.Rack-1]
	if t.Exposure < 0 || t.Exposure >= len(rk.Exposures) {
		return fmt.Errorf("seat %d rack %d has no exposure %d", t.Seat, t.Rack, t.Exposure)
	}
	e := &rk.Exposures[t.Exposure]
	natural := p.a.Tiles[0]
	ji := slices.Index(e.Tiles, tile.Joker)
	if ji < 0 {
		return fmt.Errorf("exposure %s holds no joker", tile.Format(e.Tiles))
	}
	if !slices.Contains(e.Tiles, natural) || natural == tile.Joker {
		return fmt.Errorf("%v does not match the exposure %s", natural, tile.Format(e.Tiles))
	}
	// Refused exchanges leave the table as it was: the referee asks the player to undo them.
	switch {
	case rk.MahJongg != nil:
		p.refuse(p.a.Seat, "joker-from-mahjong", "a joker cannot be taken from an exposed Mah Jongg")
		return nil
	case e.Killed:
		p.refuse(p.a.Seat, "joker-from-killer", "a joker cannot be taken from the exposure that made a hand dead")
		return nil
	case p.a.Seat != p.s.Turn || p.s.Phase != PhaseDiscard:
		p.refuse(p.a.Seat, "exchange-turn", "a joker is exchanged only in one's own turn, after picking")
		return nil
	}
	to := p.rackOr1()
	if err := p.takeConcealed([]tile.Face{natural}, to); err != nil {
		return err
	}
	e.Tiles = slices.Clone(e.Tiles)
	e.Tiles[ji] = natural
	p.rack(to).Concealed[tile.Joker]++
	return nil
}

func (p *play) move() error {
	from, to := p.rack(p.a.Rack), p.rack(p.a.To)
	c, err := tile.CountsOf(p.a.Tiles)
	if err != nil {
		return err
	}
	if !from.Concealed.Sub(&c) {
		return fmt.Errorf("rack %d does not hold %s in it", p.a.Rack, tile.Format(p.a.Tiles))
	}
	to.Concealed.Add(&c)
	return nil
}

// fixRack moves an exposure to the player's other rack, allowed until the turn's discard
// (masters "correction rule").
func (p *play) fixRack() error {
	t := p.a.Target
	if t.Seat != p.a.Seat || t.Rack < 1 || t.Rack > 2 {
		return errors.New("a player corrects only their own exposures")
	}
	from := p.rack(t.Rack)
	if t.Exposure < 0 || t.Exposure >= len(from.Exposures) {
		return fmt.Errorf("rack %d has no exposure %d", t.Rack, t.Exposure)
	}
	if p.s.Turn != p.a.Seat || p.s.Phase != PhaseDiscard || t.Exposure != len(from.Exposures)-1 || !p.s.Rules.FixRack {
		p.refuse(p.a.Seat, "fix-rack", "an exposure may be moved to the right rack only by its owner, before the turn's discard, where the rules allow it")
		return nil
	}
	e := from.Exposures[t.Exposure]
	from.Exposures = from.Exposures[:t.Exposure]
	if e.Killed { // the wrong-rack exposure made it dead: the correction revives it
		from.Dead = ""
		e.Killed = false
		p.verdict(Verdict{Kind: Legal, Seat: p.a.Seat, Rack: t.Rack, Rule: p.s.Rules.Name + " fix-rack", Quote: p.s.Rules.quote("fix-rack"),
			Detail: fmt.Sprintf("exposure moved to rack %d: rack %d is live again", 3-t.Rack, t.Rack)})
	}
	to := p.rack(3 - t.Rack)
	to.Exposures = append(to.Exposures, e)
	p.checkExposures(p.a.Seat, 3-t.Rack)
	return nil
}

// checkPriority reports a call that won over a rival with a better claim (siamese royale 6:
// "claimed by the player CLOSEST to the discarder"; masters: "a Double Siamese Mah Jongg claim
// takes precedence").
func (p *play) checkPriority(discarder int) {
	if discarder < 0 {
		return
	}
	n := len(p.s.Seats)
	dist := func(seat int) int { return (seat - discarder + n) % n }
	rank := func(seat int, forMJ, both bool) [2]int {
		first := 1
		switch p.s.Rules.ClaimPriority {
		case "mahjong_then_closest":
			if forMJ {
				first = 0
			}
		case "double_then_closest":
			if both {
				first = 0
			}
		}
		return [2]int{first, dist(seat)}
	}
	me := rank(p.a.Seat, p.a.For == "mahjong", p.a.Both)
	for _, r := range p.a.Rivals {
		if r.Seat == p.a.Seat || r.Seat < 0 || r.Seat >= n {
			continue
		}
		them := rank(r.Seat, r.For == "mahjong", r.Both)
		if them[0] < me[0] || (them[0] == me[0] && them[1] < me[1]) {
			p.infraction("claim-priority", fmt.Sprintf("seat %d's claim had priority over seat %d's", r.Seat, p.a.Seat))
		}
	}
}

// claimsNamed: an exposure call for the face a misnamed discard was named as, not the face
// discarded.
func (p *play) claimsNamed(last *Discard) bool {
	return last.Seat >= 0 && last.Named != last.Tile && p.a.For != "mahjong" &&
		slices.Contains(p.a.Tiles, last.Named)
}

// replaceMisnamed settles an exposure claim for the named face of a misnamed discard. Masters
// ("misnamed discard"): when the discarder holds the named tile it replaces the discard, which
// goes back to the discarder's rack, and the claim goes on; otherwise play continues normally.
// Elsewhere (NMJL tournament penalties 2) a miscalled tile "cannot be claimed until correctly
// named". A refused claim is reported, leaves the table as it was and marks the discard as named
// rightly; the miscaller's penalty is charged once, here or when the discard is later called.
func (p *play) replaceMisnamed(last *Discard) bool {
	from := p.s.Seats[last.Seat].Racks[:]
	held := slices.IndexFunc(from, func(r Rack) bool { return r.Concealed[last.Named] > 0 })
	if !p.s.Rules.MisnamedReplace || held < 0 {
		why := "it cannot be claimed until correctly named"
		if p.s.Rules.MisnamedReplace {
			why = fmt.Sprintf("seat %d holds no %v to replace it; play continues", last.Seat, last.Named)
		}
		rule := p.s.Rules.citable("misnamed-claim", "misnamed")
		p.infractionBy(last.Seat, rule, fmt.Sprintf("the discard is %v, not the %v it was named: %s", last.Tile, last.Named, why))
		p.refuse(p.a.Seat, rule, fmt.Sprintf("the claim for %v is not taken: %s", last.Named, why))
		p.misnamedCall(last)
		last.Named = last.Tile
		return false
	}
	p.infractionBy(last.Seat, p.s.Rules.citable("misnamed-claim", "misnamed"), fmt.Sprintf("seat %d's %v replaces the discard %v, named as %v", last.Seat, last.Named, last.Tile, last.Named))
	p.misnamedCall(last)
	rk := &p.s.Seats[last.Seat].Racks[held]
	rk.Concealed[last.Named]--
	rk.Concealed[last.Tile]++
	p.s.Discards[len(p.s.Discards)-1] = last.Named
	last.Tile = last.Named
	return true
}

// misnamedCall scores a called discard the discarder named wrongly (NMJL tournament penalties 2
// and 3; masters "misnamed discard": a Mah Jongg claim still stands).
func (p *play) misnamedCall(last *Discard) {
	if last.Seat < 0 || last.Named == last.Tile {
		return
	}
	sc := p.s.Scoring()
	pen, rule := sc.MisnamedExposure, "misnamed"
	if p.a.For == "mahjong" {
		pen, rule = sc.MisnamedMahJongg, p.s.Rules.citable("misnamed-mahjong", "misnamed")
		for i := range p.s.Seats {
			if i != last.Seat && sc.MisnamedOthers != 0 {
				p.penalty(i, sc.MisnamedOthers, rule)
			}
		}
	}
	if pen != 0 {
		p.penalty(last.Seat, pen, rule)
	}
}
