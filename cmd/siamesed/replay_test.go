package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const scenarioDir = "../../engine/game/testdata/scenarios/"

func TestReplayGolden(t *testing.T) {
	code, out, errs := run(t, "replay", "--rules", "siamese", "--card", "../../engine/game/testdata/card.yaml", scenarioDir+"siamese-17-two-mahjonggs.jsonl")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	golden(t, "replay-two-mahjonggs.json", out)
}

func TestReplayErrors(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(scenarioDir + "siamese-17-two-mahjonggs.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	write := func(name string, ls []string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(strings.Join(ls, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// Line 8 garbled: the four actions before it are still replayed and printed.
	garbled := append(append([]string{}, lines[:7]...), `{"seat":1,"act":"draw","tiles":["5C"]`, lines[8])
	impossible := append(append([]string{}, lines[:7]...), `{"seat":1,"act":"discard","tiles":["RD"]}`)
	card := "../../engine/game/testdata/card.yaml"
	tests := []struct {
		name    string
		args    []string
		code    int
		stderr  string
		actions string
	}{
		{"malformed line names its number", []string{"replay", "--card", card, write("garbled.jsonl", garbled)}, 1, "garbled.jsonl: line 8: game: bad action", `"actions": 4`},
		{"impossible action names its line", []string{"replay", "--card", card, write("impossible.jsonl", impossible)}, 1, "impossible.jsonl:8: impossible action: game: discard by seat 1: seat 1 does not hold RD", `"actions": 4`},
		{"strict fails on infractions", []string{"replay", "--strict", "--rules", "siamese", "--card", card, scenarioDir + "siamese-18C-too-many-tiles.jsonl"}, 1, "infractions found", `"actions": 5`},
		{"strict passes a clean game", []string{"replay", "--strict", "--card", card, scenarioDir + "siamese-17-two-mahjonggs.jsonl"}, 0, "", `"reason": "second_mahjong"`},
		{"unknown ruleset", []string{"replay", "--rules", "mahjong-soul", scenarioDir + "siamese-14-wall-game.jsonl"}, 1, `unknown ruleset "mahjong-soul"`, ""},
		{"option combines", []string{"replay", "--rules", "siamese-masters+nmjl-tournament", "--card", card, scenarioDir + "siamese-masters-wall-game.jsonl"}, 0, "", `"rules": "siamese-masters+nmjl-tournament"`},
		{"needs a log", []string{"replay"}, 2, "needs one game log", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := run(t, tc.args...)
			if code != tc.code || !strings.Contains(errs, tc.stderr) || !strings.Contains(out, tc.actions) {
				t.Errorf("exit %d (want %d)\nstderr %q (want %q)\nstdout has %q: %v", code, tc.code, errs, tc.stderr, tc.actions, strings.Contains(out, tc.actions))
			}
		})
	}
}

func TestReplaySessionPaysThePot(t *testing.T) {
	card := "../../engine/game/testdata/card.yaml"
	code, out, errs := run(t, "replay", "--rules", "siamese", "--card", card, "--pot", "1000", "--triple",
		scenarioDir+"siamese-17-two-mahjonggs.jsonl", scenarioDir+"siamese-14-wall-game.jsonl", scenarioDir+"siamese-18C-too-many-tiles.jsonl")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var s struct {
		Games  []json.RawMessage `json:"games"`
		Totals []int             `json:"totals"`
		Pot    []struct{ Seat, Amount int }
	}
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	// Totals: 150-20 and 0-0 and 100-0 (rule 12). Tripled 750, -60: seat 0 takes 810 of 1000,
	// the remaining 190 is shared, 95 each.
	if len(s.Games) != 3 || fmt.Sprint(s.Totals) != "[250 -20]" || fmt.Sprint(s.Pot) != "[{0 905} {1 95}]" {
		t.Errorf("games %d totals %v pot %v", len(s.Games), s.Totals, s.Pot)
	}
}
