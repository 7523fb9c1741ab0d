package card

import (
	"os"
	"strings"
	"testing"
)

// limitListPath is the example Wright-Patterson limit list the project ships.
const limitListPath = "../../configs/cards/wright-patterson-example.yaml"

func TestLimitValues(t *testing.T) {
	c := mustParse(t, `name: Limits
year: 2026
hands:
  - {section: A, pattern: "NNN EEE WWW SSS RR", value: triple-limit}
  - {section: A, pattern: "123a 456a 789a DDDa ZZ", value: single-limit}
  - {section: A, pattern: "X0aX1bX2c X0aX1bX2c X0aX1bX2c ZZZ DD", value: double-limit}
`)
	if !c.Limits || c.Lowest() != 1 {
		t.Fatalf("Limits %v, Lowest %d: want a limit card whose lowest hand is a single limit", c.Limits, c.Lowest())
	}
	for i, want := range []int{3, 1, 2} {
		if h := c.Hands[i]; h.Limit != want || h.Value != want || h.ValueText() != LimitName(want) {
			t.Errorf("hand %s: limit %d value %d %q, want %d", h.ID, h.Limit, h.Value, h.ValueText(), want)
		}
	}
	ms := c.Match(rackOf(t, "1B 2B 3B 4B 5B 6B 7B 8B 9B GD GD J N N"))
	if len(ms) != 1 || ms[0].Limit != 1 || ms[0].Value != 1 {
		t.Fatalf("Match = %+v, want A-2 as a single limit", ms)
	}
	if got := c.ValueText(3); got != "3 limits" {
		t.Errorf("ValueText(3) = %q", got)
	}
	if points := mustParse(t, testCard); points.Limits || points.Hands[0].ValueText() != "25" || points.Hands[0].Limit != 0 {
		t.Errorf("a points card reads as limits: %v %q", points.Limits, points.Hands[0].ValueText())
	}
}

func TestLimitValueErrors(t *testing.T) {
	for name, tc := range map[string]struct{ src, want string }{
		"points and limits mixed": {
			"name: X\nyear: 1\nhands:\n- {section: A, pattern: NNNN EEEE WWWW SS, value: 25}\n- {section: A, pattern: NNNN EEEE WWWW RR, value: double-limit}\n",
			"x.yaml:5:51: value: this card values a hand in points at line 4; a card values every hand in points or every hand in limits",
		},
		"limits then points": {
			"name: X\nyear: 1\nhands:\n- {section: A, pattern: NNNN EEEE WWWW SS, value: single-limit}\n- {section: A, pattern: NNNN EEEE WWWW RR, value: 50}\n",
			"x.yaml:5:51: value: this card values a hand in limits at line 4",
		},
		"no such limit": {
			"name: X\nyear: 1\nhands:\n- {section: A, pattern: NNNN EEEE WWWW SS, value: quadruple-limit}\n",
			`x.yaml:4:51: value: want single-limit, double-limit or triple-limit, got "quadruple-limit"`,
		},
		"a limit spelt with a space": {
			"name: X\nyear: 1\nhands:\n- {section: A, pattern: NNNN EEEE WWWW SS, value: single limit}\n",
			`value: want single-limit, double-limit or triple-limit, got "single limit"`,
		},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Parse("x.yaml", []byte(tc.src))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v\nwant %q", err, tc.want)
			}
		})
	}
}

// TestCardWithoutJokers: jokers: false (a list written for a set without jokers) lets no joker
// stand anywhere, pungs and flower groups included.
func TestCardWithoutJokers(t *testing.T) {
	src := "name: X\nyear: 1\n%shands:\n- {section: A, pattern: NNN EEE WWW SSS RR, value: single-limit}\n- {section: B, pattern: FFFF NNNN EEEE SS, value: single-limit}\n"
	with := mustParse(t, strings.Replace(src, "%s", "", 1))
	without := mustParse(t, strings.Replace(src, "%s", "jokers: false\n", 1))
	for _, rack := range []string{"N N J E E E W W W S S S RD RD", "F F F J N N N N E E E E S S"} {
		if got := ids(with.Match(rackOf(t, rack))); got == "" {
			t.Errorf("%s: no match on a card with jokers", rack)
		}
		if got := ids(without.Match(rackOf(t, rack))); got != "" {
			t.Errorf("%s: matched %s on a card without jokers", rack, got)
		}
	}
	if got := ids(without.Match(rackOf(t, "N N N E E E W W W S S S RD RD"))); got != "A-1*" {
		t.Errorf("the natural hand matched %q on a card without jokers", got)
	}
}

// TestAdviceRanksByLimit: two pairs of hands equally far away come in the order of their limits.
func TestAdviceRanksByLimit(t *testing.T) {
	c := mustParse(t, `name: Limits
year: 2026
hands:
  - {section: A, pattern: "NNN EEE WWW SSS RR", value: single-limit}
  - {section: B, pattern: "NNN EEE WWW SSS GG", value: triple-limit}
  - {section: C, pattern: "111a 999a 111b 999b 55c", value: double-limit}
`)
	held := rackOf(t, "N N N E E E W W W S S S 1B 1B 1B 9B 9B 9B 1C 1C 1C 9C 9C 9C 5D 5D 7D 8D").Concealed
	adv := c.Advise(held, nil, nil, 3)
	if len(adv) < 2 {
		t.Fatalf("advice %+v", adv)
	}
	// Both racks two away at best (RR or GG); the triple limit pair first.
	if adv[0].Away != adv[1].Away || adv[0].Value != 5 || adv[1].Value != 3 {
		t.Errorf("advice ranks %d/%d away with %d and %d limits, want the 5-limit pair first", adv[0].Away, adv[1].Away, adv[0].Value, adv[1].Value)
	}
}

// TestLimitListLoads checks the example limit list the project ships: every hand a limit, every
// hand with a note, no flower (flowers are bonus tiles in Wright-Patterson play), and the forms
// the list is there to show.
func TestLimitListLoads(t *testing.T) {
	c, err := Load(limitListPath)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(limitListPath)
	if !c.Limits || len(c.Hands) < 12 {
		t.Fatalf("limits %v, %d hands", c.Limits, len(c.Hands))
	}
	limits := map[int]int{}
	for _, h := range c.Hands {
		limits[h.Limit]++
		if h.Note == "" {
			t.Errorf("hand %s: no note", h.ID)
		}
		for _, p := range h.Patterns {
			if strings.ContainsAny(p, "F") {
				t.Errorf("hand %s holds a flower: %s", h.ID, p)
			}
		}
	}
	if limits[1] == 0 || limits[2] == 0 || limits[3] == 0 {
		t.Errorf("limits used: %v, want single, double and triple", limits)
	}
	for _, form := range []string{"X0X1X2a", "123a", "X0aX1bX2c", "1a2b3c", "concealed: true"} {
		if !strings.Contains(string(data), form) {
			t.Errorf("the list shows no %s", form)
		}
	}
}

func TestLimitListMatches(t *testing.T) {
	c, err := Load(limitListPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, concealed string
		exposed         []string
		want            string
	}{
		{"like pungs with a joker", "5B 5B 5B 5C 5C J 5D 5D 5D RD RD RD E E", nil, "Pungs-1"},
		{"four pungs in a row", "2D 2D 2D 3D 3D 3D 4D 4D 4D 5D 5D 5D WD WD", nil, "Pungs-2*"},
		{"the dragon pair is the suit's own", "2D 2D 2D 3D 3D 3D 4D 4D 4D 5D 5D 5D GD GD", nil, ""},
		{"four wind pungs, one exposed", "E E E W W W S S S GD GD", []string{"N N J"}, "Pungs-4"},
		{"a straight in three chows", "1C 2C 3C 4C 5C 6C 7C 8C 9C RD RD RD S S", nil, "Chows-1*"},
		{"a chow takes no joker", "1C 2C J 4C 5C 6C 7C 8C 9C RD RD RD S S", nil, ""},
		{"three chows of one run", "3B 4B 5B 3C 4C 5C 3D 4D 5D RD RD RD GD GD", nil, "Chows-2*"},
		{"two chows twice, a pair of 1", "4D 5D 6D 4D 5D 6D 7D 8D 9D 7D 8D 9D 1B 1B", nil, "Chows-3*"},
		{"the concealed chow hand refuses an exposure", "1B 2B 3B 1B 2B 3B 1B 2B 3B 1B 2B 3B 4B 4B", nil, "Chows-4*"},
		{"mixed chows with pungs", "6B 7C 8D 6B 7C 8D 9B 9B 9B 9C 9C 9C N N", nil, "Mixed Chows-1*"},
		{"mixed chows, any order of suits", "6C 7D 8B 6C 7D 8B 9C 9C 9C 9D 9D J N N", nil, "Mixed Chows-1"},
		{"a mixed chow with two of one suit", "6B 7B 8D 6B 7C 8D 9B 9B 9B 9C 9C 9C N N", nil, ""},
		{"one to nine in mixed chows", "1D 2B 3C 4D 5B 6C 7D 8B 9C W W W RD RD", nil, "Mixed Chows-3*"},
		{"one to nine, the suits out of order", "1D 2B 3C 4B 5D 6C 7D 8B 9C W W W RD RD", nil, ""},
		{"every dragon, north and south", "RD RD RD GD GD GD WD WD WD N N N S S", nil, "Honours-1*"},
		{"every dragon, north and west", "RD RD RD GD GD GD WD WD WD N N N W W", nil, ""},
		{"seven pairs in a row", "3C 3C 4C 4C 5C 5C 6C 6C 7C 7C 8C 8C 9C 9C", nil, "Concealed-1*"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rackOf(t, tc.concealed, tc.exposed...)
			if got := ids(c.Match(r)); got != tc.want {
				t.Errorf("Match(%s) = %q, want %q", tc.concealed, got, tc.want)
			}
		})
	}
}

// TestOracleLimitList compares the matcher and tiles-away with the oracle on the example limit
// list: chows, mixed chows, limit values.
func TestOracleLimitList(t *testing.T) {
	t.Parallel()
	n, m := 20_000, 1000
	if quickOracle() {
		n, m = 1000, 80
	}
	oc := loadOracle(t, limitListPath)
	c, err := Load(limitListPath)
	if err != nil {
		t.Fatal(err)
	}
	for i, h := range c.Hands {
		if h.ID != oc.hands[i].id || h.Value != oc.hands[i].value {
			t.Errorf("hand %d: loader %s/%d, oracle %s/%d", i, h.ID, h.Value, oc.hands[i].id, oc.hands[i].value)
		}
	}
	compareMatch(t, limitListPath, n, 16, false)
	compareAwayWith(t, limitListPath, m, 17, false, m/50) // 15 hands: fewer to rule out
}

// mixedCard is a card without jokers whose groups mix suits, for the oracle.
const mixedCard = `name: Mixed
year: 2026
jokers: false
hands:
  - {section: M, pattern: "1a2b3c 1a2b3c 1a2b3c 444a 55b", value: single-limit}
  - {section: M, pattern: "X0aX1bX2c XXX3a XXX3b XXX3c 0G", value: double-limit}
  - {section: M, pattern: "NDa 1a2bDc 2222b EEEE R", value: double-limit}
  - {section: M, pattern: "11a22b 111c 333c 5a5b5c 7c", value: triple-limit}
`

func TestOracleMixedCardWithoutJokers(t *testing.T) {
	t.Parallel()
	n, m := 20_000, 1000
	if quickOracle() {
		n, m = 3000, 200 // cheap; a fifth of its racks match, a fiftieth with exposures
	}
	path := t.TempDir() + "/mixed.yaml"
	if err := os.WriteFile(path, []byte(mixedCard), 0o644); err != nil {
		t.Fatal(err)
	}
	compareMatch(t, path, n, 18, false)
	compareAway(t, path, m, 19, false)
}
