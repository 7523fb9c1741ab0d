package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const exampleCard = "../../configs/cards/example.yaml"

func TestCardGolden(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"check-example.json", []string{"card", "check", exampleCard}, 0, ""},
		{"match-year-hand.json", []string{"card", "match", "--card", "testdata/small.yaml", "F F F F 2C 0 2C 6C 3B 3B J 3D 3D 3D"}, 0, ""},
		{"match-exposed.json", []string{"card", "match", "--card", "testdata/small.yaml", "--exposed", "n n n", "E", "E", "E", "E", "W", "W", "W", "W", "S", "S", "S"}, 0, ""},
		{"match-none.json", []string{"card", "match", "--card", "testdata/small.yaml", "F F F F 2C J 2C 6C 3B 3B 3B 3D 3D 3D"}, 0, ""},
		{"away.json", []string{"card", "away", "--card", "testdata/small.yaml", "--top", "2", "F F 2C 0 6C 3B 3B J 3D N N E"}, 0, ""},
		{"advise.json", []string{"card", "advise", "--card", "testdata/small.yaml", "--tiles", "N N N N E E E W W W S S S 3D 3D 4D 4D 4D 5D 5D 5D 5D 6D 6D 6D 7D", "--exposed2", "S J J", "--top", "2"}, 0, ""},
		{"advise-example.json", []string{"card", "advise", "--tiles", "1B 1B 1B 3B 3B 3B 5B 5B 5B 7B 7B 9B 9B F F N N E E W W S S 2C 4C 6C 8C", "--top", "3"}, 0, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := run(t, tc.args...)
			if code != tc.code || !strings.Contains(errs, tc.stderr) {
				t.Fatalf("exit %d (want %d), stderr %q", code, tc.code, errs)
			}
			golden(t, tc.name, out)
		})
	}
}

func TestCardErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte("name: Bad\nyear: 2026\nhands:\n  - section: A\n    pattern: \"NNNN EEEE WWWW SS S\"\n    value: 25\n  - section: B\n    pattern: \"FF 1111q 2222a 3333a J\"\n    value: nine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr []string
	}{
		{"invalid card lists every problem", []string{"card", "check", exampleCard, bad}, 1, []string{
			bad + ":5:15: pattern \"NNNN EEEE WWWW SS S\": pattern has 15 tiles",
			bad + ":8:22: pattern \"FF 1111q 2222a 3333a J\": unknown element 'q'",
			bad + ":9:12: value: want a whole number, got \"nine\"",
			"1 of 2 card files invalid",
		}},
		{"missing file", []string{"card", "check", "nope.yaml"}, 1, []string{"nope.yaml: no such file"}},
		{"check needs a file", []string{"card", "check"}, 2, []string{"card check FILE"}},
		{"bad tile", []string{"card", "match", "1B", "1Q"}, 2, []string{`tile 2: tile: bad tile notation: "1Q"`}},
		{"not 14 tiles", []string{"card", "match", "1B 1B"}, 2, []string{"a Mah Jongg is 14 tiles, got 2"}},
		{"bad exposure", []string{"card", "match", "--exposed", "3B 3Z", "1B"}, 2, []string{`invalid value "3B 3Z" for flag -exposed`}},
		{"advise without tiles", []string{"card", "advise"}, 2, []string{"--tiles"}},
		{"bad card in match", []string{"card", "match", "--card", bad, "1B"}, 1, []string{":9:12: value"}},
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
		})
	}
}
