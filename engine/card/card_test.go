package card

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/siamesetable/siamesed/engine/tile"
)

// testCard is a small card exercising every element of the language.
const testCard = `name: Test Card
year: 2026
hands:
  - section: "2026"
    pattern: "FFFF 2026a 333b 333c"
    value: 25
  - section: "Like Numbers"
    patterns: ["FF XXXX0a XXXX0b XXXX0c"]
    x: odd
    value: 30
  - section: "Run"
    pattern: "X0X0a X1X1X1a X2X2X2X2a X3X3X3a X4X4a"
    value: 30
    note: five consecutive numbers, one suit
  - section: "Run"
    pattern: "FF XXXX0a Da XXXX1b Db XX2c"
    value: 35
  - section: "Winds"
    patterns: ["NNNN EEE WWW SSSS", "NNN EEEE WWWW SSS"]
    value: 25
  - section: "Singles And Pairs"
    pattern: "NN EE WW SS 11a 22b 33c"
    concealed: true
    value: 50
  - section: "Quints"
    pattern: "11111a DDDDa 33333b"
    value: 40
`

func mustParse(t testing.TB, src string) *Card {
	t.Helper()
	c, err := Parse("test.yaml", []byte(src))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return c
}

func rackOf(t testing.TB, concealed string, exposed ...string) Rack {
	t.Helper()
	fs, err := tile.ParseList(concealed)
	if err != nil {
		t.Fatal(err)
	}
	c, err := tile.CountsOf(fs)
	if err != nil {
		t.Fatal(err)
	}
	r := Rack{Concealed: c}
	for _, e := range exposed {
		fs, err := tile.ParseList(e)
		if err != nil {
			t.Fatal(err)
		}
		r.Exposed = append(r.Exposed, fs)
	}
	return r
}

func ids(ms []Match) string {
	var s []string
	for _, m := range ms {
		id := m.HandID
		if m.Jokerless {
			id += "*"
		}
		s = append(s, id)
	}
	return strings.Join(s, ",")
}

func TestHandFacts(t *testing.T) {
	c := mustParse(t, testCard)
	if c.Name != "Test Card" || c.Year != 2026 || !c.FlowerJokers || len(c.Hands) != 7 || c.Lowest() != 25 {
		t.Fatalf("card = %q %d %v %d hands, lowest %d", c.Name, c.Year, c.FlowerJokers, len(c.Hands), c.Lowest())
	}
	wantIDs := []string{"2026-1", "Like Numbers-1", "Run-1", "Run-2", "Winds-1", "Singles And Pairs-1", "Quints-1"}
	for i, h := range c.Hands {
		if h.ID != wantIDs[i] {
			t.Errorf("hand %d id %q, want %q", i, h.ID, wantIDs[i])
		}
	}
	sp, _ := c.HandByID("Singles And Pairs-1")
	q, _ := c.HandByID("Quints-1")
	if !sp.SinglesAndPairs || sp.Quint || q.SinglesAndPairs || !q.Quint {
		t.Errorf("singles/quint flags: %+v %+v", sp, q)
	}
	// Variant counts follow from the language: 3x2x... suit assignments, X bases.
	want := map[string]int{
		"2026-1":         6, // a,b,c over 3 suits, but b and c are symmetric: 3 distinct
		"Like Numbers-1": 5, // odd bases 1..9, suits symmetric
		"Run-1":          15,
		"Run-2":          6 * 7,
		"Winds-1":        2,
		"Quints-1":       6 * 9 / 9 * 9,
	}
	want["2026-1"] = 3
	want["Quints-1"] = 6
	for id, n := range want {
		h, _ := c.HandByID(id)
		if h.Variants() != n {
			t.Errorf("%s: %d variants, want %d", id, h.Variants(), n)
		}
	}
}

func TestMatch(t *testing.T) {
	c := mustParse(t, testCard)
	tests := []struct {
		name    string
		rack    Rack
		want    string
		comment string
	}{
		{"year hand natural", rackOf(t, "F F F F 2C 0 2C 6C 3B 3B 3B 3D 3D 3D"), "2026-1*", ""},
		{"year hand, joker in pung", rackOf(t, "F F F F 2C 0 2C 6C 3B 3B J 3D 3D 3D"), "2026-1", ""},
		{"year hand, joker in flower kong", rackOf(t, "F F J J 2C 0 2C 6C 3B 3B 3B 3D 3D 3D"), "2026-1", ""},
		{"joker in the year row is refused", rackOf(t, "F F F F 2C J 2C 6C 3B 3B 3B 3D 3D 3D"), "", ""},
		{"year row in one suit, pungs in the same suit", rackOf(t, "F F F F 2C 0 2C 6C 3C 3C 3C 3D 3D 3D"), "", ""},
		{"like odd numbers", rackOf(t, "F F 5B 5B 5B 5B 5C 5C J J 5D 5D 5D 5D"), "Like Numbers-1", ""},
		{"like even numbers refused by x: odd", rackOf(t, "F F 4B 4B 4B 4B 4C 4C 4C 4C 4D 4D 4D 4D"), "", ""},
		{"run 3..7", rackOf(t, "3D 3D 4D 4D 4D 5D 5D 5D 5D 6D 6D 6D 7D 7D"), "Run-1*", ""},
		{"run with a gap", rackOf(t, "3D 3D 4D 4D 4D 5D 5D 5D 5D 6D 6D 6D 8D 8D"), "", ""},
		{"run, joker in a pair refused", rackOf(t, "3D J 4D 4D 4D 5D 5D 5D 5D 6D 6D 6D 7D 7D"), "", ""},
		{"run across two suits refused", rackOf(t, "3D 3D 4D 4D 4D 5D 5D 5D 5D 6D 6D 6D 7B 7B"), "", ""},
		{"dragons go with their suit", rackOf(t, "F F 6B 6B 6B 6B GD 7C 7C 7C 7C RD 8D 8D"), "Run-2*", ""},
		{"dragon of the wrong suit", rackOf(t, "F F 6B 6B 6B 6B WD 7C 7C 7C 7C RD 8D 8D"), "", ""},
		{"winds alternative 2", rackOf(t, "N N N E E E E W W W W S S S"), "Winds-1*", ""},
		{"singles and pairs concealed", rackOf(t, "N N E E W W S S 1B 1B 2C 2C 3D 3D"), "Singles And Pairs-1*", ""},
		{"concealed hand with an exposure refused", rackOf(t, "E E W W S S 1B 1B 2C 2C 3D 3D", "N N"), "", ""},
		{"quint with jokers and an exposure", rackOf(t, "1B 1B 1B J J 3C 3C 3C 3C J", "GD GD J J"), "Quints-1", ""},
		{"exposure that is not a group of the hand", rackOf(t, "1B 1B J GD GD GD GD 3C 3C 3C 3C", "1B 1B J"), "", ""},
		{"13 tiles match nothing", rackOf(t, "N N N E E E E W W W W S S"), "", ""},
		{"15 tiles match nothing", rackOf(t, "N N N E E E E W W W W S S S S"), "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := ids(c.Match(tc.rack)); got != tc.want {
				t.Errorf("Match(%v %v) = %q, want %q", tc.rack.Concealed, tc.rack.Exposed, got, tc.want)
			}
		})
	}
}

func TestMatchGroupsShowTheConcreteHand(t *testing.T) {
	c := mustParse(t, testCard)
	ms := c.Match(rackOf(t, "F F F F 2C 0 2C 6C 3B 3B J 3D 3D 3D"))
	if len(ms) != 1 {
		t.Fatalf("got %d matches", len(ms))
	}
	var groups []string
	for _, g := range ms[0].Groups {
		groups = append(groups, tile.Format(g))
	}
	got := strings.Join(groups, " | ")
	if got != "F F F F | 2C WD 2C 6C | 3B 3B 3B | 3D 3D 3D" {
		t.Errorf("groups = %s", got)
	}
}

func TestPossible(t *testing.T) {
	c := mustParse(t, testCard)
	hands := func(hs []*Hand) string {
		var s []string
		for _, h := range hs {
			s = append(s, h.ID)
		}
		return strings.Join(s, ",")
	}
	tests := []struct {
		name    string
		exposed []string
		want    string
	}{
		{"no exposure: every hand", nil, "2026-1,Like Numbers-1,Run-1,Run-2,Winds-1,Singles And Pairs-1,Quints-1"},
		{"flower kong", []string{"F F F J"}, "2026-1"},
		{"kong of 5s", []string{"5C 5C J J"}, "Like Numbers-1,Run-1,Run-2"},
		{"kong of 4s, x: odd rules out like numbers", []string{"4C 4C 4C 4C"}, "Run-1,Run-2"},
		{"quint of 1s", []string{"1D 1D J J J"}, "Quints-1"},
		{"two kongs of 4s in one suit: dead", []string{"4C 4C 4C 4C", "4C J J J"}, ""},
		{"pung of north", []string{"N N N"}, "Winds-1"},
		{"north pung with east pung: dead", []string{"N N N", "E E E"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var exp []Exposure
			for _, e := range tc.exposed {
				fs, _ := tile.ParseList(e)
				exp = append(exp, fs)
			}
			if got := hands(c.Possible(exp)); got != tc.want {
				t.Errorf("Possible(%v) = %q, want %q", tc.exposed, got, tc.want)
			}
		})
	}
}

func TestAway(t *testing.T) {
	c := mustParse(t, testCard)
	r := rackOf(t, "F F F 2C 0 6C 3B 3B J 3D 5D 9D N")
	byID := map[string]int{}
	for _, a := range c.Away(r.Concealed, nil) {
		byID[a.HandID] = a.Away
	}
	// FFFF 2026a 333b 333c: F missing 1 (joker covers it or a pung), 2C missing 1 (row: natural),
	// 3B pung has 3B 3B J, 3D pung has one 3D: 2 gaps. Jokers: 1, used for a flower or 3D gap.
	if byID["2026-1"] != 1+1+2 {
		t.Errorf("2026-1 away %d, want 4 (%v)", byID["2026-1"], byID)
	}
	if byID["Winds-1"] != 12 {
		t.Errorf("Winds-1 away %d, want 12 (one N held, one joker)", byID["Winds-1"])
	}
	complete := rackOf(t, "N N N E E E E W W W W S S S")
	for _, a := range c.Away(complete.Concealed, nil) {
		if (a.HandID == "Winds-1") != (a.Away == 0) {
			t.Errorf("%s away %d for a complete Winds hand", a.HandID, a.Away)
		}
	}
}

func TestAwayWithExposuresSkipsImpossibleHands(t *testing.T) {
	c := mustParse(t, testCard)
	r := rackOf(t, "N E E E W W W S S S", "N N N")
	got := c.Away(r.Concealed, r.Exposed)
	// Only the NNN EEEE WWWW SSS alternative takes a pung of north: one E and one W missing.
	if len(got) != 1 || got[0].HandID != "Winds-1" || got[0].Away != 2 || tile.Format(got[0].Groups[0]) != "N N N" {
		t.Fatalf("Away = %+v, want only Winds-1 two away", got)
	}
}

func TestLoadReportsEveryProblemWithPosition(t *testing.T) {
	src := `name: Bad
year: twenty
flower_joker: true
hands:
  - section: A
    pattern: "FFFF 2026 333b 333c"
    value: 25
  - section: A
    patterns: ["NNNN EEEE WWWW S"]
    value: 0
  - section: B
    pattern: "FF 1111a 2222A 3333a J"
    value: 30
    concealed: yes please
  - section: B
    pattern: "XXX 1111a 2222a 3333a"
    x: odd
    value: 30
  - section: C
    pattern: "NN EE WW SS 11a 22b 33c"
    x: [1, 12]
    value: 50
    colour: red
`
	_, err := Parse("bad.yaml", []byte(src))
	var le *LoadError
	if !errors.As(err, &le) || !errors.Is(err, ErrInvalidCard) {
		t.Fatalf("err = %v, want *LoadError", err)
	}
	want := []string{
		`bad.yaml:2:7: year: want a whole number, got "twenty"`,
		`bad.yaml:3:1: card: unknown field "flower_joker"`,
		`bad.yaml:6:23: pattern "FFFF 2026 333b 333c": group "2026" holds numbers or X and needs a suit variable a, b or c at its end`,
		`bad.yaml:9:17: pattern "NNNN EEEE WWWW S": pattern has 13 tiles, a hand has 14`,
		`bad.yaml:10:12: value: want a positive number of points, got "0"`,
		`bad.yaml:12:28: pattern "FF 1111a 2222A 3333a J": unknown element 'A'`,
		`bad.yaml:12:36: pattern "FF 1111a 2222A 3333a J": unknown element 'J'`,
		`bad.yaml:14:16: concealed: want true or false, got "yes please"`,
		`bad.yaml:16:18: pattern "XXX 1111a 2222a 3333a": X needs an offset digit`,
		`bad.yaml:15:5: hand B-2: x: given but no pattern uses X`,
		`bad.yaml:21:12: x: want numbers 1..9, got "12"`,
		`bad.yaml:23:5: hand: unknown field "colour"`,
	}
	msg := err.Error()
	lines := strings.Split(msg, "\n")
	for _, w := range want {
		if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, w) }) {
			t.Errorf("missing problem %q", w)
		}
	}
	if t.Failed() {
		t.Logf("got:\n%s", msg)
	}
}

func TestLoadRejectsStructure(t *testing.T) {
	for name, src := range map[string]string{
		"empty":           ``,
		"not a mapping":   `- a`,
		"syntax":          "name: [unclosed\n",
		"no hands":        "name: X\nyear: 1\nhands: []\n",
		"duplicate id":    "name: X\nyear: 1\nhands:\n- {section: A, id: h, pattern: NNNN EEEE WWWW SS, value: 25}\n- {section: A, id: h, pattern: NNNN EEEE WWWW SS, value: 25}\n",
		"both patterns":   "name: X\nyear: 1\nhands:\n- {section: A, pattern: NNNN EEEE WWWW SS, patterns: [NNNN EEEE WWWW SS], value: 25}\n",
		"missing section": "name: X\nyear: 1\nhands:\n- {pattern: NNNN EEEE WWWW SS, value: 25}\n",
		"hand not a map":  "name: X\nyear: 1\nhands:\n- 3\n",
		"x never fits":    "name: X\nyear: 1\nhands:\n- {section: A, pattern: XX0a XX8a XXX1b XXX2b XXXX3c, x: [2], value: 25}\n",
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := Parse("x.yaml", []byte(src)); !errors.Is(err, ErrInvalidCard) {
				t.Errorf("err = %v, want ErrInvalidCard", err)
			}
		})
	}
}
