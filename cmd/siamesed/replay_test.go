package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/history"
	"github.com/siamesetable/siamesed/journal"
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
		{"replay-dead-after-mahjong.txt", "siamese-18A-wrong-count-after-mahjong.jsonl", ""},
		{"replay-picking-ahead.txt", "siamese-8-picking-ahead.jsonl", ""},
		{"replay-take-back.txt", "siamese-take-back-a-pick-ahead.jsonl", ""},
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
// carried). Each player's net is what the games paid it less what it paid, plus or minus the
// pot; the nets (with what the pot holds, less what it held before) sum to zero and are what
// --coin converts. The scores (totals) are points and leave the pot out.
func TestReplayWallPotSession(t *testing.T) {
	card := "../../engine/game/testdata/limit-card.yaml"
	wall := scenarioDir + "wright-patterson-siamese-payout-wall-game.jsonl"
	one := scenarioDir + "wright-patterson-siamese-payout-one-mahjong.jsonl"
	for _, tc := range []struct {
		left, carried      string
		net, pot           string
		leftover, coins    string
		totals, potCarried string
	}{
		// Ann wins 500 from Bea and takes the 200 both put in: +600, Bea -600.
		{"refund", "0", "[600 -600]", "[100 -100]", "0", "[6 -6]", "[500 0]", "0"},
		// The last wall game's 50 each stay in the pot for the next session.
		{"carry", "0", "[550 -650]", "[50 -150]", "100", "[5.5 -6.5]", "[500 0]", "0"},
		// 30 waiting from before: Ann takes 230.
		{"refund", "30", "[630 -600]", "[130 -100]", "0", "[6.3 -6]", "[500 0]", "30"},
	} {
		t.Run(tc.left+"/"+tc.carried, func(t *testing.T) {
			code, out, errs := run(t, "replay", "--json", "--card", card, "--coin", "100", "--wall-pot-left", tc.left, "--wall-pot", tc.carried, wall, wall, one, wall)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			var s struct {
				Totals  []int     `json:"totals"`
				Net     []int     `json:"net"`
				Coins   []float64 `json:"coins"`
				WallPot struct {
					Carried int   `json:"carried"`
					Net     []int `json:"net"`
					Left    int   `json:"left"`
				} `json:"wall_pot"`
			}
			if err := json.Unmarshal([]byte(out), &s); err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(s.Net) != tc.net || fmt.Sprint(s.WallPot.Net) != tc.pot || fmt.Sprint(s.WallPot.Left) != tc.leftover || fmt.Sprint(s.Coins) != tc.coins || fmt.Sprint(s.Totals) != tc.totals {
				t.Errorf("net %v pot %v left %d coins %v totals %v; want %s %s %s %s %s", s.Net, s.WallPot.Net, s.WallPot.Left, s.Coins, s.Totals, tc.net, tc.pot, tc.leftover, tc.coins, tc.totals)
			}
			if len(s.Net) != 2 {
				t.Fatalf("net %v: want one per player", s.Net)
			}
			if sum := s.Net[0] + s.Net[1] + s.WallPot.Left - s.WallPot.Carried; sum != 0 {
				t.Errorf("the nets %v, %d left in the pot and %d carried in do not balance: %d", s.Net, s.WallPot.Left, s.WallPot.Carried, sum)
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

// TestHistoryTallyAgreesWithReplay: the same Wright-Patterson sessions recorded in a history
// and replayed from their logs give the same scores, nets and wall pot (the history refunds a
// pot left, as replay does by default). The sessions are those of the engine's session
// scenarios (engine/game/testdata/scenarios/*.session.json) that start with no pot waiting.
func TestHistoryTallyAgreesWithReplay(t *testing.T) {
	card := "../../engine/game/testdata/limit-card.yaml"
	sessions := map[string][]string{
		// wall, wall, Ann's single limit (she takes the pot), wall refunded: Ann +600, Bea -600.
		"pot-taken": {"payout-wall-game", "payout-wall-game", "payout-one-mahjong", "payout-wall-game"},
		// wall, wall, Bea's double Mah Jongg over Ann's with Ann's bouquet, wall: Ann -1400, Bea +1400.
		"bouquet-offset": {"payout-wall-game", "payout-wall-game", "payout-double-mahjong", "payout-wall-game"},
	}
	wantNet := map[string]string{"pot-taken": "[600 -600]", "bouquet-offset": "[-1400 1400]"}
	type tallyDoc struct {
		Seats []struct {
			Total int `json:"total"`
			Net   int `json:"net"`
		} `json:"seats"`
		WallPot json.RawMessage `json:"wall_pot"`
	}
	type replayDoc struct {
		Totals  []int           `json:"totals"`
		Net     []int           `json:"net"`
		WallPot json.RawMessage `json:"wall_pot"`
	}
	for name, games := range sessions {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			db, err := history.Open(history.Path(dir), history.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var logs []string
			for i, g := range games {
				path := scenarioDir + "wright-patterson-siamese-" + g + ".jsonl"
				logs = append(logs, path)
				jg, err := journal.Load(path, journal.Sources{CardPath: card})
				if err != nil {
					t.Fatal(err)
				}
				rec, err := history.GameOf(jg, name, time.Date(2026, 11, 23, 19+i, 0, 0, 0, time.UTC))
				if err != nil {
					t.Fatal(err)
				}
				rec.ID = fmt.Sprintf("%s-%d", name, i) // one log played several times
				if _, err := db.Record(rec); err != nil {
					t.Fatal(err)
				}
			}
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			code, out, errs := run(t, "history", "tally", "--json", "--data", dir, "--session", name)
			if code != 0 {
				t.Fatalf("history tally: exit %d: %s", code, errs)
			}
			var h tallyDoc
			if err := json.Unmarshal([]byte(out), &h); err != nil {
				t.Fatal(err)
			}
			code, out, errs = run(t, append([]string{"replay", "--json", "--card", card}, logs...)...)
			if code != 0 {
				t.Fatalf("replay: exit %d: %s", code, errs)
			}
			var r replayDoc
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatal(err)
			}
			var totals, nets []int
			for _, s := range h.Seats {
				totals, nets = append(totals, s.Total), append(nets, s.Net)
			}
			if fmt.Sprint(nets) != wantNet[name] || fmt.Sprint(r.Net) != wantNet[name] {
				t.Errorf("nets: history %v, replay %v; the text pays %s", nets, r.Net, wantNet[name])
			}
			if fmt.Sprint(totals) != fmt.Sprint(r.Totals) || string(compactJSON(t, h.WallPot)) != string(compactJSON(t, r.WallPot)) {
				t.Errorf("history: scores %v, wall pot %s\nreplay:  scores %v, wall pot %s", totals, h.WallPot, r.Totals, r.WallPot)
			}
		})
	}
}

// compactJSON is raw JSON without its spacing, to compare two documents' parts.
func compactJSON(t *testing.T, raw json.RawMessage) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
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
