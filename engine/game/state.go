package game

import (
	"slices"

	"github.com/siamesetable/siamesed/engine/card"
	"github.com/siamesetable/siamesed/engine/tile"
)

// Phase is what the game waits for.
type Phase string

// Phases of a game.
const (
	PhaseDeal    Phase = "deal"    // tiles are being dealt
	PhaseDraw    Phase = "draw"    // the seat to play draws (or someone calls the last discard)
	PhaseFlowers Phase = "flowers" // after the deal, the seats exchange their flowers in turn (flower_wall)
	PhaseDiscard Phase = "discard" // the seat to play has drawn or called and must discard
	PhaseOver    Phase = "over"    // the game has ended (Result says how)
)

// State is the whole game. It is a value: Apply returns a new State and never changes its input.
type State struct {
	Rules *Ruleset   `json:"-"`
	Card  *card.Card `json:"-"`

	Seats    []Seat      `json:"seats"`
	Unseen   tile.Counts `json:"-"`         // tiles not dealt or drawn yet: the wall, in aggregate
	WallLeft int         `json:"wall_left"` // tiles left to draw
	Discards []tile.Face `json:"discards"`
	Turn     int         `json:"turn"`
	Phase    Phase       `json:"phase"`
	Last     *Discard    `json:"last_discard,omitempty"` // the discard that may still be called
	Pending  *Call       `json:"pending_mahjong,omitempty"`
	Seq      int         `json:"seq"` // actions applied: lines of the log, take_backs included
	// TakenBack counts the take_backs played: Seq less twice it is the acts in effect.
	TakenBack int       `json:"taken_back,omitempty"`
	Result    *Result   `json:"result,omitempty"`
	Warnings  []Warning `json:"warnings,omitempty"`

	// The rolls of a table that records them (rolls): this round's roll for East by seat (0:
	// not yet), whether East is settled, and East's roll for the prevailing wind (0: not yet).
	EastRoll   [4]int `json:"east_roll"`
	EastRolled bool   `json:"east_rolled"`
	Prevailing int    `json:"prevailing_roll"`

	// LogVersion is the game-log format the game is played under (LogVersion, or 1 for a log
	// without a header, where wall_end is taken at its word).
	LogVersion int `json:"-"`
}

// Seat is one player and their two racks.
type Seat struct {
	Racks     [2]Rack `json:"racks"`
	Dealt     int     `json:"dealt"`
	Penalties int     `json:"penalties"` // points from penalties and bonuses so far
	MahJonggs int     `json:"mahjongs"`
	// Bouquets are the points among Penalties paid at once at the table (a bouquet), which the
	// game's payouts at the end leave out.
	Bouquets int `json:"bouquets,omitempty"`
	// PickedAhead: the seat picked its next tile before the seat to play discarded (NMJL
	// tournament rule 1, "no picking ahead"). The pick stands as its next turn's, so it holds a
	// turn's count early; it can no longer call the discard the seat to play makes. Cleared at
	// its own discard, or when the turn goes to another seat first.
	PickedAhead bool `json:"picked_ahead,omitempty"`
}

// Rack is one of a seat's racks: concealed tiles in it, exposures on it.
type Rack struct {
	Concealed tile.Counts `json:"-"`
	Exposures []Exposure  `json:"exposures"`
	Dead      string      `json:"dead,omitempty"` // why the rack is dead; empty while live
	MahJongg  *MahJongg   `json:"mahjong,omitempty"`
	// Flowers laid on the rack as bonus tiles (flower_wall), not part of its hand or its count.
	Flowers int `json:"flowers,omitempty"`
}

// Exposure is a group laid on a rack.
type Exposure struct {
	Tiles []tile.Face `json:"tiles"`
	// Killed: this exposure made its rack dead; its tiles may not be reused and its jokers not
	// exchanged (siamese rules 9 and 15).
	Killed bool `json:"killed,omitempty"`
}

// MahJongg is a verified Mah Jongg on a rack.
type MahJongg struct {
	Hand       string `json:"hand"`
	Value      int    `json:"value"`           // points: the card's, or the limit's (Limit)
	Limit      int    `json:"limit,omitempty"` // 1, 2, 3: a single, double or triple limit hand
	Jokerless  bool   `json:"jokerless"`
	Singles    bool   `json:"singles_and_pairs"`
	Quint      bool   `json:"quint"`
	SelfPicked bool   `json:"self_picked"`
	Thrower    int    `json:"thrower"` // seat that discarded the winning tile; -1 when self-picked
	Order      int    `json:"order"`   // 1: the seat's first Mah Jongg, 2: its second
	BothAtOnce bool   `json:"both_at_once"`
	Exposed    int    `json:"exposed_before"` // exposures on the rack before the winning tile
	Points     int    `json:"points"`
	// Nth counts the table's Mah Jonggs in the order declared, from 1: the first takes a wall
	// pot (wall_game_pot).
	Nth int `json:"-"`
}

// Discard is the last discarded tile while it can still be called.
type Discard struct {
	Seat  int       `json:"seat"`
	Tile  tile.Face `json:"tile"`
	Named tile.Face `json:"named"`
}

// Call is a discard called for Mah Jongg, waiting for the declaration. The called tile lies on
// the rack for all to see (NMJL tournament rule 10).
type Call struct {
	Seat    int       `json:"seat"`
	Rack    int       `json:"rack"`
	Thrower int       `json:"thrower"`
	Tile    tile.Face `json:"tile"`
	Exposed int       `json:"exposed"` // exposures on the rack when the tile was called
}

// Warning is a fault the table should see until the game ends: an infraction, a refused act, a
// Mah Jongg in error or a dead rack.
type Warning struct {
	Seq    int    `json:"seq"`
	Kind   Kind   `json:"kind"`
	Seat   int    `json:"seat"`
	Rack   int    `json:"rack,omitempty"`
	Rule   string `json:"rule,omitempty"`
	Quote  string `json:"quote,omitempty"`
	Detail string `json:"detail,omitempty"`
}

// New starts a game: nothing dealt yet, the whole set unseen.
func New(r *Ruleset, c *card.Card) State {
	set := r.TileSet()
	return State{
		Rules:    r,
		Card:     c,
		Seats:    make([]Seat, r.Players),
		Unseen:   set.Count,
		WallLeft: set.Count.Total(),
		Phase:    PhaseDeal,

		LogVersion: LogVersion,
	}
}

// InEffect is how many acts of the log are in effect: its lines less the take_backs and the
// acts they took back.
func (s State) InEffect() int { return s.Seq - 2*s.TakenBack }

// clone copies everything Apply may change, so states never share mutable parts.
func (s State) clone() State {
	n := s
	n.Seats = slices.Clone(s.Seats)
	for i := range n.Seats {
		for r := range n.Seats[i].Racks {
			rk := &n.Seats[i].Racks[r]
			rk.Exposures = slices.Clone(rk.Exposures)
			if rk.MahJongg != nil {
				mj := *rk.MahJongg
				rk.MahJongg = &mj
			}
		}
	}
	n.Discards = slices.Clone(s.Discards)
	n.Warnings = slices.Clip(s.Warnings) // append-only: an append copies, never writes over s's
	if s.Last != nil {
		l := *s.Last
		n.Last = &l
	}
	if s.Pending != nil {
		p := *s.Pending
		n.Pending = &p
	}
	return n
}

// Holding is how many tiles a seat has, in and on both racks.
func (s *Seat) Holding() int {
	n := 0
	for _, r := range s.Racks {
		n += r.Count()
	}
	return n
}

// Count is how many tiles a rack holds, in and on it.
func (r *Rack) Count() int {
	n := r.Concealed.Total()
	for _, e := range r.Exposures {
		n += len(e.Tiles)
	}
	return n
}

// Live reports whether a rack can still play for Mah Jongg.
func (r *Rack) Live() bool { return r.Dead == "" && r.MahJongg == nil }

// Live reports whether the seat still plays: some rack live.
func (s *Seat) Live() bool { return s.Racks[0].Live() || s.Racks[1].Live() }

// DeadRacks counts the seat's dead racks.
func (s *Seat) DeadRacks() int {
	n := 0
	for _, r := range s.Racks {
		if r.Dead != "" {
			n++
		}
	}
	return n
}

// PrevailingWind is the wind East's roll made prevailing: even East, odd West; NoFace before
// the roll.
func (s *State) PrevailingWind() tile.Face {
	switch {
	case s.Prevailing == 0:
		return tile.NoFace
	case s.Prevailing%2 == 0:
		return tile.East
	}
	return tile.West
}

// exposures lists a rack's exposures as card exposures.
func (r *Rack) cardExposures() []card.Exposure {
	out := make([]card.Exposure, len(r.Exposures))
	for i, e := range r.Exposures {
		out[i] = e.Tiles
	}
	return out
}

func (s *State) dealFor(seat int) int {
	if seat == 0 {
		return s.Rules.DealEast
	}
	return s.Rules.DealOthers
}
