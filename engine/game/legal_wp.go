package game

import "github.com/siamesetable/siamesed/engine/tile"

// flowers lists the seat's flower exchanges where flowers go to the flower wall: a flower it
// holds laid on either rack, replaced by each face still unseen, into either rack.
func (l *lister) flowers(seat int) {
	s := l.s
	if !s.Rules.FlowerWall || s.WallLeft == 0 || !holdsFlower(&s.Seats[seat]) {
		return
	}
	for r := 1; r <= 2; r++ {
		for f := tile.Face(0); f < tile.NumFaces; f++ {
			if s.Unseen[f] == 0 {
				continue
			}
			for to := 1; to <= 2; to++ {
				l.add(Action{Seat: seat, Act: ActFlower, Tiles: l.tiles(f), Rack: r, To: to})
			}
		}
	}
}

// rolls lists the rolls a table that records them may make: each seat's roll for East before
// the deal (but not one that leaves another seat high: that is an infraction), and East's roll
// for the prevailing wind before the first discard.
func (l *lister) rolls() {
	s := l.s
	if !s.Rules.Rolls {
		return
	}
	if !s.EastRolled && s.Phase == PhaseDeal && !dealtAny(s) {
		for seat := range s.Seats {
			if s.EastRoll[seat] != 0 {
				continue
			}
			for die := 1; die <= 6; die++ {
				if eastRollLegal(s, seat, die) {
					l.add(Action{Seat: seat, Act: ActRoll, For: "east", Dice: []int{die}})
				}
			}
		}
	}
	if s.Prevailing == 0 && len(s.Discards) == 0 {
		for die := 1; die <= 6; die++ {
			l.add(Action{Seat: 0, Act: ActRoll, For: "prevailing", Dice: []int{die}})
		}
	}
}

// eastRollLegal: the roll leaves seat 0 high, ties, or leaves another seat still to roll.
func eastRollLegal(s *State, seat, die int) bool {
	rolls := s.EastRoll
	rolls[seat] = die
	high := 0
	for i := range s.Seats {
		if rolls[i] == 0 {
			return true
		}
		high = max(high, rolls[i])
	}
	return rolls[0] == high
}
