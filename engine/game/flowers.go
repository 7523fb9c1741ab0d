package game

import (
	"errors"
	"fmt"

	"github.com/siamesetable/siamesed/engine/tile"
)

// flower lays a flower from the seat's concealed tiles on a rack and draws its replacement from
// the flower wall (Wright-Patterson: "East calls for Flowers, and players exchange from the
// Flower Wall in turn"; "Flowers may be placed on either rack for the greatest value, but like
// Pungs and Kongs, they must remain where placed"). After the deal the seats exchange in turn,
// from East; in play a seat lays a flower it draws in its own turn, after picking.
func (p *play) flower() error {
	if !p.s.Rules.FlowerWall {
		return fmt.Errorf("%s has no flower wall: flowers are part of the hands (flower_wall)", p.s.Rules.Name)
	}
	if !p.startPlay() {
		return nil
	}
	if p.s.WallLeft == 0 {
		return errors.New("the wall is used up: no tile is left to replace the flower")
	}
	if err := p.takeConcealed([]tile.Face{tile.Flower}, p.a.Rack); err != nil {
		return err
	}
	if err := p.takeFromWall(p.a.Tiles); err != nil {
		return err
	}
	seat := p.a.Seat
	switch {
	case p.s.Phase == PhaseFlowers && seat != p.s.Turn:
		p.infraction("flowers", fmt.Sprintf("seat %d exchanged a flower out of turn: seat %d is exchanging", seat, p.s.Turn))
	case p.s.Phase == PhaseDraw || (p.s.Phase == PhaseDiscard && seat != p.s.Turn):
		p.infraction("flowers", fmt.Sprintf("seat %d exchanged a flower outside its turn: a flower is exchanged in one's own turn, after picking", seat))
	}
	rk := p.rack(p.a.Rack)
	rk.Flowers++
	to := p.a.To
	if to == 0 {
		to = p.rackOr1()
	}
	p.rack(to).Concealed[p.a.Tiles[0]]++
	if n := p.s.Rules.Scoring.BouquetFlowers; n > 0 && rk.Flowers%n == 0 {
		p.bouquet(seat, p.a.Rack)
	}
	p.nextFlowerTurn()
	return nil
}

// bouquet pays a seat at once for a bouquet on one of its racks (Wright-Patterson: "Bouquet
// (immediate payout) 500 points"); the payment is in the seat's running score.
func (p *play) bouquet(seat, rack int) {
	pts := p.s.Rules.Scoring.Bouquet
	p.s.Seats[seat].Penalties += pts
	p.s.Seats[seat].Bouquets += pts
	p.verdict(Verdict{Kind: Bouquet, Seat: seat, Rack: rack, Points: pts, Rule: p.s.Rules.Name + " bouquet", Quote: p.s.Rules.quote("bouquet"),
		Detail: fmt.Sprintf("%d flowers on rack %d: a bouquet, paid at once", p.s.Seats[seat].Racks[rack-1].Flowers, rack)})
}

// nextFlowerTurn passes the exchange on once the seat exchanging holds no flower: to the next
// seat in turn that holds one, or, when none does, to East to begin play.
func (p *play) nextFlowerTurn() {
	if p.s.Phase != PhaseFlowers || holdsFlower(&p.s.Seats[p.s.Turn]) {
		return
	}
	if next := nextWithFlower(&p.s, p.s.Turn+1); next >= 0 {
		p.s.Turn = next
		return
	}
	p.s.Turn, p.s.Phase = 0, playPhase(&p.s)
}

// leaveFlowers ends the flower exchange when East begins play before it is over: East's
// discard passes over the seats still holding a flower, an infraction where report is set;
// East's Mah Jongg on the deal ends it without one (flowers can wait for the holder's turn).
func (p *play) leaveFlowers(report bool) {
	if p.s.Phase != PhaseFlowers || p.a.Seat != 0 {
		return
	}
	if report {
		p.infraction("flowers", fmt.Sprintf("East began play while seat %d still held a flower to exchange", p.s.Turn))
	}
	p.s.Turn, p.s.Phase = 0, playPhase(&p.s)
}

// holdsFlower reports whether a seat holds a flower among its concealed tiles.
func holdsFlower(st *Seat) bool {
	return st.Racks[0].Concealed[tile.Flower]+st.Racks[1].Concealed[tile.Flower] > 0
}

// nextWithFlower is the first seat from `from` on, in turn order, that holds a flower, or -1.
func nextWithFlower(s *State, from int) int {
	n := len(s.Seats)
	for i := 0; i < n; i++ {
		if k := (from + i) % n; holdsFlower(&s.Seats[k]) {
			return k
		}
	}
	return -1
}
