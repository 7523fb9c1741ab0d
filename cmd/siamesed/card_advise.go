package main

import (
	"context"
	"fmt"
	"io"

	"github.com/siamesetable/siamesed/engine/card"
)

func cardAdvise(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fl := newFlags("card advise", stderr)
	path := fl.String("card", "", "read the card from `FILE` (default: the embedded example card)")
	tiles := fl.String("tiles", "", "the player's concealed `TILES`, both racks together")
	var e1, e2 groupsFlag
	fl.Var(&e1, "exposed1", "an exposure on rack 1, `TILES` such as \"3B 3B J\" (repeat for each)")
	fl.Var(&e2, "exposed2", "an exposure on rack 2, `TILES` (repeat for each)")
	top := fl.Int("top", 5, "show the best `N` pairs of hands")
	discards := fl.Bool("discards", false, "instead: each tile the player could throw, with the best pair of hands the rest leaves")
	asJSON := fl.Bool("json", false, "print the full result as JSON")
	ta := newTableArgs(fl, true)
	if err := parseFlags(fl, args); err != nil {
		return err
	}
	if *tiles == "" || fl.NArg() > 0 {
		return fmt.Errorf("%w: give the concealed tiles as one --tiles \"...\" list", errUsage)
	}
	if *top < 1 || *top > card.MaxAdvice {
		return fmt.Errorf("%w: --top %d: want 1 to %d", errUsage, *top, card.MaxAdvice)
	}
	concealed, err := tilesArg([]string{*tiles})
	if err != nil {
		return err
	}
	t, err := ta.table(concealed, e1, e2)
	if err != nil {
		return err
	}
	c, err := loadCard(*path)
	if err != nil {
		return cardError(stderr, err)
	}
	s := card.Siamese{Concealed: concealed, Exposed: [2][]card.Exposure{e1, e2}}
	head := adviseHead{concealed.String(), exposedOrEmpty(e1), exposedOrEmpty(e2), ta.dead.String()}
	if *discards {
		ds := c.AdviseDiscards(s, t)
		if *asJSON {
			return writeJSON(stdout, struct {
				adviseHead
				Discards []card.Discard `json:"discards"`
			}{head, ds})
		}
		return printDiscards(stdout, c, &s, ds)
	}
	advice := c.AdviseSiamese(s, *top, t)
	if advice == nil {
		advice = []card.Advice{}
	}
	if *asJSON {
		return writeJSON(stdout, struct {
			adviseHead
			Advice []card.Advice `json:"advice"`
		}{head, advice})
	}
	return printAdvice(stdout, c, &s, advice)
}

// adviseHead repeats card advise's input in its JSON document.
type adviseHead struct {
	Tiles    string          `json:"tiles"`
	Exposed1 []card.Exposure `json:"exposed1"`
	Exposed2 []card.Exposure `json:"exposed2"`
	Dead     string          `json:"dead,omitempty"`
}
