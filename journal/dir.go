package journal

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/siamesetable/siamesed/internal/userfile"

	"github.com/siamesetable/siamesed/configs"
	"github.com/siamesetable/siamesed/engine/card"
	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/internal/safefile"
)

// The data directory's layout (docs/journal.md).
const (
	GamesDir    = "games"     // DATA/games/<id>.jsonl: one log per game
	CardsDir    = "cards"     // DATA/cards/<sha256>.yaml: every card a game was played with
	SetAsideDir = "set-aside" // DATA/games/set-aside/: damaged games a user moved out of the way
	LogExt      = ".jsonl"
)

// Dir is a data directory's journal: its games and the cards they were played with.
type Dir struct {
	root string
}

// OpenDir opens the journal under dataDir, creating games/ and cards/ if they are missing.
func OpenDir(dataDir string) (*Dir, error) {
	for _, sub := range []string{GamesDir, CardsDir} {
		p := filepath.Join(dataDir, sub)
		if err := os.MkdirAll(p, 0o755); err != nil {
			return nil, fmt.Errorf("journal: %w", err)
		}
	}
	return &Dir{root: dataDir}, nil
}

// Root is the data directory.
func (d *Dir) Root() string { return d.root }

// GamePath is where the game with this id is kept.
func (d *Dir) GamePath(id string) string {
	return filepath.Join(d.root, GamesDir, id+LogExt)
}

// Create starts the log of a new game: the card's copy is saved first (so a log never exists
// without its card), then the file appears whole with its header line, synced, or not at all.
// The id is h.Game; an id already used is refused, never overwritten.
func (d *Dir) Create(h game.Header, c configs.Card) (*Writer, error) {
	if err := CheckID(h.Game); err != nil {
		return nil, err
	}
	if _, err := game.ParseHeader(h.Line()); err != nil {
		return nil, fmt.Errorf("journal: game %s: %w", h.Game, err)
	}
	if c.Card == nil {
		return nil, fmt.Errorf("journal: game %s: no card", h.Game)
	}
	if ref := game.CardRefOf(c.Card, c.Data); ref.SHA256 != h.Card.SHA256 {
		return nil, fmt.Errorf("journal: game %s: the header names the card sha256 %.12s... but the card given is %q (sha256 %.12s...)",
			h.Game, h.Card.SHA256, ref.Name, ref.SHA256)
	}
	if err := d.saveCard(h.Card.SHA256, c.Data); err != nil {
		return nil, err
	}
	path := d.GamePath(h.Game)
	if err := createWhole(path, h.Line()); err != nil {
		return nil, err
	}
	return openWriter(path, -1)
}

// saveCard keeps a copy of the card's bytes as cards/<sha256>.yaml, where journal.Load and
// `siamesed replay` look for it. A copy whose bytes no longer hash to its name is rewritten.
func (d *Dir) saveCard(sum string, data []byte) error {
	path := filepath.Join(d.root, CardsDir, sum+".yaml")
	old, err := userfile.ReadFile(path, "a card", card.MaxCardBytes)
	if err == nil && hashOf(old) == sum {
		return nil
	}
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("journal: card copy: %w", err)
	}
	if err := safefile.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("journal: card copy: %w", err)
	}
	return nil
}

func hashOf(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// LogMode is a game log's mode: a log holds every seat's concealed tiles, so only the
// daemon's own user reads it (other files of the data directory are 0644).
const LogMode = 0o600

// createWhole makes path hold exactly data, or fails if path exists: data goes to a synced
// temporary file that is hard-linked to path (link, unlike rename, never replaces a file), and
// the directory is synced. A crash leaves either no game or a game with its whole header.
func createWhole(path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	defer func() {
		if rmErr := os.Remove(tmp.Name()); rmErr != nil && err == nil {
			err = fmt.Errorf("journal: %w", rmErr)
		}
	}()
	err = tmp.Chmod(LogMode)
	if err == nil {
		_, err = tmp.Write(data)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("journal: writing %s: %w", path, err)
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, os.ErrExist) {
			return fmt.Errorf("journal: game id %q is %w: %s exists", trimExt(path), ErrIDUsed, path)
		}
		return fmt.Errorf("journal: %w", err)
	}
	return safefile.SyncDir(dir)
}

// ErrIDUsed is wrapped when a new game's id names a game the directory holds already.
var ErrIDUsed = errors.New("already used")

// trimExt is a game file's id.
func trimExt(path string) string {
	return strings.TrimSuffix(filepath.Base(path), LogExt)
}
