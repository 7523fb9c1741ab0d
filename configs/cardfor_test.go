package configs

import (
	"errors"
	"testing"

	"github.com/siamesetable/siamesed/engine/game"
)

// TestLoadCardFor: with no card given, a ruleset gets the built-in card of its kind; a card of
// the other kind is refused.
func TestLoadCardFor(t *testing.T) {
	for _, tc := range []struct {
		rules, card string
		limits      bool
		err         error
	}{
		{"siamese", "", false, nil},
		{"wright-patterson-siamese", "", true, nil},
		{"wright-patterson-siamese+no-jokers", "", true, nil},
		{"wright-patterson-siamese", "cards/example.yaml", false, game.ErrCardKind},
		{"siamese", "cards/wright-patterson-example.yaml", false, game.ErrCardKind},
	} {
		r, err := LoadRuleset(tc.rules)
		if err != nil {
			t.Fatal(err)
		}
		c, err := LoadCardFor(tc.card, r)
		if !errors.Is(err, tc.err) {
			t.Fatalf("%s with %q: error %v, want %v", tc.rules, tc.card, err, tc.err)
		}
		if err == nil && c.Limits != tc.limits {
			t.Errorf("%s with %q: card %q limits %v, want %v", tc.rules, tc.card, c.Name, c.Limits, tc.limits)
		}
	}
}
