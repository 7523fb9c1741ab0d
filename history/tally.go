package history

import (
	"encoding/json"
	"fmt"
	"slices"

	bolt "go.etcd.io/bbolt"

	"github.com/siamesetable/siamesed/engine/game"
)

// Pot is money put in for a Royale session, paid out by the cumulative scores (royale 16).
type Pot struct {
	Cents  int  `json:"cents"`
	Triple bool `json:"triple"` // triple each score first (royale 16a)
}

// Tally adds up a session's or a day's games. Seats are matched by position (seat 0 is East
// of every game); where the names at a seat differ between games, Names lists each one seen.
type Tally struct {
	Session string          `json:"session,omitempty"`
	Day     string          `json:"day,omitempty"`
	Games   []string        `json:"games"` // ids, in the order they finished
	Rules   []string        `json:"rules"` // each ruleset played, once
	Seats   []SeatTotal     `json:"seats"`
	Pot     *Pot            `json:"pot,omitempty"`
	Shares  []game.PotShare `json:"shares,omitempty"`
	// WallPot is the wall-game pot the games fed and took (wright-patterson-siamese), followed
	// in the order they finished; its moves are in the seats' nets, and a pot no Mah Jongg
	// took is refunded to those who paid in.
	WallPot *game.WallPotTally `json:"wall_pot,omitempty"`
}

// SeatTotal is one seat's cumulative score and what it won or lost.
type SeatTotal struct {
	Seat  int      `json:"seat"`
	Names []string `json:"names"`
	Total int      `json:"total"` // the games' scores added up (points; a Royale pot pays by these)
	// Net is the seat's money: what the games' payouts and payments at once (a bouquet) gave
	// it less what it paid, plus or minus the wall pot (game.TallySession).
	Net int `json:"net"`
}

// TallyOf adds up games by seat position, in the order they finished (game.TallySession), a
// wall pot no Mah Jongg took being refunded.
func TallyOf(games []Game) Tally {
	t := Tally{Games: []string{}, Rules: []string{}, Seats: []SeatTotal{}}
	byFinish := slices.Clone(games)
	slices.SortStableFunc(byFinish, func(a, b Game) int { return a.Finished.Compare(b.Finished) })
	results := make([]*game.Result, len(byFinish))
	players := 0
	for i, g := range byFinish {
		t.Games = append(t.Games, g.ID)
		if !slices.Contains(t.Rules, g.Rules) {
			t.Rules = append(t.Rules, g.Rules)
		}
		results[i] = &byFinish[i].Result
		players = max(players, len(g.Seats))
	}
	s := game.TallySession(players, 0, results, game.RefundPot)
	t.WallPot = s.WallPot
	for i := range players {
		st := SeatTotal{Seat: i, Names: []string{}, Total: s.Scores[i], Net: s.Net[i]}
		for _, g := range byFinish {
			if i < len(g.Seats) && !slices.Contains(st.Names, g.Seats[i]) {
				st.Names = append(st.Names, g.Seats[i])
			}
		}
		t.Seats = append(t.Seats, st)
	}
	return t
}

// WithPot pays the totals out of p (royale 16): Pot and Shares set.
func (t Tally) WithPot(p Pot) Tally {
	totals := make([]int, len(t.Seats))
	for i, s := range t.Seats {
		totals[i] = s.Total
	}
	t.Pot, t.Shares = &p, game.Pot(totals, p.Cents, p.Triple)
	return t
}

// Tally adds up a session's games, paid out of its pot if one was set (SetPot).
func (db *DB) Tally(session string) (Tally, error) {
	games, err := db.List(Filter{Session: session})
	if err != nil {
		return Tally{}, err
	}
	t := TallyOf(games)
	t.Session = session
	p, ok, err := db.pot(session)
	if err != nil || !ok {
		return t, err
	}
	return t.WithPot(p), nil
}

// TallyDay is the end-of-day tally: every game that finished on day (DayLayout), whatever
// its session.
func (db *DB) TallyDay(day string) (Tally, error) {
	games, err := db.List(Filter{Day: day})
	if err != nil {
		return Tally{}, err
	}
	t := TallyOf(games)
	t.Day = day
	return t, nil
}

// sessionInfo is what is kept about a session beside its games.
type sessionInfo struct {
	Pot *Pot `json:"pot,omitempty"`
}

// SetPot sets the pot a session's tally pays out; a pot of 0 cents removes it.
func (db *DB) SetPot(session string, p Pot) error {
	if err := CheckSession(session); err != nil {
		return fmt.Errorf("history: %w", err)
	}
	if p.Cents < 0 {
		return fmt.Errorf("history: session %s: a pot of %d cents", session, p.Cents)
	}
	var info sessionInfo
	if p.Cents > 0 {
		info.Pot = &p
	}
	val, err := json.Marshal(info)
	if err != nil {
		return fmt.Errorf("history: session %s: %w", session, err)
	}
	return db.update(func(tx *bolt.Tx) error {
		b, err := bucket(tx, sessionsBucket)
		if err != nil {
			return err
		}
		return b.Put([]byte(session), val)
	})
}

// pot is the pot set for a session, if any.
func (db *DB) pot(session string) (Pot, bool, error) {
	var info sessionInfo
	err := db.view(func(tx *bolt.Tx) error {
		b, err := bucket(tx, sessionsBucket)
		if err != nil {
			return err
		}
		if v := b.Get([]byte(session)); v != nil {
			if err := json.Unmarshal(v, &info); err != nil {
				return fmt.Errorf("session %q: damaged record: %w", session, err)
			}
		}
		return nil
	})
	if err != nil || info.Pot == nil {
		return Pot{}, false, err
	}
	return *info.Pot, true, nil
}
