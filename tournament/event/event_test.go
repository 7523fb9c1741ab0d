package event

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/siamesetable/siamesed/tournament/movement"
)

func TestLoadExamples(t *testing.T) {
	e, err := Load("../../configs/events/club-night.yaml", ConfigsRules)
	if err != nil {
		t.Fatal(err)
	}
	if e.Name != "Club night" || e.Seats != 4 || e.Rounds != 3 || e.GamesPerRound != 2 || e.Tables() != 4 || e.Scoring != ScorePoints {
		t.Errorf("club night read as %+v", e)
	}
	if e.Movement.Name != movement.NMJL || !reflect.DeepEqual(e.First[2], []string{"Ida", "Jo", "Kit", "Lu"}) {
		t.Errorf("movement %v, table 3 %v", e.Movement, e.First[2])
	}
	if got := e.Seating(2)[0]; !reflect.DeepEqual(got, []string{"Ann", "Flo", "Kit", "Pia"}) {
		t.Errorf("round 2 table 1 %v", got)
	}
	if len(e.Hash) != 64 {
		t.Errorf("hash %q", e.Hash)
	}
	p, err := Load("../../configs/events/siamese-pairs.yaml", ConfigsRules)
	if err != nil {
		t.Fatal(err)
	}
	if p.Seats != 2 || p.Movement.Name != movement.Siamese2 || p.Seating(2)[0][1] != "Flo" {
		t.Errorf("siamese pairs read as %+v, round 2 %v", p, p.Seating(2))
	}
}

func fixedRules(spec string) (int, error) {
	switch strings.Split(spec, "+")[0] {
	case "siamese":
		return 2, nil
	case "royale-4":
		return 4, nil
	case "royale-3":
		return 3, nil
	}
	return 0, errors.New("unknown ruleset")
}

const good = `name: T
rules: siamese
rounds: 2
games_per_round: 1
movement: siamese-2
tables:
  - {table: 1, east: A, west: B}
  - {table: 2, east: C, west: D}
`

// TestProblems: each mistake names its line and field, and all are listed at once.
func TestProblems(t *testing.T) {
	for _, c := range []struct {
		name, file string
		want       []string
	}{
		{"unknown field", good + "prize: 10\n", []string{"x.yaml:9: prize: unknown field"}},
		{"missing", "name: T\nrules: siamese\n", []string{"x.yaml:1: rounds: missing", "x.yaml:1: games_per_round: missing", "x.yaml:1: movement: missing", "x.yaml:1: tables: missing"}},
		{"rounds range and scoring", strings.Replace(good, "rounds: 2", "rounds: 0\nscoring: golf", 1), []string{"x.yaml:3: rounds: 0 is out of range", "x.yaml:4: scoring: \"golf\" is not a scoring"}},
		{"not a number", strings.Replace(good, "games_per_round: 1", "games_per_round: two", 1), []string{"x.yaml:4: games_per_round: want a whole number"}},
		{"unknown rules", strings.Replace(good, "rules: siamese", "rules: pinochle", 1), []string{"x.yaml:2: rules: unknown ruleset"}},
		{"wrong movement", strings.Replace(good, "siamese-2", "nmjl", 1), []string{"x.yaml:5: movement: movement nmjl is not for tables of 2 seats"}},
		{"custom movement", strings.Replace(good, "movement: siamese-2", "movement: {east: 0, west: up}", 1), []string{"x.yaml:5: movement.west: want a number of tables", "x.yaml:5: movement: no move for west"}},
		{"seat not at table", strings.Replace(good, "west: B}", "north: B}", 1), []string{"x.yaml:7: tables[0].north: not a seat of a 2-seat table", "x.yaml:7: tables[0].west: missing"}},
		{"player twice", strings.Replace(good, "west: D}", "west: A}", 1), []string{"x.yaml:8: tables[1].west: A already sits at the table on line 7"}},
		{"table twice", strings.Replace(good, "table: 2", "table: 1", 1), []string{"x.yaml:8: tables[1].table: table 1 is listed twice"}},
		{"table out of range", strings.Replace(good, "table: 2", "table: 3", 1), []string{"x.yaml:8: tables[1].table: \"3\" is not a table number from 1 to 2"}},
		{"field twice", good + "rounds: 3\n", []string{"x.yaml:9: rounds: given twice"}},
		{"not a mapping", "- a\n- b\n", []string{"x.yaml:1: event: not a mapping"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("x.yaml", []byte(c.file), fixedRules)
			var ps *Problems
			if !errors.As(err, &ps) {
				t.Fatalf("error %v, want the problems listed", err)
			}
			if len(ps.List) != len(c.want) {
				t.Errorf("%d problems, want %d:\n%v", len(ps.List), len(c.want), err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("no %q in:\n%v", w, err)
				}
			}
		})
	}
}

// TestYAMLMistakeNamesItsLine: a mis-indented line is blamed where it is (internal/yamlline).
func TestYAMLMistakeNamesItsLine(t *testing.T) {
	bad := "name: T\nrules: siamese\ntables:\n  - table: 1\n    east: A\n      west: B\n"
	_, err := Parse("x.yaml", []byte(bad), fixedRules)
	if err == nil || !strings.Contains(err.Error(), "x.yaml: line 6") {
		t.Errorf("error %v, want line 6 named", err)
	}
}

func TestLoadRefusesHugeAndMissing(t *testing.T) {
	dir := t.TempDir()
	big := dir + "/big.yaml"
	if err := os.WriteFile(big, make([]byte, MaxSize+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(big, fixedRules); err == nil || !strings.Contains(err.Error(), "more than an event file") {
		t.Errorf("huge file: %v", err)
	}
	if _, err := Load(dir+"/none.yaml", fixedRules); err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(good))
	for _, name := range []string{"club-night.yaml", "siamese-pairs.yaml"} {
		b, err := os.ReadFile("../../configs/events/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := Parse("fuzz.yaml", data, fixedRules)
		if err != nil {
			if e != nil {
				t.Fatal("an event with an error")
			}
			return
		}
		// What parses is whole: every seat of every table has a player, once.
		seen := map[string]bool{}
		for _, tb := range e.First {
			if len(tb) != e.Seats {
				t.Fatalf("a table of %d seats in a %d-seat event", len(tb), e.Seats)
			}
			for _, p := range tb {
				if p == "" || seen[p] {
					t.Fatalf("player %q empty or twice", p)
				}
				seen[p] = true
			}
		}
		if e.Rounds < 1 || e.GamesPerRound < 1 || len(e.Movement.Shift) != e.Seats {
			t.Fatalf("incomplete event %+v", e)
		}
	})
}
