package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/siamesetable/siamesed/internal/userfile"

	"github.com/siamesetable/siamesed/configs"
	"github.com/siamesetable/siamesed/engine/card"
	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/internal/cli"
)

func init() {
	register("card check", "lint card files, every problem as file:line:col: card check [--json] [--problems N] FILE...", cardCheck)
	register("card match", "which hands a rack's 14 tiles complete: card match [--card FILE] [--exposed TILES]... [--json] TILE...", cardMatch)
	register("card away", "tiles-away for every hand: card away [--card FILE] [--exposed TILES]... [--dead TILES] [--top N] [--json] TILE...", cardAway)
	register("card advise", "Siamese advice, or which tile to throw: card advise [--card FILE] --tiles TILES [--exposed1 TILES]... [--exposed2 TILES]... [--dead TILES] [--discards] [--top N] [--json]", cardAdvise)
}

// maxHeld is the most tiles a Siamese player holds on and in both racks (27, 28 after the draw,
// 29 for a deal that gives one more).
const maxHeld = 29

// newFlags returns a command's flag set; parseFlags reads it (internal/cli prints the usage).
func newFlags(name string, _ io.Writer) *flag.FlagSet { return cli.Flags(name) }

// parseFlags reads flags wherever they stand among the arguments; mistakes are usage errors.
func parseFlags(fs *flag.FlagSet, args []string) error { return cli.Parse(fs, args) }

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

// tilesFlag is one list of tiles: --dead "7D 7D 7D 7D".
type tilesFlag struct{ tile.Counts }

func (t *tilesFlag) String() string { return t.Counts.String() }
func (t *tilesFlag) Set(s string) error {
	c, err := parseTiles(s)
	t.Counts = c
	return err
}

// parseTiles reads tiles given in one list (or several arguments joined).
func parseTiles(s string) (tile.Counts, error) {
	fs, err := tile.ParseList(s)
	if err != nil {
		return tile.Counts{}, err
	}
	return tile.CountsOf(fs)
}

// tilesArg reads tiles given as separate arguments or as one quoted list.
func tilesArg(args []string) (tile.Counts, error) {
	c, err := parseTiles(strings.Join(args, " "))
	if err != nil {
		return tile.Counts{}, fmt.Errorf("%w: %v", errUsage, err)
	}
	return c, nil
}

// tableArgs are the flags that say which tiles exist: the set, and the tiles dead on the table.
type tableArgs struct {
	set  *string
	dead tilesFlag
}

func newTableArgs(fl *flag.FlagSet, withDead bool) *tableArgs {
	ta := &tableArgs{set: fl.String("set", "american", "the set in play, `NAME`: american, royale-4 or royale-3")}
	if withDead {
		fl.Var(&ta.dead, "dead", "the `TILES` dead on the table: discarded, or exposed on other racks (\"7D 7D 7D 7D\")")
	}
	return ta
}

// table checks that the tiles held, exposed and dead exist in the set, and returns the table
// for tiles-away (nil when nothing is dead, so that no hand is ruled out by the set alone).
func (ta *tableArgs) table(concealed tile.Counts, exposed ...[]card.Exposure) (*card.Table, error) {
	set, err := tile.SetByName(*ta.set)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	t := &card.Table{Set: set.Count, Dead: ta.dead.Counts}
	held := concealed.Total()
	for _, es := range exposed {
		for _, e := range es {
			held += len(e)
		}
	}
	if held > maxHeld {
		return nil, fmt.Errorf("%w: %d tiles; a player holds at most %d", errUsage, held, maxHeld)
	}
	if err := t.Check(concealed, exposed...); err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	if ta.dead.Total() == 0 {
		return nil, nil
	}
	return t, nil
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

// loadCardFile reads and compiles a card file (the engine does no file I/O itself). It reads
// at most one byte more than a card may have, so a huge file is refused without reading it all.
func loadCardFile(path string) (*card.Card, error) {
	data, err := userfile.ReadFile(path, "a card", card.MaxCardBytes)
	if err != nil {
		return nil, fileError(path, err)
	}
	return card.Parse(path, data)
}

// fileError says what is wrong with a file as "file: what", like the card's problems.
func fileError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("%s: %w", path, err)
}

func writeJSON(w io.Writer, v any) error { return cli.WriteJSON(w, v) }

func exposedOrEmpty(g groupsFlag) []card.Exposure {
	if g == nil {
		return []card.Exposure{}
	}
	return g
}
