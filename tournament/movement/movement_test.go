package movement

import (
	"reflect"
	"strings"
	"testing"
)

// five tables of four, players named by where they start: "3W" sat West at table 3.
func fiveTables() Seating {
	var s Seating
	for t := 1; t <= 5; t++ {
		var row []string
		for _, p := range []string{"E", "S", "W", "N"} {
			row = append(row, string(rune('0'+t))+p)
		}
		s = append(s, row)
	}
	return s
}

// TestNMJLByHand: rounds 2 and 3 of five tables, worked out on paper: East stays, South down
// one (table 1's goes to table 5), West up two (table 4's goes to table 1), North up one.
func TestNMJLByHand(t *testing.T) {
	m, err := Builtin(NMJL, 4)
	if err != nil {
		t.Fatal(err)
	}
	round2 := Seating{
		{"1E", "2S", "4W", "5N"},
		{"2E", "3S", "5W", "1N"},
		{"3E", "4S", "1W", "2N"},
		{"4E", "5S", "2W", "3N"},
		{"5E", "1S", "3W", "4N"},
	}
	round3 := Seating{
		{"1E", "3S", "2W", "4N"},
		{"2E", "4S", "3W", "5N"},
		{"3E", "5S", "4W", "1N"},
		{"4E", "1S", "5W", "2N"},
		{"5E", "2S", "1W", "3N"},
	}
	first := fiveTables()
	if got := m.Round(first, 1); !reflect.DeepEqual(got, first) {
		t.Errorf("round 1 is not the start:\n%v", got)
	}
	if got := m.Round(first, 2); !reflect.DeepEqual(got, round2) {
		t.Errorf("round 2:\n got %v\nwant %v", got, round2)
	}
	if got := m.Round(first, 3); !reflect.DeepEqual(got, round3) {
		t.Errorf("round 3:\n got %v\nwant %v", got, round3)
	}
}

// TestSiamese2ByHand: three two-seat tables, East stays, West up one.
func TestSiamese2ByHand(t *testing.T) {
	m, err := Builtin(Siamese2, 2)
	if err != nil {
		t.Fatal(err)
	}
	first := Seating{{"A", "a"}, {"B", "b"}, {"C", "c"}}
	want := map[int]Seating{
		2: {{"A", "c"}, {"B", "a"}, {"C", "b"}},
		3: {{"A", "b"}, {"B", "c"}, {"C", "a"}},
		4: first,
	}
	for r, w := range want {
		if got := m.Round(first, r); !reflect.DeepEqual(got, w) {
			t.Errorf("round %d:\n got %v\nwant %v", r, got, w)
		}
	}
}

// TestNextFollowsRound: each move's destination is where the next round seats the player.
func TestNextFollowsRound(t *testing.T) {
	m, _ := Builtin(NMJL, 4)
	first := fiveTables()
	for r := 1; r <= 6; r++ {
		next := m.Round(first, r+1)
		moves := m.Next(first, r)
		if len(moves) != 20 {
			t.Fatalf("round %d: %d moves", r, len(moves))
		}
		for _, mv := range moves {
			if next[mv.To-1][mv.Seat] != mv.Player {
				t.Errorf("round %d: %s to table %d seat %d, but round %d seats %s there", r, mv.Player, mv.To, mv.Seat, r+1, next[mv.To-1][mv.Seat])
			}
		}
	}
}

func TestCustomAndErrors(t *testing.T) {
	m, err := Custom(map[string]int{"east": 0, "south": 3, "west": -2}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Table(1, 2, 2, 4); got != 3 { // table 1 down two of four: table 3
		t.Errorf("west from table 1 down two of four: table %d, want 3", got)
	}
	for _, c := range []struct {
		moves map[string]int
		seats int
		want  string
	}{
		{map[string]int{"east": 0}, 2, "no move for west"},
		{map[string]int{"east": 0, "west": 1, "north": 1}, 2, `"north" is not a seat`},
		{map[string]int{}, 5, "no positions"},
	} {
		if _, err := Custom(c.moves, c.seats); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Custom(%v, %d): %v, want %q", c.moves, c.seats, err, c.want)
		}
	}
	for _, c := range []struct {
		name  string
		seats int
		want  string
	}{
		{"nmjl", 2, "not for tables of 2"},
		{"siamese-2", 4, "not for tables of 4"},
		{"howell", 4, "unknown movement"},
	} {
		if _, err := Builtin(c.name, c.seats); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Builtin(%s, %d): %v, want %q", c.name, c.seats, err, c.want)
		}
	}
}
