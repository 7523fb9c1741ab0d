package configs

import (
	"fmt"

	"github.com/siamesetable/siamesed/engine/card"
	"github.com/siamesetable/siamesed/engine/game"
)

// ExampleLimitList is the path inside Files of the example limit list, the built-in card of a
// ruleset that pays limits (wright-patterson-siamese).
const ExampleLimitList = "cards/wright-patterson-example.yaml"

// LoadCardFor reads the card a ruleset plays: the file at path, or with no path the built-in
// card of the ruleset's kind (the example card in points, or the example limit list where the
// ruleset pays limits). A card of the other kind is an error (game.ErrCardKind), before any
// game begins.
func LoadCardFor(path string, r *game.Ruleset) (Card, error) {
	var c Card
	var err error
	if path == "" && len(r.Scoring.LimitPoints) > 0 {
		c, err = builtInCard(ExampleLimitList)
	} else {
		c, err = LoadCard(path)
	}
	if err != nil {
		return Card{}, err
	}
	if err := r.CheckCard(c.Card); err != nil {
		return Card{}, fmt.Errorf("card: %w", err)
	}
	return c, nil
}

// builtInCard compiles a card embedded in Files; like the example card it has no Path.
func builtInCard(name string) (Card, error) {
	data, err := Files.ReadFile(name)
	if err != nil {
		return Card{}, fmt.Errorf("card: %w", err)
	}
	c, err := card.Parse("configs/"+name, data)
	if err != nil {
		return Card{}, err
	}
	return Card{Card: c, Data: data}, nil
}
