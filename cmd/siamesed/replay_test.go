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
	code, out, errs := run(t, "replay", "--json", "--rules", "siamese", "--card", "../../engine/game/testdata/card.yaml", scenarioDir+"siamese-17-two-mahjonggs.jsonl")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	golden(t, "replay-two-mahjonggs.json", out)
}

// TestReplayForPeople: by default one line per finding with its rule and quote, then the
// score table; --all adds the legal acts.
func TestReplayForPeople(t *testing.T) {
	card := "../../engine/game/testdata/card.yaml"
	for _, c := range []struct{ golden, scenario, flag string }{
		{"replay-two-mahjonggs.txt", "siamese-17-two-mahjonggs.jsonl", ""},
		{"replay-dead-after-mahjong.txt", "siamese-18A-opponent-draws-before-mahjong-discard.jsonl", ""},
		{"replay-wall-used-up-all.txt", "siamese-14-act-after-wall-used-up.jsonl", "--all"},
	} {
		t.Run(c.golden, func(t *testing.T) {
			args := []string{"replay", "--card", card}
			if c.flag != "" {
				args = append(args, c.flag)
			}
			args = append(args, scenarioDir+c.scenario)
			code, out, errs := run(t, args...)
			if c.flag == "--all" { // this log ends with an act after the game is over
				if code != 1 || !strings.Contains(errs, "the game is over") {
					t.Fatalf("exit %d, stderr %q", code, errs)
				}
			} else if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			golden(t, c.golden, out)
		})
	}
}

// TestReplayReadsTheHeader: a log with a header names its rules and card; a card that is not
// the one it was played with is refused, naming both; a torn last line is reported and left out.
func TestReplayReadsTheHeader(t *testing.T) {
	card := "../../engine/game/testdata/card.yaml"
	log := scenarioDir + "siamese-18C-drew-out-of-turn.jsonl"
	code, out, errs := run(t, "replay", "--json", "--card", card, log)
	if code != 0 || !strings.Contains(out, `"reason": "two_dead"`) || !strings.Contains(out, `"name": "Ann"`) {
		t.Fatalf("exit %d, stderr %q, stdout %.300s", code, errs, out)
	}
	code, _, errs = run(t, "replay", log)
	if code != 1 || !strings.Contains(errs, `played with the card "Scenario Card"`) || !strings.Contains(errs, "--card") {
		t.Fatalf("no card: exit %d, stderr %q", code, errs)
	}
	code, _, errs = run(t, "replay", "--card", "../../configs/cards/example.yaml", log)
	if code != 1 || !strings.Contains(errs, "card mismatch") || !strings.Contains(errs, "Scenario Card") || !strings.Contains(errs, "Example") {
		t.Fatalf("wrong card: exit %d, stderr %q", code, errs)
	}
	code, _, errs = run(t, "replay", "--rules", "siamese-masters", "--card", card, log)
	if code != 1 || !strings.Contains(errs, `played by the rules "siamese", not "siamese-masters"`) {
		t.Fatalf("wrong rules: exit %d, stderr %q", code, errs)
	}
	src, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	torn := filepath.Join(t.TempDir(), "torn.jsonl")
	if err := os.WriteFile(torn, append(src, `{"seat":1,"act":"dra`...), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs = run(t, "replay", "--card", card, torn)
	if code != 0 || !strings.Contains(errs, "torn last line") || !strings.Contains(out, "result: two dead") {
		t.Fatalf("torn: exit %d, stderr %q, stdout %q", code, errs, out)
	}
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
		{"malformed line names its number", []string{"replay", "--json", "--card", card, write("garbled.jsonl", garbled)}, 1, "garbled.jsonl: damaged game log: line 8: game: bad action", `"actions": 4`},
		{"impossible action names its line", []string{"replay", "--json", "--card", card, write("impossible.jsonl", impossible)}, 1, "impossible.jsonl:8: impossible action: game: discard by seat 1: seat 1 does not hold RD", `"actions": 4`},
		{"strict fails on infractions", []string{"replay", "--json", "--strict", "--rules", "siamese", "--card", card, scenarioDir + "siamese-18C-too-many-tiles.jsonl"}, 1, "infractions found", `"actions": 5`},
		{"strict fails on a refused act", []string{"replay", "--strict", "--card", card, scenarioDir + "siamese-9-joker-from-mahjong.jsonl"}, 1, "infractions found", "refused (undo it at the table)"},
		{"strict passes a clean game", []string{"replay", "--json", "--strict", "--card", card, scenarioDir + "siamese-17-two-mahjonggs.jsonl"}, 0, "", `"reason": "second_mahjong"`},
		{"unknown ruleset", []string{"replay", "--rules", "mahjong-soul", scenarioDir + "siamese-14-wall-game.jsonl"}, 1, `unknown ruleset "mahjong-soul"`, ""},
		{"option combines", []string{"replay", "--json", "--rules", "siamese-masters+nmjl-tournament", "--card", card, scenarioDir + "siamese-masters-wall-game.jsonl"}, 0, "", `"rules": "siamese-masters+nmjl-tournament"`},
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
	code, out, errs := run(t, "replay", "--json", "--rules", "siamese", "--card", card, "--pot", "1000", "--triple",
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

func TestReplaySessionForPeople(t *testing.T) {
	card := "../../engine/game/testdata/card.yaml"
	code, out, errs := run(t, "replay", "--card", card, "--pot", "1000", "--triple",
		scenarioDir+"siamese-17-two-mahjonggs.jsonl", scenarioDir+"siamese-14-wall-game.jsonl")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	golden(t, "replay-session.txt", out)
}

// TestReplayWallPotSession: a Wright-Patterson session carries the wall pot from game to game
// (two wall games feed it, the next Mah Jongg takes it, a last wall game is refunded or
// carried), adds its moves to the totals and converts them to coins.
func TestReplayWallPotSession(t *testing.T) {
	card := "../../engine/game/testdata/limit-card.yaml"
	wall := scenarioDir + "wright-patterson-siamese-payout-wall-game.jsonl"
	one := scenarioDir + "wright-patterson-siamese-payout-one-mahjong.jsonl"
	for _, tc := range []struct {
		left, carried   string
		totals, net     string
		leftover, coins string
	}{
		{"refund", "0", "[600 -100]", "[100 -100]", "0", "[6 -1]"},
		{"carry", "0", "[550 -150]", "[50 -150]", "100", "[5.5 -1.5]"},
		{"refund", "30", "[630 -100]", "[130 -100]", "0", "[6.3 -1]"},
	} {
		t.Run(tc.left+"/"+tc.carried, func(t *testing.T) {
			code, out, errs := run(t, "replay", "--json", "--card", card, "--coin", "100", "--wall-pot-left", tc.left, "--wall-pot", tc.carried, wall, wall, one, wall)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			var s struct {
				Totals  []int     `json:"totals"`
				Coins   []float64 `json:"coins"`
				WallPot struct {
					Net  []int `json:"net"`
					Left int   `json:"left"`
				} `json:"wall_pot"`
			}
			if err := json.Unmarshal([]byte(out), &s); err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(s.Totals) != tc.totals || fmt.Sprint(s.WallPot.Net) != tc.net || fmt.Sprint(s.WallPot.Left) != tc.leftover || fmt.Sprint(s.Coins) != tc.coins {
				t.Errorf("totals %v net %v left %d coins %v; want %s %s %s %s", s.Totals, s.WallPot.Net, s.WallPot.Left, s.Coins, tc.totals, tc.net, tc.leftover, tc.coins)
			}
		})
	}
	code, out, errs := run(t, "replay", "--card", card, "--coin", "100", wall, wall, one, wall)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	golden(t, "replay-wall-pot-session.txt", out)
	if code, _, errs := run(t, "replay", "--card", card, "--wall-pot-left", "keep", wall); code != 2 || !strings.Contains(errs, "refund or carry") {
		t.Errorf("--wall-pot-left keep: exit %d, %q", code, errs)
	}
}

// TestReplayWrightPatterson: one game for people: the Mah Jonggs in limits, the bouquet, the
// flower exchanges and rolls in words with --all.
func TestReplayWrightPatterson(t *testing.T) {
	card := "../../engine/game/testdata/limit-card.yaml"
	for _, c := range []struct{ golden, scenario, flag string }{
		{"replay-wp-two-separately.txt", "wright-patterson-siamese-payout-two-separately.jsonl", ""},
		{"replay-wp-flowers-all.txt", "wright-patterson-siamese-flowers-in-turn-bouquet.jsonl", "--all"},
		{"replay-wp-double-mahjong.txt", "wright-patterson-siamese-payout-double-mahjong.jsonl", ""},
	} {
		t.Run(c.golden, func(t *testing.T) {
			args := []string{"replay", "--card", card}
			if c.flag != "" {
				args = append(args, c.flag)
			}
			code, out, errs := run(t, append(args, scenarioDir+c.scenario)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			golden(t, c.golden, out)
		})
	}
	code, _, errs := run(t, "replay", "--card", "../../engine/game/testdata/card.yaml", "--rules", "wright-patterson-siamese", scenarioDir+"siamese-14-wall-game.jsonl")
	if code != 1 || !strings.Contains(errs, "pays limits") {
		t.Errorf("a points card under wright-patterson-siamese: exit %d, %q", code, errs)
	}
}
