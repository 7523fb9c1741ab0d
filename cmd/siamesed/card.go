package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/siamesetable/siamesed/configs"
	"github.com/siamesetable/siamesed/engine/card"
	"github.com/siamesetable/siamesed/engine/tile"
)

func init() {
	register("card check", "lint card files: every problem with file:line:col, exit 1 if any", cardCheck)
	register("card match", "which hands 14 tiles complete: card match [--card F] [--exposed T]... TILE...", cardMatch)
	register("card away", "tiles-away for every hand: card away [--card F] [--exposed T]... TILE...", cardAway)
	register("card advise", "Siamese advice: card advise [--card F] --tiles T [--exposed1 T]... [--exposed2 T]... [--top N]", cardAdvise)
}

// groupsFlag collects a repeated flag, one exposure a use: --exposed "3B 3B J".
type groupsFlag []card.Exposure

func (g *groupsFlag) String() string { return fmt.Sprint(*g) }
func (g *groupsFlag) Set(s string) error {
	fs, err := tile.ParseList(s)
	if err != nil {
		return err
	}
	if len(fs) == 0 {
		return errors.New("empty exposure")
	}
	*g = append(*g, fs)
	return nil
}

func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("siamesed "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parseFlags wraps flag errors as usage errors.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	return nil
}

// loadCard loads the card at path, or the embedded example card when path is empty.
func loadCard(path string) (*card.Card, error) {
	if path == "" {
		data, err := configs.Files.ReadFile(configs.ExampleCard)
		if err != nil {
			return nil, err
		}
		return card.Parse("configs/"+configs.ExampleCard, data)
	}
	return loadCardFile(path)
}

// loadCardFile reads and compiles a card file (the engine does no file I/O itself).
func loadCardFile(path string) (*card.Card, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("card: %w", err)
	}
	return card.Parse(path, data)
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// tilesArg reads tiles given as separate arguments or as one quoted list.
func tilesArg(args []string) (tile.Counts, error) {
	fs, err := tile.ParseList(strings.Join(args, " "))
	if err != nil {
		return tile.Counts{}, fmt.Errorf("%w: %v", errUsage, err)
	}
	return tile.CountsOf(fs)
}

func cardCheck(_ context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: card check FILE...", errUsage)
	}
	type summary struct {
		File     string `json:"file"`
		Name     string `json:"name"`
		Year     int    `json:"year"`
		Hands    int    `json:"hands"`
		Variants int    `json:"variants"`
		Lowest   int    `json:"lowest_value"`
	}
	var out []summary
	bad := 0
	for _, path := range args {
		c, err := loadCardFile(path)
		if err != nil {
			fmt.Fprintln(stderr, err)
			bad++
			continue
		}
		out = append(out, summary{path, c.Name, c.Year, len(c.Hands), c.NumVariants(), c.Lowest()})
	}
	if err := writeJSON(stdout, out); err != nil {
		return err
	}
	if bad > 0 {
		return exitCode{1, fmt.Errorf("%d of %d card files invalid", bad, len(args))}
	}
	return nil
}

// rackArgs are the flags and arguments card match and card away share: a card, a rack's
// exposures, and its concealed tiles as arguments.
type rackArgs struct {
	fl      *flag.FlagSet
	path    *string
	exposed groupsFlag
}

func newRackArgs(name string, stderr io.Writer) *rackArgs {
	ra := &rackArgs{fl: newFlags(name, stderr)}
	ra.path = ra.fl.String("card", "", "card file (default: the embedded example card)")
	ra.fl.Var(&ra.exposed, "exposed", "an exposure on the rack, e.g. \"3B 3B J\" (repeat for each)")
	return ra
}

// parse reads the arguments and returns the card and the rack.
func (ra *rackArgs) parse(args []string) (*card.Card, card.Rack, error) {
	if err := parseFlags(ra.fl, args); err != nil {
		return nil, card.Rack{}, err
	}
	c, err := loadCard(*ra.path)
	if err != nil {
		return nil, card.Rack{}, err
	}
	concealed, err := tilesArg(ra.fl.Args())
	return c, card.Rack{Concealed: concealed, Exposed: ra.exposed}, err
}

func cardMatch(_ context.Context, args []string, stdout, stderr io.Writer) error {
	ra := newRackArgs("card match", stderr)
	c, r, err := ra.parse(args)
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
	return writeJSON(stdout, struct {
		Tiles   string          `json:"tiles"`
		Exposed []card.Exposure `json:"exposed"`
		Matches []card.Match    `json:"matches"`
	}{r.Concealed.String(), exposedOrEmpty(ra.exposed), matches})
}

func cardAway(_ context.Context, args []string, stdout, stderr io.Writer) error {
	ra := newRackArgs("card away", stderr)
	top := ra.fl.Int("top", 0, "only the closest N hands (0: all)")
	c, r, err := ra.parse(args)
	if err != nil {
		return err
	}
	aways := c.Away(r.Concealed, r.Exposed)
	sortAways(aways)
	if *top > 0 && len(aways) > *top {
		aways = aways[:*top]
	}
	return writeJSON(stdout, struct {
		Tiles   string          `json:"tiles"`
		Exposed []card.Exposure `json:"exposed"`
		Hands   []card.Away     `json:"hands"`
	}{r.Concealed.String(), exposedOrEmpty(ra.exposed), aways})
}

func cardAdvise(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fl := newFlags("card advise", stderr)
	path := fl.String("card", "", "card file (default: the embedded example card)")
	tiles := fl.String("tiles", "", "the player's concealed tiles, both racks together")
	var e1, e2 groupsFlag
	fl.Var(&e1, "exposed1", "an exposure on rack 1 (repeat for each)")
	fl.Var(&e2, "exposed2", "an exposure on rack 2 (repeat for each)")
	top := fl.Int("top", 5, "how many pairs of hands")
	if err := parseFlags(fl, args); err != nil {
		return err
	}
	if *tiles == "" || fl.NArg() > 0 {
		return fmt.Errorf("%w: give the concealed tiles as one --tiles \"...\" list", errUsage)
	}
	c, err := loadCard(*path)
	if err != nil {
		return err
	}
	concealed, err := tilesArg([]string{*tiles})
	if err != nil {
		return err
	}
	advice := c.Advise(concealed, e1, e2, *top)
	if advice == nil {
		advice = []card.Advice{}
	}
	return writeJSON(stdout, struct {
		Tiles    string          `json:"tiles"`
		Exposed1 []card.Exposure `json:"exposed1"`
		Exposed2 []card.Exposure `json:"exposed2"`
		Advice   []card.Advice   `json:"advice"`
	}{concealed.String(), exposedOrEmpty(e1), exposedOrEmpty(e2), advice})
}

func exposedOrEmpty(g groupsFlag) []card.Exposure {
	if g == nil {
		return []card.Exposure{}
	}
	return g
}
