package card

import (
	"strings"
	"testing"
)

// langCard uses each form pasted from other open card files, and the per-pattern x:.
const langCard = `name: Language
year: 2026
hands:
  - section: Choice
    pattern: "2026a DDDa 2222b|6666b DDDb"
    value: 25
  - section: Winds
    pattern: "FFF ZZZZ FFF DDDD"
    value: 30
  - section: Literal
    patterns: ["FF NNNN RRRR SSSS", "FF EEEE GGGG WWWW"]
    value: 35
  - section: Spanning
    patterns:
      - {pattern: "NNN XXXX0a XXXX0b SSS", x: odd}
      - {pattern: "EEE XXXX0a XXXX0b WWW", x: even}
    value: 40
  - section: Row
    pattern: "XX0aX1aX2a XXXXX0b XXXXX0c"
    value: 45
  - section: Mixed
    pattern: "X0aX1bX2c X0aX1bX2c 123a 456a EE"
    value: 50
    note: two mixed chows of one run, two chows in the first suit, a pair of east
`

func TestLanguageForms(t *testing.T) {
	c := mustParse(t, langCard)
	tests := []struct {
		name, rack, want string
	}{
		{"choice: kong of 2", "2B 0 2B 6B GD GD GD 2C 2C 2C 2C RD RD RD", "Choice-1*"},
		{"choice: kong of 6", "2B 0 2B 6B GD GD GD 6C 6C 6C J RD RD RD", "Choice-1"},
		{"choice: kong of 4 is no alternative", "2B 0 2B 6B GD GD GD 4C 4C 4C 4C RD RD RD", ""},
		{"Z: a kong of one wind, D: a kong of one dragon", "F F F S S S S F F F RD RD RD RD", "Winds-1*"},
		{"Z: any wind, D: any dragon", "F F F N N N J F F F WD WD J J", "Winds-1"},
		{"Z: mixed winds are no kong", "F F F N N S S F F F WD WD WD WD", ""},
		{"D: mixed dragons are no kong", "F F F N N N N F F F WD WD RD RD", ""},
		{"literal red with N and S", "F F N N N N RD RD RD J S S S S", "Literal-1"},
		{"literal green with E and W", "F F E E E E GD GD GD GD W W W W", "Literal-1*"},
		{"literal red refuses white", "F F N N N N WD WD WD WD S S S S", ""},
		{"literal green refuses red with E and W", "F F E E E E RD RD RD RD W W W W", ""},
		{"odd numbers with N and S", "N N N 3B 3B 3B 3B 3C 3C 3C J S S S", "Spanning-1"},
		{"even numbers with E and W", "E E E 4B 4B 4B 4B 4D 4D 4D 4D W W W", "Spanning-1*"},
		{"even numbers with N and S refused", "N N N 4B 4B 4B 4B 4C 4C 4C 4C S S S", ""},
		{"odd numbers with E and W refused", "E E E 5B 5B 5B 5B 5C 5C 5C 5C W W W", ""},
		{"suit letter repeated in a row", "3D 3D 4D 5D 3B 3B 3B 3B J 3C 3C 3C J J", "Row-1"},
		{"the row's numbers follow X", "3D 3D 4D 5D 4B 4B 4B 4B J 4C 4C 4C J J", ""},
		{"the row is one suit", "3D 3D 4C 5D 3B 3B 3B 3B J 3C 3C 3C J J", ""},
		{"mixed chows: each tile its own suit", "4B 5C 6D 4B 5C 6D 1B 2B 3B 4B 5B 6B E E", "Mixed-1*"},
		{"mixed chows: the chows follow the first suit", "4C 5B 6D 4C 5B 6D 1C 2C 3C 4C 5C 6C E E", "Mixed-1*"},
		{"mixed chows: the chows' suit is not in the mixed chow's place", "4B 5C 6D 4B 5C 6D 1C 2C 3C 4C 5C 6C E E", ""},
		{"mixed chows: two tiles of one suit are no mixed chow", "4B 5B 6D 4B 5B 6D 1B 2B 3B 4B 5B 6B E E", ""},
		{"mixed chows take no joker", "4B 5C 6D 4B 5C J 1B 2B 3B 4B 5B 6B E E", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := ids(c.Match(rackOf(t, tc.rack))); got != tc.want {
				t.Errorf("Match(%s) = %q, want %q", tc.rack, got, tc.want)
			}
		})
	}
}

func TestLanguageVariants(t *testing.T) {
	c := mustParse(t, langCard)
	want := map[string]int{
		"Choice-1":   6 * 2, // a, b over suits; 2222 or 6666
		"Winds-1":    4 * 3, // a wind, a dragon
		"Literal-1":  2,
		"Spanning-1": 3*5 + 3*4, // a, b unordered pair of suits (3) x odd (5) or even (4) bases
		"Mixed-1":    6 * 7,     // a, b, c over suits; X from 1 to 7
	}
	for id, n := range want {
		h, _ := c.HandByID(id)
		if h.Variants() != n {
			t.Errorf("%s: %d variants, want %d", id, h.Variants(), n)
		}
	}
}

func TestPatternErrorsNameTheSymbol(t *testing.T) {
	tests := []struct{ pattern, want string }{
		{"2222b|6666b 2026a DDDa DDDb|", `empty alternative in "DDDb|"`},
		{"2026a DDDa 2222b||6666b DDDb", `empty alternative in "2222b||6666b"`},
		{"2026a DDDa 2222b|666b DDDb", `alternatives in "2222b|666b" hold different numbers of tiles (4 and 3)`},
		{"2026a DDDa 2222b+6666b DDDb", `unknown element '+' in group "2222b+6666b"`},
		{"2026a DDDa 2222B DDDb", `unknown element 'B' in group "2222B" (suit variables are lower case: b)`},
		{"FF NNNN RRRRa SSSS", `group "RRRRa" holds no suited tile; remove the suit variable`},
		{"FF 111a222b 3333c 22c", `group "111a222b" mixes suit variables but holds three of one tile: separate its groups with a space`},
		{"FF 1a2b3 1111c 3333c 55a", `group "1a2b3" mixes suit variables, so its last numbers need one of their own`},
		{"FF 1ab2c 1111c 3333c 55a", `suit variable b in group "1ab2c" follows no number, X or D of its own`},
		{"FF 1111 2222a 3333a 44a", `group "1111" holds numbers or X and needs a suit variable`},
		{"FF NNNN → SSSS", `unknown element '→'`},
		{"FF DDDDa DDDDb DDDDd", `'d' ends the group "DDDDd" but is no suit variable: the suit variables are a, b and c`},
	}
	for _, tc := range tests {
		_, errs := parsePattern(tc.pattern)
		var msgs []string
		for _, e := range errs {
			msgs = append(msgs, e.Error())
		}
		if got := strings.Join(msgs, "; "); !strings.Contains(got, tc.want) {
			t.Errorf("%q: errors %q, want %q", tc.pattern, got, tc.want)
		}
	}
}

func TestPatternErrorColumnsCountCharacters(t *testing.T) {
	_, errs := parsePattern("FF NNNN → SSSS Q")
	if len(errs) != 2 || errs[0].col != 9 || errs[1].col != 16 {
		t.Errorf("errors %v, want columns 9 and 16", errs)
	}
}

func TestCanonicalPattern(t *testing.T) {
	for in, want := range map[string]string{
		"ffF zzzz fff dddd":           "FFF ZZZZ FFF DDDD",
		"XX0aX1aX2a XXXXX0b XXXXX0c":  "XX0X1X2a XXXXX0b XXXXX0c",
		"2026a DDDa 2222b|6666b DDDb": "2026a DDDa 2222b|6666b DDDb",
		"rr gg 0 N E W S":             "RR GG 0 N E W S",
		"1a2b3c X0aX1bX2c 1a2a3b":     "1a2b3c X0aX1bX2c 12a3b",
		"X0aX0b NDaDb":                "X0aX0b NDaDb",
	} {
		p, errs := parsePattern(in)
		if len(errs) > 0 && !strings.Contains(errs[0].msg, "tiles, a hand has 14") {
			t.Errorf("%q: %v", in, errs)
		}
		if got := p.String(); got != want {
			t.Errorf("%q prints as %q, want %q", in, got, want)
		}
	}
}

func TestLoadRefusesHugeAndMisplacedForms(t *testing.T) {
	for name, tc := range map[string]struct{ src, want string }{
		"too many combinations": {
			"name: X\nyear: 1\nhands:\n- {section: A, pattern: Z Z Z Z Z Z Z Z Z Z Z Z Z Z, value: 25}\n",
			"x.yaml:4:3: hand A-1: its patterns stand for more than 20000 concrete hands",
		},
		"x on a pattern without X": {
			"name: X\nyear: 1\nhands:\n- section: A\n  patterns:\n  - {pattern: NNNN EEEE WWWW SS, x: odd}\n  value: 25\n",
			"x.yaml:6:37: x: given but the pattern does not use X",
		},
		"pattern mapping without pattern": {
			"name: X\nyear: 1\nhands:\n- section: A\n  patterns:\n  - {x: odd}\n  value: 25\n",
			"x.yaml:6:5: pattern: missing pattern",
		},
		"unknown field in a pattern mapping": {
			"name: X\nyear: 1\nhands:\n- section: A\n  patterns:\n  - {pattern: NNNN EEEE WWWW SS, colour: red}\n  value: 25\n",
			`x.yaml:6:34: pattern: unknown field "colour"`,
		},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Parse("x.yaml", []byte(tc.src))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
}
