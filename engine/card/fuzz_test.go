package card

import (
	"errors"
	"testing"
)

func FuzzParsePattern(f *testing.F) {
	for _, s := range []string{"FFFF 2026a 333b 333c", "FF XXXX0a Da XXXX1b Db XX2c", "NNNN SSSS 1111a FF", "X", "a", "XX9a", "0000 NEWS 1111a 22a",
		"2026a DDDa 2222b|6666b DDDb", "FFF ZZZZ FFF DDDD", "FF NNNN RRRR SSSS", "XX0aX1aX2a XXXXX0b XXXXX0c", "a|b||",
		"1a2b3c 4a5b6c 7a8b9c ZZZ DD", "X0aX1bX2c X0aX1bX2c XXX3a XXX3b ZZ", "111a222b 3333c 22c", "1ab2c", "NDa 1a2bDc 2222b EEEE R"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, errs := parsePattern(s)
		for _, e := range errs {
			if e.col < 1 || e.col > len(s)+1 {
				t.Fatalf("%q: error column %d outside the pattern", s, e.col)
			}
		}
		if len(errs) > 0 {
			return
		}
		again, errs := parsePattern(p.String())
		if len(errs) > 0 || again.String() != p.String() {
			t.Fatalf("%q: canonical %q does not round-trip: %v", s, p.String(), errs)
		}
	})
}

func FuzzParseCard(f *testing.F) {
	f.Add([]byte(testCard))
	f.Add([]byte("name: X\nyear: 1\nhands:\n- {section: A, pattern: NNNN EEEE WWWW SS, value: 25}\n"))
	f.Add([]byte("hands: [[[]]]"))
	f.Add([]byte("name: X\nyear: 1\nhands:\n- {section: A, patterns: [{pattern: NNN XXXX0a XXXX0b SSS, x: odd}], value: 25}\n"))
	f.Add([]byte(mixedCard))
	f.Add([]byte("name: X\nyear: 1\nhands:\n- {section: A, pattern: NNNN EEEE WWWW SS, value: 25}\n- {section: A, pattern: 123a 456a 789a ZZZ DD, value: double-limit}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse("fuzz.yaml", data)
		if err != nil {
			var le *LoadError
			if !errors.As(err, &le) || len(le.Problems) == 0 {
				t.Fatalf("error without problems: %v", err)
			}
			return
		}
		if len(c.Hands) == 0 || c.NumVariants() == 0 {
			t.Fatalf("valid card with no hands or variants")
		}
		for _, h := range c.Hands {
			if h.Variants() == 0 || h.Value <= 0 {
				t.Fatalf("hand %s: %d variants, value %d", h.ID, h.Variants(), h.Value)
			}
			if (h.Limit > 0) != c.Limits || (h.Limit > 0 && h.Value != h.Limit) {
				t.Fatalf("hand %s: limit %d value %d on a card with Limits %v", h.ID, h.Limit, h.Value, c.Limits)
			}
		}
	})
}
