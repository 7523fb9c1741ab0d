package table

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/siamesetable/siamesed/tournament/movement"
	"github.com/siamesetable/siamesed/tournament/wire"
)

// Sheet is the table's score sheet for a round, as the seat view shows it.
type Sheet struct {
	Event    string         `json:"event"`
	Table    int            `json:"table"`
	Round    int            `json:"round"`
	Rounds   int            `json:"rounds"`
	Games    int            `json:"games"` // a round
	Players  []string       `json:"players"`
	Played   []SheetGame    `json:"played"`
	Totals   []int          `json:"totals"`
	Initials []*wire.Sign   `json:"initials"`  // per seat: the latest initials, nil if none
	Initial  []int          `json:"initialer"` // per seat: who initials it (West for East)
	Rulings  []wire.Message `json:"rulings"`
	Calls    []wire.Message `json:"calls"`
	// Next is where each of this round's players goes for the next round (empty after the last).
	Next []movement.Move `json:"next"`
	// Over: every game of the event is played at this table.
	Over bool `json:"over"`
}

// SheetGame is a game on the sheet.
type SheetGame struct {
	wire.Result
	ID      string `json:"id"`
	Signers []int  `json:"signers"`
	Signed  []int  `json:"signed"`
}

// Current is the round in play: the round of the next game, or the last round once all are
// played (a round whose games are played stays current until its totals are initialed).
func (t *Table) current() (round int, over bool) {
	k := len(t.results())
	total := t.Event.Rounds * t.Event.GamesPerRound
	if k >= total {
		return t.Event.Rounds, true
	}
	round = k/t.Event.GamesPerRound + 1
	if k > 0 && k%t.Event.GamesPerRound == 0 && !t.initialedAll(round-1) {
		round-- // the round just played waits for its initials
	}
	return round, false
}

// Sheet is the score sheet of round (0: the current round).
func (t *Table) Sheet(round int) Sheet {
	t.mu.Lock()
	defer t.mu.Unlock()
	cur, over := t.current()
	if round < 1 || round > t.Event.Rounds {
		round = cur
	}
	ev := t.Event
	sh := Sheet{Event: ev.Name, Table: t.Number, Round: round, Rounds: ev.Rounds, Games: ev.GamesPerRound, Players: ev.Seating(round)[t.Number-1], Over: over}
	sh.Totals = t.totals(round)
	sh.Initials = make([]*wire.Sign, ev.Seats)
	for s := range ev.Seats {
		sh.Initial = append(sh.Initial, initialer(s, ev.Seats))
	}
	for _, m := range t.l.lines {
		if m.Round != round {
			continue
		}
		switch m.Kind {
		case wire.KindResult:
			sg := SheetGame{Result: *m.Result, ID: m.ID, Signers: m.Result.Signers(), Signed: []int{}}
			for _, s := range sg.Signers {
				if t.has(wire.SignID(m.ID, s)) {
					sg.Signed = append(sg.Signed, s)
				}
			}
			sh.Played = append(sh.Played, sg)
		case wire.KindInitials:
			sign := *m.Sign
			sh.Initials[m.Sign.Seat] = &sign
		case wire.KindRuling:
			sh.Rulings = append(sh.Rulings, m)
		case wire.KindCall:
			sh.Calls = append(sh.Calls, m)
		}
	}
	if round < ev.Rounds {
		sh.Next = slices.DeleteFunc(ev.Movement.Next(ev.First, round), func(mv movement.Move) bool { return mv.From != t.Number })
	}
	return sh
}

// totals are each seat's total for round: the table's games, with the director's rulings.
func (t *Table) totals(round int) []int {
	out := make([]int, t.Event.Seats)
	scores := map[string][]int{}
	var order []string
	for _, m := range t.l.lines {
		if m.Round != round {
			continue
		}
		switch {
		case m.Kind == wire.KindResult:
			scores[m.ID] = m.Result.Scores
			order = append(order, m.ID)
		case m.Kind == wire.KindRuling && m.Ruling.Correction != nil:
			if _, ok := scores[m.Ruling.Correction.Result]; ok {
				scores[m.Ruling.Correction.Result] = m.Ruling.Correction.Scores
			}
		case m.Kind == wire.KindRuling && m.Ruling.Penalty != nil && m.Ruling.Penalty.Seat < len(out):
			out[m.Ruling.Penalty.Seat] += m.Ruling.Penalty.Points
		}
	}
	for _, id := range order {
		for i, v := range scores[id] {
			if i < len(out) {
				out[i] += v
			}
		}
	}
	return out
}

func (t *Table) initialedAll(round int) bool {
	tot := t.totals(round)
	for s := range t.Event.Seats {
		if !t.has(wire.InitialsID(t.Number, round, s, tot[s])) {
			return false
		}
	}
	return true
}

// initialer is who initials seat's total: its own player; West for East.
func initialer(seat, seats int) int {
	if seat != 0 {
		return seat
	}
	if seats == 2 {
		return 1
	}
	return 2
}

// Sign is the Mah Jongg's signature on a game of the current round's sheet: seat signs result.
func (t *Table) Sign(seat int, result string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, m := range t.results() {
		if m.ID != result {
			continue
		}
		if !slices.Contains(m.Result.Signers(), seat) {
			return fmt.Errorf("%w: seat %d made no Mah Jongg in game %d", ErrNotYours, seat, m.Result.Game)
		}
		id := wire.SignID(result, seat)
		if t.has(id) {
			return nil
		}
		s := t.message(wire.KindSign, id, m.Round)
		s.Sign = &wire.Sign{Game: m.Result.Game, Result: result, Seat: seat, By: seat, Name: m.Result.Seats[seat]}
		return t.put(s)
	}
	return fmt.Errorf("table: no result %s at table %d", result, t.Number)
}

// Initial is by's initials on seat's total of round, as it now stands: each player their own,
// West for East.
func (t *Table) Initial(round, seat, by int) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if seat < 0 || seat >= t.Event.Seats || by != initialer(seat, t.Event.Seats) {
		return fmt.Errorf("%w: seat %d's total is initialed by seat %d (each their own, West for East)", ErrNotYours, seat, initialer(seat, t.Event.Seats))
	}
	if round < 1 || round > t.Event.Rounds {
		return fmt.Errorf("table: round %d of %d", round, t.Event.Rounds)
	}
	total := t.totals(round)[seat]
	id := wire.InitialsID(t.Number, round, seat, total)
	if t.has(id) {
		return nil
	}
	m := t.message(wire.KindInitials, id, round)
	m.Sign = &wire.Sign{Seat: seat, By: by, Name: t.Event.Seating(round)[t.Number-1][by], Total: total}
	return t.put(m)
}

// Call is East's call for the director, with the table's public state.
func (t *Table) Call(note string, state json.RawMessage) (wire.Message, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	round, _ := t.current()
	game := len(t.results()) - (round-1)*t.Event.GamesPerRound + 1
	m := t.message(wire.KindCall, fmt.Sprintf("c-t%d-%d", t.Number, t.now().UnixNano()), round)
	m.Call = &wire.Call{Game: min(max(game, 1), t.Event.GamesPerRound), Note: note, State: state}
	return m, t.put(m)
}

// Ruling keeps a ruling the desk sent; one seen before changes nothing.
func (t *Table) Ruling(m wire.Message) error {
	if err := m.Check(); err != nil {
		return err
	}
	if m.Kind != wire.KindRuling || m.Table != t.Number || m.Event != t.Event.Name {
		return fmt.Errorf("table: not a ruling for table %d of %q: %s %s for table %d of %q", t.Number, t.Event.Name, m.Kind, m.ID, m.Table, m.Event)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.has(m.ID) {
		return nil
	}
	if err := t.l.add(m); err != nil {
		return err
	}
	if t.l.sent == len(t.l.lines)-1 {
		return t.l.markSent(len(t.l.lines)) // a ruling is the desk's: nothing to send
	}
	return nil
}

// Progress is where the table is, for the desk's glance.
func (t *Table) Progress() wire.Message {
	t.mu.Lock()
	defer t.mu.Unlock()
	round, over := t.current()
	k := len(t.results())
	p := &wire.Progress{Game: min(k-(round-1)*t.Event.GamesPerRound+1, t.Event.GamesPerRound), Phase: "play"}
	switch {
	case over:
		p.Phase, p.Waiting = "over", "the event's end"
	case k == round*t.Event.GamesPerRound:
		p.Phase, p.Waiting = "over", "initials"
	}
	m := t.message(wire.KindProgress, fmt.Sprintf("p-t%d-%d", t.Number, t.now().UnixNano()), round)
	m.Progress = p
	return m
}
