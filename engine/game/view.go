package game

import (
	"slices"

	"github.com/siamesetable/siamesed/engine/tile"
)

// PublicView is what anyone at the table can see: exposures, discards, counts of the tiles
// standing in each rack, but never a concealed face. Only this view reaches a public topic, page
// or log line. Its types hold no tile.Counts, so a concealed rack cannot slip in by a field.
type PublicView struct {
	Seq int `json:"seq"`
	// TakenBack: acts the players took back (never happened), each a line of the log.
	TakenBack   int          `json:"taken_back,omitempty"`
	Rules       string       `json:"rules"`
	Phase       Phase        `json:"phase"`
	Turn        int          `json:"turn"`
	WallLeft    int          `json:"wall_left"`
	Discards    []tile.Face  `json:"discards"`
	LastDiscard *Discard     `json:"last_discard,omitempty"` // the discard that may still be called
	Pending     *Call        `json:"pending_mahjong,omitempty"`
	Seats       []PublicSeat `json:"seats"`
	// Scores are running scores: penalties and bonuses so far plus each exposed Mah Jongg as
	// it scores; once the game is over, the result's scores.
	Scores   []int     `json:"scores"`
	Warnings []Warning `json:"warnings"`
	Result   *Result   `json:"result,omitempty"`
	// Prevailing is the prevailing wind once East has rolled for it (rolls), E or W.
	Prevailing string `json:"prevailing,omitempty"`
	// Limits are what a single, double and triple limit pay, where the ruleset pays limits:
	// a scoreboard shows a Mah Jongg's limit (its Limit) and the points it pays.
	Limits []int `json:"limits,omitempty"`
}

// PublicSeat is one player as the table sees them.
type PublicSeat struct {
	Seat      int           `json:"seat"`
	Racks     [2]PublicRack `json:"racks"`
	Holding   int           `json:"holding"` // tiles in and on both racks
	Penalties int           `json:"penalties"`
	MahJonggs int           `json:"mahjongs"`
	Live      bool          `json:"live"`
}

// PublicRack is one rack as the table sees it.
type PublicRack struct {
	Concealed int        `json:"concealed"` // how many tiles stand in the rack, faces unseen
	Exposures []Exposure `json:"exposures"`
	Dead      string     `json:"dead,omitempty"`
	MahJongg  *MahJongg  `json:"mahjong,omitempty"`
	Live      bool       `json:"live"`
	Flowers   int        `json:"flowers,omitempty"` // flowers laid on the rack (flower_wall)
}

// SeatView is one player's own view: the public view and their concealed tiles, rack by rack.
// It goes only to that player.
type SeatView struct {
	PublicView
	Seat      int            `json:"seat"`
	Concealed [2][]tile.Face `json:"concealed"`
}

// PublicView returns what anyone at the table may see. The result shares nothing mutable with s.
func (s *State) PublicView() PublicView {
	v := PublicView{
		Seq: s.Seq, TakenBack: s.TakenBack, Phase: s.Phase, Turn: s.Turn, WallLeft: s.WallLeft,
		Discards: slices.Clone(s.Discards),
		Seats:    make([]PublicSeat, len(s.Seats)),
		Scores:   s.RunningScores(),
		Warnings: slices.Clone(s.Warnings),
		Result:   s.Result,
	}
	if v.Discards == nil {
		v.Discards = []tile.Face{}
	}
	if v.Warnings == nil {
		v.Warnings = []Warning{}
	}
	if s.Rules != nil {
		v.Rules = s.Rules.Name
		v.Limits = slices.Clone(s.Rules.Scoring.LimitPoints)
	}
	if w := s.PrevailingWind(); w != tile.NoFace {
		v.Prevailing = w.String()
	}
	if s.Last != nil {
		l := *s.Last
		v.LastDiscard = &l
	}
	if s.Pending != nil {
		c := *s.Pending
		v.Pending = &c
	}
	for i := range s.Seats {
		st := &s.Seats[i]
		ps := PublicSeat{Seat: i, Holding: st.Holding(), Penalties: st.Penalties, MahJonggs: st.MahJonggs, Live: st.Live()}
		for r := range st.Racks {
			rk := &st.Racks[r]
			pr := PublicRack{Concealed: rk.Concealed.Total(), Exposures: cloneExposures(rk.Exposures), Dead: rk.Dead, Live: rk.Live(), Flowers: rk.Flowers}
			if rk.MahJongg != nil {
				mj := *rk.MahJongg
				pr.MahJongg = &mj
			}
			ps.Racks[r] = pr
		}
		v.Seats[i] = ps
	}
	return v
}

// SeatView returns seat's own view: the public view and its concealed tiles per rack.
func (s *State) SeatView(seat int) SeatView {
	v := SeatView{PublicView: s.PublicView(), Seat: seat}
	if seat >= 0 && seat < len(s.Seats) {
		for r := range v.Concealed {
			v.Concealed[r] = s.Seats[seat].Racks[r].Concealed.Faces()
		}
	}
	return v
}

func cloneExposures(es []Exposure) []Exposure {
	out := make([]Exposure, len(es))
	for i, e := range es {
		out[i] = Exposure{Tiles: slices.Clone(e.Tiles), Killed: e.Killed}
	}
	return out
}

// RunningScores are the points each seat has now: its penalties and bonuses and each exposed
// Mah Jongg valued as it will score; the result's scores once the game is over.
func (s *State) RunningScores() []int {
	if s.Result != nil {
		return slices.Clone(s.Result.Scores)
	}
	out := make([]int, len(s.Seats))
	if s.Rules == nil {
		return out
	}
	sc := s.Scoring()
	for i := range s.Seats {
		out[i] = s.Seats[i].Penalties
		for _, rk := range s.Seats[i].Racks {
			if rk.MahJongg != nil {
				out[i] += mahjongPoints(sc, rk.MahJongg)
			}
		}
	}
	return out
}
