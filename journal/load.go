// Package journal keeps games on disk: each game one log file (docs/game-log.md), appended and
// fsync'd act by act, and read back to the exact state, after a crash too.
package journal

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/siamesetable/siamesed/internal/userfile"

	"github.com/siamesetable/siamesed/configs"
	"github.com/siamesetable/siamesed/engine/game"
)

// Sources says where the rules and card of a log come from.
type Sources struct {
	// Rules, when set, is the ruleset spec to play by: required for a log without a header,
	// checked against the header of one with.
	Rules string
	// CardPath, when set, is the card file: required where the log names a card that cannot be
	// found, checked against its hash where it names one.
	CardPath string
	// DefaultRules is the ruleset for a log without a header when Rules is empty.
	DefaultRules string
}

// Game is a log read and replayed.
type Game struct {
	Path     string
	Header   *game.Header // nil for a log without one
	Rules    *game.Ruleset
	Card     configs.Card
	Actions  []game.Action
	Lines    []int // each action's line in the file
	Verdicts []game.Verdict
	State    game.State
	// Undo holds the states before the last acts in effect (game.TakeBackDepth), so a resumed
	// game can take them back.
	Undo *game.Undo
	// Torn is the torn last line that was left out (a write cut short); nil when there was none.
	Torn *game.TornError
}

// ErrNoHeader is wrapped when a log has no header line naming its rules and card (and the
// caller named no rules).
var ErrNoHeader = errors.New("the log has no header line naming its rules and card")

// ErrNoGame is wrapped when a file holds no game: it is empty, or holds only a torn line.
var ErrNoGame = errors.New("no game in it")

// CardMissingError says that the card a log was played with is not to be found.
type CardMissingError struct {
	Card game.CardRef
}

func (e *CardMissingError) Error() string {
	return fmt.Sprintf("the log was played with the card %q (%d, sha256 %.12s...), which is not here", e.Card.Name, e.Card.Year, e.Card.SHA256)
}

// ErrDamaged is wrapped when a log is damaged before its end: nothing after the damage is
// guessed at, and the game is not replayed past it.
var ErrDamaged = errors.New("damaged game log")

// MaxLogBytes bounds a game log: a game's is under 100 KB (a few hundred lines of at most
// game.MaxLogLine bytes).
const MaxLogBytes = 64 << 20

// Load reads a log file and replays it. A torn last line is left out and reported in
// Game.Torn. Damage elsewhere (wrapping ErrDamaged) or an impossible action is an error naming
// the file and line, with the Game replayed up to it; a card or rules that cannot be found or do
// not match is an error and no Game.
func Load(path string, src Sources) (*Game, error) {
	f, err := userfile.Open(path, "a game log", MaxLogBytes)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(path, f, src)
}

// Read is Load from a reader; path names it in errors.
func Read(path string, r io.Reader, src Sources) (*Game, error) {
	g := &Game{Path: path}
	l, readErr := game.ReadLog(r)
	var torn *game.TornError
	switch {
	case errors.As(readErr, &torn):
		g.Torn, readErr = torn, nil
	case readErr != nil:
		readErr = fmt.Errorf("%s: %w: %w", path, ErrDamaged, readErr)
	}
	g.Header, g.Actions, g.Lines = l.Header, l.Actions, l.Lines
	if g.Header == nil && len(g.Actions) == 0 && readErr == nil {
		what := "the file is empty"
		if g.Torn != nil {
			what = "it holds only a torn line (a first write cut short)"
		}
		return nil, fmt.Errorf("%s: %w: %s", path, ErrNoGame, what)
	}
	if err := g.resolve(src); err != nil {
		return nil, errors.Join(fmt.Errorf("%s: %w", path, err), readErr)
	}
	start := game.StartLegacy(g.Rules, g.Card.Card)
	if g.Header != nil {
		start = g.Header.Start(g.Rules, g.Card.Card)
	}
	s, vs, undo, err := game.ReplayUndo(start, g.Actions, game.TakeBackDepth)
	g.State, g.Verdicts, g.Undo = s, vs, undo
	if err != nil {
		var re *game.ReplayError
		if errors.As(err, &re) && re.Index < len(g.Lines) {
			return g, fmt.Errorf("%s:%d: %w", path, g.Lines[re.Index], re.Err)
		}
		return g, fmt.Errorf("%s: %w", path, err)
	}
	return g, readErr
}

// resolve finds the rules and card the log was played with and checks them.
func (g *Game) resolve(src Sources) error {
	spec := src.Rules
	if spec == "" && g.Header != nil {
		spec = g.Header.RulesSpec()
	}
	if spec == "" {
		spec = src.DefaultRules
	}
	if spec == "" {
		return ErrNoHeader
	}
	r, err := configs.LoadRuleset(spec)
	if err != nil {
		return err
	}
	g.Rules = r
	if g.Header == nil {
		if g.Card, err = configs.LoadCard(src.CardPath); err != nil {
			return err
		}
		return r.CheckCard(g.Card.Card)
	}
	if g.Card, err = g.findCard(src.CardPath); err != nil {
		return err
	}
	return g.Header.Check(r, g.Card.Card, g.Card.Data)
}

// findCard finds the card a header names: the one given, else a copy kept beside the journal
// (cards/<sha256>.yaml in the log's folder or the one above it), else the built-in example.
func (g *Game) findCard(given string) (configs.Card, error) {
	if given != "" {
		return configs.LoadCard(given)
	}
	dir := filepath.Dir(g.Path)
	for _, p := range []string{
		filepath.Join(dir, "cards", g.Header.Card.SHA256+".yaml"),
		filepath.Join(dir, "..", "cards", g.Header.Card.SHA256+".yaml"),
	} {
		if _, err := os.Stat(p); err == nil {
			return configs.LoadCard(p)
		}
	}
	c, err := configs.LoadCard("")
	if err != nil {
		return c, err
	}
	if game.CardRefOf(c.Card, c.Data).SHA256 != g.Header.Card.SHA256 {
		return c, &CardMissingError{Card: g.Header.Card}
	}
	return c, nil
}
