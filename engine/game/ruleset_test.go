package game

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/siamesetable/siamesed/engine/tile"
)

// ruleIDs are every rule id the engine cites in a verdict; each ruleset must quote them all, so
// no infraction reaches the players without its source text.
var ruleIDs = []string{
	"claim-priority", "covered", "dead-call", "dead-exposures", "exchange-turn", "exposure-shape",
	"fix-rack", "joker-from-killer", "joker-from-mahjong", "mahjong-in-error", "mahjong-rack-count",
	"misdeal", "misnamed", "second-discard", "tile-count", "turn", "wall-game",
}

// optionQuotes are the rule ids each option file must quote: the rules it brings.
var optionQuotes = map[string][]string{
	"nmjl-tournament": {"throw-into-two", "throw-into-three", "misnamed-mahjong", "no-picking-ahead"},
	"no-jokers":       nil,
	"four-flowers":    nil,
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
			name := strings.TrimSuffix(filepath.Base(f), ".yaml")
			ids, known := optionQuotes[name]
			if !known {
				t.Errorf("%s: an option the test does not know: say which rules it must quote", f)
			}
			for _, id := range ids {
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
		ids := ruleIDs
		if r.FlowerWall {
			ids = append(ids, "flowers", "bouquet")
		}
		if r.Rolls {
			ids = append(ids, "roll-east", "roll-prevailing")
		}
		if r.ChowsDrawn {
			ids = append(ids, "chow-call")
		}
		for _, id := range ids {
			if r.quote(id) == "" {
				t.Errorf("%s: no quote for rule %q", r.Name, id)
			}
		}
	}
	if rulesets < 5 {
		t.Fatalf("found %d rulesets, want siamese, siamese-masters, royale-4, royale-3, wright-patterson-siamese", rulesets)
	}
}

// TestSetOptions: no-jokers and four-flowers change the set the game is dealt from, and
// nothing else.
func TestSetOptions(t *testing.T) {
	base := loadRules(t, "wright-patterson-siamese")
	for spec, want := range map[string][2]int{
		"wright-patterson-siamese":                        {8, 8},
		"wright-patterson-siamese+no-jokers":              {0, 8},
		"wright-patterson-siamese+four-flowers":           {8, 4},
		"wright-patterson-siamese+no-jokers+four-flowers": {0, 4},
		"siamese+no-jokers":                               {0, 8},
	} {
		r := loadRules(t, spec)
		set := r.TileSet().Count
		if int(set[tile.Joker]) != want[0] || int(set[tile.Flower]) != want[1] || set.Total() != 136+want[0]+want[1] {
			t.Errorf("%s: %d jokers, %d flowers, %d tiles; want %v", spec, set[tile.Joker], set[tile.Flower], set.Total(), want)
		}
		if s := New(r, loadLimitCard(t)); s.WallLeft != set.Total() {
			t.Errorf("%s: a new game's wall holds %d, want %d", spec, s.WallLeft, set.Total())
		}
		if strings.HasPrefix(spec, "wright") && !reflect.DeepEqual(r.Scoring, base.Scoring) {
			t.Errorf("%s: scoring changed", spec)
		}
	}
}

// TestCheckCard: a ruleset that pays limits plays a limit list, the others a points card.
func TestCheckCard(t *testing.T) {
	limits, points := loadLimitCard(t), loadCard(t)
	wp, siamese := loadRules(t, "wright-patterson-siamese"), loadRules(t, "siamese")
	if err := wp.CheckCard(limits); err != nil {
		t.Error(err)
	}
	if err := siamese.CheckCard(points); err != nil {
		t.Error(err)
	}
	for _, err := range []error{wp.CheckCard(points), siamese.CheckCard(limits)} {
		if !errors.Is(err, ErrCardKind) {
			t.Errorf("err = %v, want ErrCardKind", err)
		}
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
		"two limits":     {"wall_game_bonus: 0", "wall_game_bonus: 0\n  limit_points: [500, 1000]"},
		"no limit":       {"wall_game_bonus: 0", "wall_game_bonus: 0\n  limit_points: [500, 0, 1500]"},
		"bouquet":        {"wall_game_bonus: 0", "wall_game_bonus: 0\n  bouquet: 500\n  bouquet_flowers: 4"},
		"jokers":         {"set: american", "set: american\njokers: -1"},
		"pot":            {"wall_game_bonus: 0", "wall_game_bonus: 0\n  wall_game_pot: -50"},
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

// FuzzParseRuleset: any ruleset file either is refused with an error or gives a ruleset whose
// checks hold: a known set with sane jokers and flowers, three positive limits if any, and a
// new game whose wall is the whole set; an option file combines the same way.
func FuzzParseRuleset(f *testing.F) {
	files, _ := filepath.Glob("../../configs/rules/*.yaml")
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	base := loadRules(f, "wright-patterson-siamese")
	c := loadLimitCard(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		check := func(r *Ruleset) {
			set := r.TileSet()
			if set.Count.Total() < 136 || set.Count[tile.Joker] > 16 || set.Count[tile.Flower] > 16 {
				t.Fatalf("%s: set %s of %d tiles", r.Name, set.Name, set.Count.Total())
			}
			if n := len(r.Scoring.LimitPoints); n != 0 && n != 3 {
				t.Fatalf("%s: %d limits", r.Name, n)
			}
			if r.Players >= 2 && r.Players <= 4 {
				if s := New(r, c); s.WallLeft != set.Count.Total() {
					t.Fatalf("%s: wall %d of a %d-tile set", r.Name, s.WallLeft, set.Count.Total())
				}
			}
		}
		if r, err := ParseRuleset("fuzz.yaml", data); err == nil {
			check(r)
		}
		if r, err := base.WithOption("fuzz.yaml", data); err == nil {
			check(r)
		}
	})
}
