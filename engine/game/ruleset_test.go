package game

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ruleIDs are every rule id the engine cites in a verdict; each ruleset must quote them all, so
// no infraction reaches the players without its source text.
var ruleIDs = []string{
	"claim-priority", "covered", "dead-call", "dead-exposures", "exchange-turn", "exposure-shape",
	"fix-rack", "joker-from-killer", "joker-from-mahjong", "mahjong-in-error", "mahjong-rack-count",
	"misdeal", "misnamed", "second-discard", "tile-count", "turn", "wall-game",
}

func TestEveryRulesetQuotesEveryRule(t *testing.T) {
	files, _ := filepath.Glob("../../configs/rules/*.yaml")
	rulesets := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), "\noption: true") {
			r, err := loadRules(t, "siamese").WithOption(f, data)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			for _, id := range []string{"throw-into-two", "throw-into-three", "misnamed-mahjong", "no-picking-ahead"} {
				if r.quote(id) == "" {
					t.Errorf("%s: no quote for %s", r.Name, id)
				}
			}
			continue
		}
		r, err := ParseRuleset(f, data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		rulesets++
		for _, id := range ruleIDs {
			if r.quote(id) == "" {
				t.Errorf("%s: no quote for rule %q", r.Name, id)
			}
		}
	}
	if rulesets < 4 {
		t.Fatalf("found %d rulesets, want siamese, siamese-masters, royale-4, royale-3", rulesets)
	}
}

func TestParseRulesetRejects(t *testing.T) {
	good, err := os.ReadFile("../../configs/rules/siamese.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for name, edit := range map[string][2]string{
		"unknown field":  {"players: 2", "players: 2\ncolour: red"},
		"five players":   {"players: 2", "players: 5"},
		"unknown set":    {"set: american", "set: riichi"},
		"two_dead":       {"two_dead: end", "two_dead: maybe"},
		"claim priority": {"claim_priority: closest", "claim_priority: loudest"},
		"multiplier":     {"second_multiplier: 2", "second_multiplier: 0"},
	} {
		t.Run(name, func(t *testing.T) {
			src := strings.Replace(string(good), edit[0], edit[1], 1)
			if src == string(good) {
				t.Fatalf("edit %q not applied", edit[0])
			}
			if _, err := ParseRuleset("x", []byte(src)); err == nil {
				t.Error("accepted")
			}
		})
	}
	if _, err := loadRules(t, "siamese").WithOption("siamese", good); err == nil {
		t.Error("a ruleset was accepted as an option")
	}
}
