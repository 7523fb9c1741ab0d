package wire

import (
	"fmt"
	"strconv"
)

// Limits on what a message may hold.
const (
	MaxTables = 1000
	MaxRounds = 50
	MaxGames  = 50
	MaxText   = 2000
)

// Check validates a message: the fields its kind needs, in range.
func (m *Message) Check() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("wire: bad %s message %q: %s", m.Kind, m.ID, fmt.Sprintf(format, args...))
	}
	switch {
	case m.Schema > Schema:
		return fmt.Errorf("wire: message %q has schema %d, newer than this siamesed reads (%d): update siamesed", m.ID, m.Schema, Schema)
	case m.Schema < 1:
		return bad("no schema")
	case !idPattern.MatchString(m.ID):
		return bad("id must be 1 to 128 letters, digits, '.', '_', ':' or '-'")
	case m.Event == "" || len(m.Event) > MaxText:
		return bad("no event")
	case m.Table < 1 || m.Table > MaxTables:
		return bad("table %d out of range", m.Table)
	case m.Kind != KindRuling && (m.Round < 1 || m.Round > MaxRounds):
		return bad("round %d out of range", m.Round)
	case m.At.IsZero():
		return bad("no time")
	}
	bodies := 0
	for _, set := range []bool{m.Result != nil, m.Sign != nil, m.Call != nil, m.Progress != nil, m.Ruling != nil} {
		if set {
			bodies++
		}
	}
	if bodies != 1 {
		return bad("want exactly one body, the kind's")
	}
	switch m.Kind {
	case KindResult:
		if m.Result == nil {
			return bad("no result")
		}
		return m.Result.check(bad)
	case KindSign, KindInitials:
		if m.Sign == nil {
			return bad("no sign")
		}
		s := m.Sign
		switch {
		case s.Seat < 0 || s.Seat > 3 || s.By < 0 || s.By > 3:
			return bad("seat %d by %d out of range", s.Seat, s.By)
		case s.Name == "" || len(s.Name) > MaxText:
			return bad("no signer's name")
		case m.Kind == KindSign && (s.Game < 1 || s.Game > MaxGames || s.Result == "" || s.Seat != s.By):
			return bad("a game's signature needs the game, the result, and its Mah Jongg's own seat")
		case m.Kind == KindInitials && (s.Game != 0 || s.Result != ""):
			return bad("initials are on the round's total, not a game")
		}
	case KindCall:
		if m.Call == nil || len(m.Call.Note) > MaxText {
			return bad("no call, or a note longer than %d", MaxText)
		}
	case KindProgress:
		if m.Progress == nil || m.Progress.Game < 0 || m.Progress.Game > MaxGames {
			return bad("no progress, or a game out of range")
		}
	case KindRuling:
		r := m.Ruling
		if r == nil || r.Text == "" || len(r.Text) > MaxText || r.Director == "" {
			return bad("a ruling needs the director and its text")
		}
		if r.Penalty != nil && (r.Penalty.Seat < 0 || r.Penalty.Seat > 3 || r.Penalty.Game < 0 || r.Penalty.Game > MaxGames) {
			return bad("penalty seat %d game %d out of range", r.Penalty.Seat, r.Penalty.Game)
		}
		if r.Correction != nil && (r.Correction.Result == "" || len(r.Correction.Scores) < 2 || len(r.Correction.Scores) > 4) {
			return bad("a correction needs the result and 2 to 4 scores")
		}
	default:
		return fmt.Errorf("wire: message %q: unknown kind %q", m.ID, m.Kind)
	}
	return nil
}

func (r *Result) check(bad func(string, ...any) error) error {
	n := len(r.Seats)
	switch {
	case n < 2 || n > 4:
		return bad("%d seats, want 2 to 4", n)
	case len(r.Scores) != n || len(r.Penalty) != n:
		return bad("%d scores and %d penalties for %d seats", len(r.Scores), len(r.Penalty), n)
	case r.Game < 1 || r.Game > MaxGames:
		return bad("game %d out of range", r.Game)
	case len(r.Journal) != 64:
		return bad("journal hash %q is not a SHA-256", r.Journal)
	case r.Reason == "":
		return bad("no reason the game ended")
	}
	for _, mj := range r.MahJong {
		if mj.Seat < 0 || mj.Seat >= n {
			return bad("a Mah Jongg by seat %d of %d", mj.Seat, n)
		}
	}
	return nil
}

// IDs: the same thing sent again has the same id, so the desk counts it once.

// ResultID names a result by its game's journal hash.
func ResultID(journal string) string { return "r-" + journal }

// SignID names a Mah Jongg's signature on a result.
func SignID(result string, seat int) string { return "s-" + strconv.Itoa(seat) + "-" + result }

// InitialsID names seat's initials on a round's total at a table, for that total.
func InitialsID(table, round, seat, total int) string {
	return fmt.Sprintf("i-t%d-r%d-s%d-%d", table, round, seat, total)
}
