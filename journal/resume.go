package journal

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/siamesetable/siamesed/engine/game"
)

// OpenGame is a game whose log does not end it: the one the daemon carries on.
type OpenGame struct {
	ID       string
	Path     string
	Modified time.Time // the log's last write: the newest game is the one in play
	Game     *Game     // the log replayed; Game.Torn is a torn last line Resume will cut
}

// Unfinished lists the games whose replay is not over, newest first. A finished game is one
// whose log ends it (State.Phase is over): no mark is kept beside it. done, if not nil, names
// games known to be finished (recorded in the history), which are skipped without a replay.
// A log that is damaged or cannot be replayed is an error naming its file and line (all of them
// at once), returned with the games that could be read: the daemon must not start a new game
// over a lost one. A user sets such a game aside by moving it to games/set-aside/.
func (d *Dir) Unfinished(done func(id string) bool) ([]OpenGame, error) {
	open, _, err := d.Unrecorded(done)
	return open, err
}

// Unrecorded reads every game done does not name, as Unfinished, and splits them: open, the
// games not over (newest first); over, the games whose log ends them but that done does not
// know, as when the daemon was stopped between ending a game and recording it (oldest first).
func (d *Dir) Unrecorded(done func(id string) bool) (open, over []OpenGame, err error) {
	dir := filepath.Join(d.root, GamesDir)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("journal: %w", err)
	}
	var errs []error
	for _, e := range ents {
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasSuffix(name, LogExt) || strings.HasPrefix(name, ".") {
			continue
		}
		id := strings.TrimSuffix(name, LogExt)
		if done != nil && done(id) {
			continue
		}
		path := filepath.Join(dir, name)
		g, err := Load(path, Sources{})
		if err != nil {
			errs = append(errs, setAsideHint(err))
			continue
		}
		info, err := e.Info()
		if err != nil {
			errs = append(errs, fmt.Errorf("journal: %w", err))
			continue
		}
		og := OpenGame{ID: id, Path: path, Modified: info.ModTime(), Game: g}
		if g.State.Phase == game.PhaseOver {
			over = append(over, og)
		} else {
			open = append(open, og)
		}
	}
	newest := func(a, b OpenGame) int {
		if c := b.Modified.Compare(a.Modified); c != 0 {
			return c
		}
		return cmp.Compare(b.ID, a.ID)
	}
	slices.SortFunc(open, newest)
	slices.SortFunc(over, func(a, b OpenGame) int { return newest(b, a) })
	return open, over, errors.Join(errs...)
}

// Resume replays a game's log to the exact state and opens it for appending. A torn last line
// (a write cut short) is cut off the file and reported in Game.Torn for the daemon to log; a
// last line without its newline gets one. Damage before the end (wrapping ErrDamaged) or an
// impossible action is an error naming the file and line, and the file is left untouched.
func (d *Dir) Resume(path string, src Sources) (*Writer, *Game, error) {
	g, err := Load(path, src)
	if err != nil {
		return nil, g, setAsideHint(err)
	}
	cut := int64(-1)
	if g.Torn != nil {
		cut = g.Torn.Offset
	}
	w, err := openWriter(path, cut)
	if err != nil {
		return nil, g, err
	}
	if err := w.endLine(); err != nil {
		return nil, g, errors.Join(err, w.Close())
	}
	return w, g, nil
}

// setAsideHint says what the daemon's user can do about a game that cannot be resumed: give
// back the card it was played with, where that is what is missing, or start without the game.
func setAsideHint(err error) error {
	var missing *CardMissingError
	if errors.As(err, &missing) {
		return fmt.Errorf("journal: %w (put that card file in the data directory as %s/%s.yaml, or name it in the configuration's card:; or, to start without this game, move its file to %s/%s/)",
			err, CardsDir, missing.Card.SHA256, GamesDir, SetAsideDir)
	}
	return fmt.Errorf("journal: %w (to start without this game, move its file to %s/%s/)", err, GamesDir, SetAsideDir)
}

// endLine adds a newline when the file's last whole line lacks one, so the next action starts
// a line of its own.
func (w *Writer) endLine() error {
	f, err := os.Open(w.path)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	if st.Size() == 0 {
		return nil
	}
	last := make([]byte, 1)
	if _, err := f.ReadAt(last, st.Size()-1); err != nil {
		return fmt.Errorf("journal: reading %s: %w", w.path, err)
	}
	if last[0] == '\n' {
		return nil
	}
	if err := w.app.Append([]byte("\n")); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}
