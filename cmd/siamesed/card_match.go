package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/siamesetable/siamesed/engine/card"
	"github.com/siamesetable/siamesed/engine/tile"
)

// rackArgs are the flags and arguments card match and card away share: a card, a rack's
// exposures, its concealed tiles as arguments, and the output form.
type rackArgs struct {
	fl      *flag.FlagSet
	path    *string
	exposed groupsFlag
	asJSON  *bool
	table   *tableArgs
}

func newRackArgs(name string, stderr io.Writer, withDead bool) *rackArgs {
	ra := &rackArgs{fl: newFlags(name, stderr)}
	ra.path = ra.fl.String("card", "", "read the card from `FILE` (default: the embedded example card)")
	ra.fl.Var(&ra.exposed, "exposed", "an exposure on the rack, `TILES` such as \"3B 3B J\" (repeat for each)")
	ra.asJSON = ra.fl.Bool("json", false, "print the full result as JSON")
	ra.table = newTableArgs(ra.fl, withDead)
	return ra
}

// parse reads the arguments and returns the card, the rack and the table (nil: nothing dead).
func (ra *rackArgs) parse(args []string, stderr io.Writer) (*card.Card, card.Rack, *card.Table, error) {
	if err := parseFlags(ra.fl, args); err != nil {
		return nil, card.Rack{}, nil, err
	}
	concealed, err := tilesArg(ra.fl.Args())
	if err != nil {
		return nil, card.Rack{}, nil, err
	}
	r := card.Rack{Concealed: concealed, Exposed: ra.exposed}
	t, err := ra.table.table(concealed, ra.exposed)
	if err != nil {
		return nil, card.Rack{}, nil, err
	}
	c, err := loadCard(*ra.path)
	if err != nil {
		return nil, card.Rack{}, nil, cardError(stderr, err)
	}
	return c, r, t, nil
}

// cardError prints an invalid card's problems as card check does and exits 1.
func cardError(stderr io.Writer, err error) error {
	var le *card.LoadError
	if !errors.As(err, &le) {
		return err
	}
	printProblems(stderr, err, 20)
	return exitCode{1, fmt.Errorf("%s: invalid card (siamesed card check %s lists every problem)", le.File, le.File)}
}

func cardMatch(_ context.Context, args []string, stdout, stderr io.Writer) error {
	ra := newRackArgs("card match", stderr, false)
	c, r, _, err := ra.parse(args, stderr)
	if err != nil {
		return err
	}
	if n := r.Total(); n != 14 {
		return fmt.Errorf("%w: a Mah Jongg is 14 tiles, got %d", errUsage, n)
	}
	matches := c.Match(r)
	if matches == nil {
		matches = []card.Match{}
	}
	if *ra.asJSON {
		return writeJSON(stdout, struct {
			Tiles   string          `json:"tiles"`
			Exposed []card.Exposure `json:"exposed"`
			Matches []card.Match    `json:"matches"`
		}{r.Concealed.String(), exposedOrEmpty(ra.exposed), matches})
	}
	fmt.Fprintf(stdout, "%s\n", rackLine(r.Concealed, ra.exposed))
	if len(matches) == 0 {
		_, err := fmt.Fprintln(stdout, "no hand on the card: siamesed card away shows the closest")
		return err
	}
	tw := newTable(stdout, "hand\tvalue\taway\tgroups")
	for _, m := range matches {
		note := ""
		if m.Jokerless {
			note = "  (jokerless)"
		}
		fmt.Fprintf(tw, "%s\t%s\t0\t%s%s\n", m.HandID, m.Hand.ValueText(), groupsText(m.Groups), note)
	}
	return tw.Flush()
}

func cardAway(_ context.Context, args []string, stdout, stderr io.Writer) error {
	ra := newRackArgs("card away", stderr, true)
	top := ra.fl.Int("top", 0, "only the closest `N` hands (0: all)")
	c, r, t, err := ra.parse(args, stderr)
	if err != nil {
		return err
	}
	if *top < 0 {
		return fmt.Errorf("%w: --top %d: want 0 (all) or more", errUsage, *top)
	}
	aways := c.AppendAway(nil, r.Concealed, r.Exposed, t)
	possible := len(aways)
	sortAways(aways)
	if *top > 0 && len(aways) > *top {
		aways = aways[:*top]
	}
	if aways == nil {
		aways = []card.Away{}
	}
	if *ra.asJSON {
		return writeJSON(stdout, struct {
			Tiles   string          `json:"tiles"`
			Exposed []card.Exposure `json:"exposed"`
			Dead    string          `json:"dead,omitempty"`
			Hands   []card.Away     `json:"hands"`
		}{r.Concealed.String(), exposedOrEmpty(ra.exposed), ra.table.dead.String(), aways})
	}
	fmt.Fprintf(stdout, "%s; %d of %d hands still possible\n", rackLine(r.Concealed, ra.exposed), possible, len(c.Hands))
	if len(aways) == 0 {
		return nil
	}
	tw := newTable(stdout, "hand\tvalue\taway\tclosest")
	for _, a := range aways {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\n", a.HandID, a.Hand.ValueText(), a.Away, groupsText(a.Groups))
	}
	return tw.Flush()
}

// rackLine describes the tiles a command was given: "14 tiles: E E E ... + exposed [N N N J]".
func rackLine(concealed tile.Counts, exposed []card.Exposure) string {
	n := concealed.Total()
	for _, e := range exposed {
		n += len(e)
	}
	s := fmt.Sprintf("%d tiles: %v", n, concealed)
	for _, e := range exposed {
		s += fmt.Sprintf(" + exposed [%s]", tile.Format(e))
	}
	return s
}
