package journal

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/internal/safefile"
)

// appender is what a Writer writes through: safefile.Appender, or a failing fake in tests.
type appender interface {
	Append(rec []byte) error
	Close() error
}

// Writer appends one game's actions to its log, each line whole and fsync'd before Append
// returns. Appends are serialised, so two goroutines may share a Writer (the daemon appends from
// one). After a failed write it refuses every later append: what reached the disk is then
// unknown, and only a Resume (which reads the file back) knows where the game stands.
type Writer struct {
	mu     sync.Mutex
	path   string
	app    appender
	failed error
}

// ErrClosed is returned by Append after Close.
var ErrClosed = errors.New("journal: the game log is closed")

func openWriter(path string, cut int64) (*Writer, error) {
	app, err := safefile.OpenAppender(path, cut)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	return &Writer{path: path, app: app}, nil
}

// Path is the log file.
func (w *Writer) Path() string { return w.path }

// Append writes one action as one line and syncs it. Append only actions game.Apply accepted:
// an impossible act in the log stops its replay. An action that would not read back as a log
// line (a bad rack, a missing tile) is refused before anything is written.
func (w *Writer) Append(a game.Action) error {
	line, err := actionLine(a)
	if err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.app == nil:
		return ErrClosed
	case w.failed != nil:
		return fmt.Errorf("journal: %s: an earlier write failed, resume the game to go on: %w", w.path, w.failed)
	}
	if err := w.app.Append(line); err != nil {
		w.failed = err
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}

// actionLine is a as one log line with its newline, checked to read back as the same action.
func actionLine(a game.Action) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(a); err != nil {
		return nil, fmt.Errorf("journal: encoding %s: %w", a.Act, err)
	}
	if b.Len() > game.MaxLogLine {
		return nil, fmt.Errorf("journal: %s: %d bytes, longer than a log line may be (%d)", a.Act, b.Len(), game.MaxLogLine)
	}
	if _, err := game.ParseAction(b.Bytes()); err != nil {
		return nil, fmt.Errorf("journal: not written, it would not read back: %w", err)
	}
	return b.Bytes(), nil
}

// Close closes the log; later appends fail with ErrClosed. Closing twice is harmless.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.app == nil {
		return nil
	}
	err := w.app.Close()
	w.app = nil
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}
