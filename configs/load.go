package configs

import (
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/siamesetable/siamesed/engine/card"
	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/internal/userfile"
)

// MaxFileSize bounds a card or ruleset file: anything larger is not one.
const MaxFileSize = 1 << 20

// LoadRuleset reads a ruleset spec: a built-in name with options ("siamese",
// "siamese+nmjl-tournament"), or a path ending in .yaml for any part.
func LoadRuleset(spec string) (*game.Ruleset, error) {
	return game.LoadRuleset(spec, readRules)
}

func readRules(name string) ([]byte, error) {
	if strings.HasSuffix(name, ".yaml") {
		return userfile.ReadFile(name, "a ruleset", MaxFileSize)
	}
	b, err := Rules(name)
	if err != nil {
		return nil, fmt.Errorf("unknown ruleset %q (built in: %s; or a path to a .yaml file)", name, strings.Join(RulesetNames(), ", "))
	}
	return b, nil
}

// RulesetNames lists the built-in rulesets and options.
func RulesetNames() []string {
	ents, _ := fs.ReadDir(Files, "rules")
	var out []string
	for _, e := range ents {
		out = append(out, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	slices.Sort(out)
	return out
}

// Card is a compiled card with the bytes it was read from (their hash names it in game logs).
type Card struct {
	*card.Card
	Path string // where it was read from; "" for the built-in example card
	Data []byte
}

// LoadCard reads and compiles a card file, or the built-in example card when path is "".
func LoadCard(path string) (Card, error) {
	if path == "" {
		data, err := Files.ReadFile(ExampleCard)
		if err != nil {
			return Card{}, err
		}
		c, err := card.Parse("configs/"+ExampleCard, data)
		return Card{Card: c, Data: data}, err
	}
	data, err := userfile.ReadFile(path, "a card", card.MaxCardBytes)
	if err != nil {
		return Card{}, fmt.Errorf("card: %w", err)
	}
	c, err := card.Parse(path, data)
	if err != nil {
		return Card{}, err
	}
	return Card{Card: c, Path: path, Data: data}, nil
}
