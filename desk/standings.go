package desk

import (
	"cmp"
	"slices"

	"github.com/siamesetable/siamesed/tournament/event"
)

// Standing is one player's place.
type Standing struct {
	Rank     int    `json:"rank"`
	Player   string `json:"player"`
	Points   int    `json:"points"`
	MahJongs int    `json:"mahjongs"`
	Games    int    `json:"games"`   // games counted (signed)
	Pending  int    `json:"pending"` // games received but not yet signed
}

// Standings ranks every player of the event by the event's scoring, over counted games and
// the director's penalties. Players with equal keys share a rank.
func (b *Book) Standings() []Standing {
	by := map[string]*Standing{}
	for _, p := range b.ev.Players() {
		by[p] = &Standing{Player: p}
	}
	for _, sh := range b.sheets {
		for _, g := range sh.Games {
			counted := g.Counted()
			for seat, p := range sh.Players {
				st := by[p]
				if !counted {
					st.Pending++
					continue
				}
				st.Games++
				if seat < len(g.Scores) {
					st.Points += g.Scores[seat]
				}
			}
			if counted {
				for _, mj := range g.Result.MahJong {
					if mj.Seat < len(sh.Players) {
						by[sh.Players[mj.Seat]].MahJongs++
					}
				}
			}
		}
		for _, pen := range sh.Penalties {
			if pen.Seat < len(sh.Players) {
				by[sh.Players[pen.Seat]].Points += pen.Points
			}
		}
	}
	out := make([]Standing, 0, len(by))
	for _, st := range by {
		out = append(out, *st)
	}
	key := func(s Standing) [2]int {
		if b.ev.Scoring == event.ScoreMahJongs {
			return [2]int{s.MahJongs, s.Points}
		}
		return [2]int{s.Points, s.MahJongs}
	}
	slices.SortFunc(out, func(x, y Standing) int {
		kx, ky := key(x), key(y)
		if c := cmp.Compare(ky[0], kx[0]); c != 0 {
			return c
		}
		if c := cmp.Compare(ky[1], kx[1]); c != 0 {
			return c
		}
		return cmp.Compare(x.Player, y.Player)
	})
	for i := range out {
		out[i].Rank = i + 1
		if i > 0 && key(out[i]) == key(out[i-1]) {
			out[i].Rank = out[i-1].Rank
		}
	}
	return out
}
