// Package movement computes where each player sits in each round of a tournament: a movement
// moves each seat position a fixed number of tables after every round (NMJL: East stays, West
// up two tables, North up one, South down one). It is pure: no I/O, no clock.
package movement

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Positions names the seat positions of a table of n seats, in turn order (seat 0 is East),
// as every payload numbers them.
func Positions(n int) []string {
	switch n {
	case 2:
		return []string{"east", "west"}
	case 3:
		return []string{"east", "south", "west"}
	case 4:
		return []string{"east", "south", "west", "north"}
	}
	return nil
}

// Movement is how far each seat position moves after every round: Shift[seat] tables up
// (negative: down), table numbers wrapping round (the top table's "up one" is table 1).
type Movement struct {
	Name  string
	Shift []int // per seat, East first
}

// Built-in movements.
const (
	NMJL     = "nmjl"      // East stays, West up two tables, North up one, South down one
	Siamese2 = "siamese-2" // two-seat tables: East stays, West up one
)

// Builtin is a built-in movement for tables of seats seats.
func Builtin(name string, seats int) (Movement, error) {
	switch {
	case name == NMJL && seats == 4:
		return Movement{Name: NMJL, Shift: []int{0, -1, 2, 1}}, nil
	case name == Siamese2 && seats == 2:
		return Movement{Name: Siamese2, Shift: []int{0, 1}}, nil
	case name == NMJL || name == Siamese2:
		return Movement{}, fmt.Errorf("movement %s is not for tables of %d seats", name, seats)
	}
	return Movement{}, fmt.Errorf("unknown movement %q (built in: %s, %s; or each seat's move, e.g. {east: 0, west: 1})", name, NMJL, Siamese2)
}

// Custom is a movement given seat by seat, by position name ("east": 0, "west": 2, ...).
func Custom(moves map[string]int, seats int) (Movement, error) {
	pos := Positions(seats)
	if pos == nil {
		return Movement{}, fmt.Errorf("tables of %d seats have no positions", seats)
	}
	m := Movement{Name: "custom", Shift: make([]int, seats)}
	var errs []string
	for i, p := range pos {
		v, ok := moves[p]
		if !ok {
			errs = append(errs, "no move for "+p)
		}
		m.Shift[i] = v
	}
	for k := range moves {
		if !slices.Contains(pos, k) {
			errs = append(errs, fmt.Sprintf("%q is not a seat of a %d-seat table (%s)", k, seats, strings.Join(pos, ", ")))
		}
	}
	if len(errs) > 0 {
		slices.Sort(errs)
		return Movement{}, errors.New(strings.Join(errs, "; "))
	}
	return m, nil
}

// Table is where a seat position sits in round round (1-based) that sat at table start
// (1-based) in round 1, among tables tables.
func (m Movement) Table(start, seat, round, tables int) int {
	t := (start - 1 + m.Shift[seat]*(round-1)) % tables
	if t < 0 {
		t += tables
	}
	return t + 1
}

// Seating is who sits where: Seating[table-1][seat] is a player.
type Seating [][]string

// Round is the seating of round round (1-based) from the first round's.
func (m Movement) Round(first Seating, round int) Seating {
	n := len(first)
	out := make(Seating, n)
	for t := range out {
		out[t] = make([]string, len(m.Shift))
	}
	for t, seats := range first {
		for s, p := range seats {
			out[m.Table(t+1, s, round, n)-1][s] = p
		}
	}
	return out
}

// Move is one player's way to the next round.
type Move struct {
	Player   string
	From, To int // tables
	Seat     int
}

// Next lists where each player of round round goes for round round+1, table by table.
func (m Movement) Next(first Seating, round int) []Move {
	var out []Move
	for t, seats := range m.Round(first, round) {
		for s, p := range seats {
			out = append(out, Move{Player: p, From: t + 1, To: m.Table(t+1, s, 2, len(first)), Seat: s})
		}
	}
	return out
}
