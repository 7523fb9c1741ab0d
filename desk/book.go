// Package desk is the tournament director's program (`siamesed desk`): it receives every
// table's results, signatures and calls, records them in the desk's database (desk/store),
// computes score sheets and standings from that record, serves the director's pages, and
// sends the director's rulings back to the tables.
package desk

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/siamesetable/siamesed/desk/store"
	"github.com/siamesetable/siamesed/tournament/event"
	"github.com/siamesetable/siamesed/tournament/wire"
)

// Book is the tournament as the record tells it: built by applying the store's changes in
// order, never edited otherwise. It is not safe for concurrent use (Desk guards it).
type Book struct {
	ev      *event.Event
	sheets  map[[2]int]*Sheet // {table, round}
	results map[string]*Game  // by result id
	calls   []*CallRecord
	early   map[string]map[int]time.Time // signatures that arrived before their result
	last    int64                        // the latest change applied
	changes int
}

// Game is one finished game on a sheet.
type Game struct {
	ID       string
	Number   int
	Result   wire.Result
	Scores   []int // the table's, or the director's correction
	Signed   map[int]time.Time
	Received time.Time
	// Corrected names the ruling that replaced the scores.
	Corrected string
	// Conflict says why the game is not counted although signed (a second result for a game
	// number already taken).
	Conflict string
}

// Counted reports whether the game counts: every seat that made Mah Jongg signed it.
func (g *Game) Counted() bool {
	if g.Conflict != "" {
		return false
	}
	for _, s := range g.Result.Signers() {
		if _, ok := g.Signed[s]; !ok {
			return false
		}
	}
	return true
}

// Sheet is a table's score sheet for a round.
type Sheet struct {
	Table, Round int
	Players      []string // from the event's movement, East first
	Games        []*Game  // by game number
	Penalties    []PenaltyRecord
	Initials     map[int]Initials // seat -> its latest initials
}

// PenaltyRecord is points the director gave.
type PenaltyRecord struct {
	wire.Penalty
	Ruling string
	Why    string
	At     time.Time
}

// Initials are a player's (or West's, for East) initials on a seat's round total.
type Initials struct {
	By    int
	Name  string
	Total int
	At    time.Time
}

// CallRecord is a call for the director and its ruling.
type CallRecord struct {
	ID     string
	Table  int
	Round  int
	Game   int
	Note   string
	State  json.RawMessage
	At     time.Time
	Ruling *wire.Ruling
	RuleAt time.Time
}

// NewBook is an empty book for ev.
func NewBook(ev *event.Event) *Book {
	return &Book{ev: ev, sheets: map[[2]int]*Sheet{}, results: map[string]*Game{}, early: map[string]map[int]time.Time{}}
}

// Sheet is the table's sheet for round (made empty if nothing arrived yet).
func (b *Book) Sheet(table, round int) *Sheet {
	k := [2]int{table, round}
	s := b.sheets[k]
	if s == nil {
		s = &Sheet{Table: table, Round: round, Players: b.ev.Seating(round)[table-1], Initials: map[int]Initials{}}
		b.sheets[k] = s
	}
	return s
}

// Apply adds one recorded change to the book.
func (b *Book) Apply(c store.Change) error {
	var m wire.Message
	if err := json.Unmarshal(c.Body, &m); err != nil {
		return fmt.Errorf("desk: change %d: %w", c.N, err)
	}
	b.apply(c, m)
	return nil
}

// apply adds a change whose body is m, already decoded.
func (b *Book) apply(c store.Change, m wire.Message) {
	b.last = c.N
	b.changes++
	switch m.Kind {
	case wire.KindResult:
		sh := b.Sheet(m.Table, m.Round)
		g := &Game{ID: m.ID, Number: m.Result.Game, Result: *m.Result, Scores: slices.Clone(m.Result.Scores), Signed: map[int]time.Time{}, Received: c.At}
		for seat, at := range b.early[m.ID] {
			g.Signed[seat] = at
		}
		delete(b.early, m.ID)
		for _, o := range sh.Games {
			if o.Number == g.Number && o.Conflict == "" {
				g.Conflict = fmt.Sprintf("game %d already has result %s", g.Number, o.ID)
			}
		}
		sh.Games = append(sh.Games, g)
		slices.SortStableFunc(sh.Games, func(x, y *Game) int { return x.Number - y.Number })
		b.results[m.ID] = g
	case wire.KindSign:
		if g := b.results[m.Sign.Result]; g != nil {
			g.Signed[m.Sign.Seat] = c.At
		} else {
			if b.early[m.Sign.Result] == nil {
				b.early[m.Sign.Result] = map[int]time.Time{}
			}
			b.early[m.Sign.Result][m.Sign.Seat] = c.At
		}
	case wire.KindInitials:
		b.Sheet(m.Table, m.Round).Initials[m.Sign.Seat] = Initials{By: m.Sign.By, Name: m.Sign.Name, Total: m.Sign.Total, At: c.At}
	case wire.KindCall:
		b.calls = append(b.calls, &CallRecord{ID: m.ID, Table: m.Table, Round: m.Round, Game: m.Call.Game, Note: m.Call.Note, State: m.Call.State, At: c.At})
	case wire.KindRuling:
		r := m.Ruling
		for _, cl := range b.calls {
			if cl.ID == r.Call && r.Call != "" {
				cl.Ruling, cl.RuleAt = r, c.At
			}
		}
		if r.Penalty != nil {
			sh := b.Sheet(m.Table, m.Round)
			sh.Penalties = append(sh.Penalties, PenaltyRecord{Penalty: *r.Penalty, Ruling: m.ID, Why: c.Why, At: c.At})
		}
		if r.Correction != nil {
			if g := b.results[r.Correction.Result]; g != nil && len(r.Correction.Scores) == len(g.Scores) {
				g.Scores, g.Corrected = slices.Clone(r.Correction.Scores), m.ID
			}
		}
	}
}

// Totals are each seat's round total: counted games and the director's penalties.
func (s *Sheet) Totals() []int {
	out := make([]int, len(s.Players))
	for _, g := range s.Games {
		if g.Counted() {
			for i, v := range g.Scores {
				if i < len(out) {
					out[i] += v
				}
			}
		}
	}
	for _, p := range s.Penalties {
		if p.Seat < len(out) {
			out[p.Seat] += p.Points
		}
	}
	return out
}

// Initialer is the seat that initials seat's total: its own player, West for East.
func Initialer(seat, seats int) int {
	if seat == 0 {
		if seats == 2 {
			return 1
		}
		return 2
	}
	return seat
}

// Initialed reports whether seat's total is initialed as it now stands.
func (s *Sheet) Initialed(seat int) bool {
	in, ok := s.Initials[seat]
	return ok && in.Total == s.Totals()[seat] && in.By == Initialer(seat, len(s.Players))
}

// Closed reports whether every game is counted and every total initialed.
func (s *Sheet) Closed(games int) bool {
	counted := 0
	for _, g := range s.Games {
		if g.Counted() {
			counted++
		}
	}
	if counted < games {
		return false
	}
	for i := range s.Players {
		if !s.Initialed(i) {
			return false
		}
	}
	return true
}
