package game

import (
	"github.com/siamesetable/siamesed/engine/card"
	"github.com/siamesetable/siamesed/engine/tile"
)

// LegalActions lists the acts that some seat may legally make next, like a chess library's legal
// moves: what a tracker matches the sensors' picture against. Every act listed applies with no
// infraction and no refusal. To keep the list short:
//   - a draw is listed once per face still unseen and per rack it may go into;
//   - a move is listed as one tile of each face a rack holds (moving several is legal when each
//     tile is);
//   - a call for an exposure lists the called tile, then naturals, then jokers (order does not
//     matter to Apply); a call for Mah Jongg is listed for every live rack of every seat that
//     may call, since the card judges the declaration that follows, not the call.
//
// The list is empty once the game is over.
func LegalActions(s *State) []Action {
	l := lister{s: s, out: make([]Action, 0, 160), faces: make([]tile.Face, 0, 256)}
	switch s.Phase {
	case PhaseOver:
		return nil
	case PhaseDeal:
		l.deal()
	case PhaseFlowers:
		l.flowers(s.Turn)
	case PhaseDraw:
		l.draws(s.Turn)
		l.calls()
		if s.WallLeft == 0 && len(s.Discards) > 0 {
			// The wall is used: the last discard is called, or the game is over (siamese 14).
			l.add(Action{Seat: s.Turn, Act: ActWallEnd})
			if s.LogVersion >= 2 {
				return l.out
			}
		}
	case PhaseDiscard:
		l.turn(s.Turn)
		if !s.Seats[s.Turn].Live() { // a stopped seat's turn passes if the next seat draws
			if next := nextLiveSeat(s, s.Turn); next != s.Turn && !s.Seats[next].PickedAhead {
				l.draws(next)
			}
		}
	}
	l.rolls()
	l.moves()
	return l.out
}

// lister builds the list; faces backs every action's tiles, so the list costs few allocations.
type lister struct {
	s     *State
	out   []Action
	faces []tile.Face
}

func (l *lister) add(a Action) { l.out = append(l.out, a) }

// tiles returns fs as a slice of the shared backing array that no later append can overwrite.
func (l *lister) tiles(fs ...tile.Face) []tile.Face {
	if cap(l.faces)-len(l.faces) < len(fs) {
		l.faces = make([]tile.Face, 0, max(256, len(fs)))
	}
	start := len(l.faces)
	l.faces = append(l.faces, fs...)
	return l.faces[start:len(l.faces):len(l.faces)]
}

// deal lists tiles still to deal and, once every seat holds its deal, the first act of play.
func (l *lister) deal() {
	s := l.s
	done := true
	for seat := range s.Seats {
		if s.Seats[seat].Dealt == s.dealFor(seat) {
			continue
		}
		done = false
		if s.Seats[seat].Dealt > s.dealFor(seat) {
			continue
		}
		for f := tile.Face(0); f < tile.NumFaces; f++ {
			if s.Unseen[f] > 0 {
				for r := 1; r <= 2; r++ {
					l.add(Action{Seat: seat, Act: ActDeal, Tiles: l.tiles(f), Rack: r})
				}
			}
		}
	}
	if !done {
		return
	}
	started := *s
	started.Turn, started.Phase = openingTurn(s)
	l.s = &started
	switch started.Phase {
	case PhaseFlowers:
		l.flowers(started.Turn)
	case PhaseDraw:
		l.draws(0)
	default:
		l.turn(0)
	}
	l.s = s
}

// draws lists seat's draws: each unseen face into either rack.
func (l *lister) draws(seat int) {
	s := l.s
	if s.WallLeft == 0 {
		return
	}
	for f := tile.Face(0); f < tile.NumFaces; f++ {
		if s.Unseen[f] > 0 {
			for r := 1; r <= 2; r++ {
				l.add(Action{Seat: seat, Act: ActDraw, Tiles: l.tiles(f), Rack: r})
			}
		}
	}
}

// turn lists what the seat to play may do after picking or calling.
func (l *lister) turn(seat int) {
	s := l.s
	st := &s.Seats[seat]
	for r := 1; r <= 2; r++ {
		if !l.discardKeeps14(st, r) {
			continue
		}
		for f := tile.Face(0); f < tile.NumFaces; f++ {
			if st.Racks[r-1].Concealed[f] > 0 {
				l.add(Action{Seat: seat, Act: ActDiscard, Tiles: l.tiles(f), Rack: r})
			}
		}
	}
	l.exchanges(seat)
	l.mahjongs(seat)
	l.flowers(seat)
	if s.Rules.FixRack {
		for r := 1; r <= 2; r++ {
			if n := len(st.Racks[r-1].Exposures); n > 0 && st.Racks[r-1].MahJongg == nil {
				l.add(Action{Seat: seat, Act: ActFixRack, Target: &Target{Seat: seat, Rack: r, Exposure: n - 1}})
			}
		}
	}
}

// discardKeeps14: where a Mah Jongg rack must hold only its 14 tiles once the turn is over
// (Royale 12), a discard from rack r leaves every Mah Jongg rack of the seat at 14.
func (l *lister) discardKeeps14(st *Seat, r int) bool {
	if !l.s.Rules.MahJonggRackHolds14 {
		return true
	}
	for m := 1; m <= 2; m++ {
		rk := &st.Racks[m-1]
		if rk.MahJongg == nil {
			continue
		}
		left := rk.Count()
		if m == r {
			left--
		}
		if left != 14 {
			return false
		}
	}
	return true
}

// exchanges lists the seat's joker exchanges: a natural it holds for a joker in any exposure
// that allows it (not an exposed Mah Jongg, not the exposure that killed a hand).
func (l *lister) exchanges(seat int) {
	s := l.s
	st := &s.Seats[seat]
	for ts := range s.Seats {
		for tr := 1; tr <= 2; tr++ {
			rk := &s.Seats[ts].Racks[tr-1]
			if rk.MahJongg != nil {
				continue
			}
			for ei, e := range rk.Exposures {
				natural := exposureFace(e.Tiles)
				if e.Killed || natural == tile.NoFace || !hasJoker(e.Tiles) || st.Racks[0].Concealed[natural]+st.Racks[1].Concealed[natural] == 0 {
					continue
				}
				for to := 1; to <= 2; to++ {
					l.add(Action{Seat: seat, Act: ActExchange, Tiles: l.tiles(natural), Rack: to, Target: &Target{Seat: ts, Rack: tr, Exposure: ei}})
				}
			}
		}
	}
}

// mahjongs lists the declarations the card accepts: each live rack whose tiles make a hand, and
// both at once when both do.
func (l *lister) mahjongs(seat int) {
	s := l.s
	st := &s.Seats[seat]
	var buf [4]card.Match
	ok := 0
	for r := 1; r <= 2; r++ {
		rk := &st.Racks[r-1]
		if !rk.Live() || rk.Count() != 14 {
			continue
		}
		if len(s.Card.AppendMatches(buf[:0], card.Rack{Concealed: rk.Concealed, Exposed: rk.cardExposures()})) > 0 {
			l.add(Action{Seat: seat, Act: ActMahJongg, Rack: r})
			ok++
		}
	}
	if ok == 2 {
		l.add(Action{Seat: seat, Act: ActMahJongg, Rack: 0})
	}
}

// calls lists the calls of the last discard by every other seat still playing, onto its live
// racks: exposures of 3 to 6 tiles it can make with naturals and jokers, and Mah Jongg.
func (l *lister) calls() {
	s := l.s
	last := s.Last
	if last == nil {
		return
	}
	for seat := range s.Seats {
		st := &s.Seats[seat]
		if seat == last.Seat || !st.Live() {
			continue
		}
		naturals := int(st.Racks[0].Concealed[last.Tile] + st.Racks[1].Concealed[last.Tile])
		jokers := int(st.Racks[0].Concealed[tile.Joker] + st.Racks[1].Concealed[tile.Joker])
		for r := 1; r <= 2; r++ {
			if !st.Racks[r-1].Live() {
				continue
			}
			l.add(Action{Seat: seat, Act: ActCall, For: "mahjong", Tiles: l.tiles(last.Tile), Rack: r})
			if last.Tile == tile.Joker {
				continue
			}
			for size := 3; size <= 6; size++ {
				for n := min(naturals, size-1); n >= 0; n-- {
					j := size - 1 - n
					if j > jokers {
						break
					}
					l.add(Action{Seat: seat, Act: ActCall, Tiles: l.callTiles(last.Tile, n, j), Rack: r})
				}
			}
		}
	}
}

// callTiles is the called tile, n more of it and j jokers.
func (l *lister) callTiles(f tile.Face, n, j int) []tile.Face {
	var fs [6]tile.Face
	k := 0
	fs[k] = f
	k++
	for i := 0; i < n; i++ {
		fs[k] = f
		k++
	}
	for i := 0; i < j; i++ {
		fs[k] = tile.Joker
		k++
	}
	return l.tiles(fs[:k]...)
}

// moves lists, for every seat, one tile of each face from each rack to the other (but into a
// Mah Jongg rack only in the seat's own turn, where that rack must hold only its 14 tiles).
func (l *lister) moves() {
	s := l.s
	for seat := range s.Seats {
		inTurn := seat == s.Turn && s.Phase == PhaseDiscard
		for r := 1; r <= 2; r++ {
			if s.Rules.MahJonggRackHolds14 && !inTurn && s.Seats[seat].Racks[2-r].MahJongg != nil {
				continue
			}
			c := &s.Seats[seat].Racks[r-1].Concealed
			for f := tile.Face(0); f < tile.NumFaces; f++ {
				if c[f] > 0 {
					l.add(Action{Seat: seat, Act: ActMove, Tiles: l.tiles(f), Rack: r, To: 3 - r})
				}
			}
		}
	}
}

// exposureFace is the natural face of a pung-like exposure, or NoFace.
func exposureFace(fs []tile.Face) tile.Face {
	face := tile.NoFace
	for _, f := range fs {
		if f == tile.Joker {
			continue
		}
		if face != tile.NoFace && f != face {
			return tile.NoFace
		}
		face = f
	}
	return face
}

func hasJoker(fs []tile.Face) bool {
	for _, f := range fs {
		if f == tile.Joker {
			return true
		}
	}
	return false
}

// nextLiveSeat is the next seat after from that still plays (from itself if none does).
func nextLiveSeat(s *State, from int) int {
	n := len(s.Seats)
	for i := 1; i <= n; i++ {
		if k := (from + i) % n; s.Seats[k].Live() {
			return k
		}
	}
	return from
}
