package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	exampleCard = "../../configs/cards/example.yaml"
	limitList   = "../../configs/cards/wright-patterson-example.yaml"
)

// TestCardGolden compares each card command's output, for people and as JSON, with
// testdata/NAME (go test ./cmd/siamesed -update rewrites them).
func TestCardGolden(t *testing.T) {
	const small = "testdata/small.yaml"
	tests := []struct {
		name string
		args []string
	}{
		{"check-example", []string{"card", "check", exampleCard}},
		{"match-year-hand", []string{"card", "match", "--card", small, "F F F F 2C 0 2C 6C 3B 3B J 3D 3D 3D"}},
		{"match-exposed", []string{"card", "match", "--card", small, "--exposed", "n n n", "E", "E", "E", "E", "W", "W", "W", "W", "S", "S", "S"}},
		{"match-none", []string{"card", "match", "--card", small, "F F F F 2C J 2C 6C 3B 3B 3B 3D 3D 3D"}},
		{"away", []string{"card", "away", "--card", small, "--top", "2", "F F 2C 0 6C 3B 3B J 3D N N E"}},
		{"away-dead", []string{"card", "away", "--card", small, "--dead", "3D 3D 3D J J J J J J J", "F F 2C 0 6C 3B 3B J 3D N N E"}},
		{"advise", []string{"card", "advise", "--card", small, "--tiles", "N N N N E E E W W W S S S 3D 3D 4D 4D 4D 5D 5D 5D 5D 6D 6D 6D 7D", "--exposed2", "S J J", "--top", "2"}},
		{"advise-example", []string{"card", "advise", "--tiles", "1B 1B 1B 3B 3B 3B 5B 5B 5B 7B 7B 9B 9B F F N N E E W W S S 2C 4C 6C 8C", "--top", "3"}},
		{"advise-discards", []string{"card", "advise", "--card", small, "--discards", "--tiles", "N N N N E E E W W W S S S S 3D 3D 4D 4D 4D 5D 5D 5D 5D 6D 6D 6D 7D 9B"}},
		{"check-limit-list", []string{"card", "check", limitList}},
		{"match-limit", []string{"card", "match", "--card", limitList, "4B 5C 6D 4B 5C 6D 7B 7B 7B 7C 7C J E E"}},
		{"advise-limit", []string{"card", "advise", "--card", limitList, "--tiles", "4B 5C 6D 4B 5C 6D 7B 7B 7B 7C 7C J E E 1D 2D 3D 1D 2D 3D 4D 5D 6D 4D 5D 6D 9C 9C", "--top", "3"}},
	}
	for _, tc := range tests {
		for _, form := range []struct{ ext, flag string }{{".txt", ""}, {".json", "--json"}} {
			t.Run(tc.name+form.ext, func(t *testing.T) {
				args := tc.args
				if form.flag != "" {
					args = append(args, form.flag) // flags after the arguments are read too
				}
				code, out, errs := run(t, args...)
				if code != 0 || errs != "" {
					t.Fatalf("exit %d, stderr %q", code, errs)
				}
				golden(t, tc.name+form.ext, out)
			})
		}
	}
}

func TestCardErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte("name: Bad\nyear: 2026\nhands:\n  - section: A\n    pattern: \"NNNN EEEE WWWW SS S\"\n    value: 25\n  - section: B\n    pattern: \"FF 1111q 2222a 3333a J\"\n    value: nine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var many strings.Builder
	many.WriteString("name: Many\nyear: 2026\nhands:\n")
	for i := 0; i < 30; i++ {
		many.WriteString("  - {section: A, pattern: \"NNNN EEEE WWWW S\", value: 25}\n")
	}
	manyPath := filepath.Join(t.TempDir(), "many.yaml")
	huge := filepath.Join(t.TempDir(), "huge.yaml")
	if os.WriteFile(manyPath, []byte(many.String()), 0o644) != nil || os.WriteFile(huge, make([]byte, 2<<20), 0o644) != nil {
		t.Fatal("cannot write test cards")
	}
	tiles28 := "1B 1B 1B 3B 3B 5B 5B 5B 5B 7B 7B 9B 9B N N N E E W W W S S 5C 5C 5C J 2D"
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr []string
		not    []string
	}{
		{"invalid card lists every problem", []string{"card", "check", exampleCard, bad}, 1, []string{
			bad + ":5:15: pattern \"NNNN EEEE WWWW SS S\": pattern has 15 tiles",
			bad + ":8:22: pattern \"FF 1111q 2222a 3333a J\": 'q' ends the group \"1111q\" but is no suit variable",
			bad + ":9:12: value: want a whole number, got \"nine\"",
			"siamesed card check: 1 of 2 card files invalid",
		}, nil},
		{"problems are capped", []string{"card", "check", manyPath}, 1, []string{manyPath + ":23:", manyPath + ": 10 more problems (--problems 0 lists them all)"}, []string{manyPath + ":24:"}},
		{"--problems 0 lists all", []string{"card", "check", "--problems", "0", manyPath}, 1, []string{manyPath + ":33:"}, []string{"more problems"}},
		{"a file over the size limit", []string{"card", "check", huge}, 1, []string{huge + ": too big: 2097152 bytes, more than a card may be (1048576)"}, nil},
		{"missing file", []string{"card", "check", "nope.yaml"}, 1, []string{"nope.yaml: no such file or directory"}, nil},
		{"check needs a file", []string{"card", "check"}, 2, []string{"give one or more card files", "usage: siamesed card check"}, nil},
		{"a flag after the files is read", []string{"card", "check", exampleCard, "--jsn"}, 2, []string{"flag provided but not defined: -jsn", "usage: siamesed card check", "--problems N"}, nil},
		{"bad tile", []string{"card", "match", "1B", "1Q"}, 2, []string{`tile 2: tile: bad tile notation: "1Q"`}, nil},
		{"not 14 tiles", []string{"card", "match", "1B 1B"}, 2, []string{"a Mah Jongg is 14 tiles, got 2"}, nil},
		{"bad exposure", []string{"card", "match", "--exposed", "3B 3Z", "1B"}, 2, []string{`invalid value "3B 3Z" for flag -exposed`, "usage: siamesed card match"}, nil},
		{"five of a tile", []string{"card", "match", "1B 1B 1B 1B 1B 2B 2B 2B 3B 3B 3B 4B 4B 4B"}, 2, []string{"5 1B, the set has 4"}, nil},
		{"forty 1B", []string{"card", "away", strings.Repeat("1B ", 40)}, 2, []string{"40 tiles; a player holds at most 29"}, nil},
		{"sixty tiles", []string{"card", "advise", "--tiles", strings.Repeat("1B 2C 3D ", 20)}, 2, []string{"60 tiles; a player holds at most 29"}, nil},
		{"dead tiles beyond the set", []string{"card", "away", "--dead", "N N N", "N N E"}, 2, []string{"2 N held and 3 dead, the set has 4"}, nil},
		{"royale set holds eight", []string{"card", "away", "--set", "royale-4", "1B 1B 1B 1B 1B 1B"}, 0, nil, nil},
		{"unknown set", []string{"card", "away", "--set", "mahjong", "1B"}, 2, []string{`unknown set "mahjong"`}, nil},
		{"negative top", []string{"card", "away", "--top", "-1", "1B"}, 2, []string{"--top -1"}, nil},
		{"advise without tiles", []string{"card", "advise"}, 2, []string{"--tiles"}, nil},
		{"advise ranks at most 100 pairs", []string{"card", "advise", "--top", "101", "--tiles", tiles28}, 2, []string{"--top 101: want 1 to 100"}, nil},
		{"advise takes no arguments", []string{"card", "advise", "--tiles", tiles28, "extra"}, 2, []string{"--tiles"}, nil},
		{"bad card in match", []string{"card", "match", "--card", bad, "F F F 2B 0 2B 6B 2C 0 2C 6C GD GD J"}, 1, []string{bad + ":9:12: value", "siamesed card match: " + bad + ": invalid card"}, nil},
		{"bad card in advise", []string{"card", "advise", "--card", bad, "--tiles", tiles28}, 1, []string{bad + ":8:22:"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := run(t, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr %q", code, tc.code, errs)
			}
			for _, want := range tc.stderr {
				if !strings.Contains(errs, want) {
					t.Errorf("stderr lacks %q:\n%s", want, errs)
				}
			}
			for _, not := range tc.not {
				if strings.Contains(errs, not) {
					t.Errorf("stderr has %q:\n%s", not, errs)
				}
			}
		})
	}
}
