package table

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/siamesetable/siamesed/internal/safefile"
	"github.com/siamesetable/siamesed/tournament/wire"
)

// ledger is the table's tournament file, DATA/tournament/<event>/: every message the table
// made (results, signatures, initials, calls) and every ruling it received, one JSON line each,
// fsync'd (ledger.jsonl); and how many of its own it has had acknowledged by the cluster
// (sent). The lines after sent are the outbox.
type ledger struct {
	dir   string
	app   *safefile.Appender
	lines []wire.Message
	sent  int // lines[:sent] are acknowledged (rulings count as acknowledged)
}

func openLedger(dir string) (*ledger, []string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, fmt.Errorf("table: %w", err)
	}
	path := filepath.Join(dir, "ledger.jsonl")
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, nil, fmt.Errorf("table: %w", err)
	}
	l := &ledger{dir: dir}
	var warnings []string
	good := 0
	for n := 1; good < len(data); n++ {
		end := bytes.IndexByte(data[good:], '\n')
		if end < 0 { // the last line without its newline: the write a stop cut short
			warnings = append(warnings, fmt.Sprintf("%s: line %d torn (%d bytes), cut", path, n, len(data)-good))
			break
		}
		m, err := wire.Decode(data[good : good+end])
		if err != nil {
			return nil, nil, fmt.Errorf("table: %s: damaged line %d: %w (move the file away to start the event's ledger afresh)", path, n, err)
		}
		l.lines = append(l.lines, m)
		good += end + 1
	}
	if l.app, err = safefile.OpenAppender(path, int64(good)); err != nil {
		return nil, nil, fmt.Errorf("table: %w", err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "sent")); err == nil {
		l.sent, _ = strconv.Atoi(strings.TrimSpace(string(b)))
	}
	l.sent = min(l.sent, len(l.lines))
	return l, warnings, nil
}

func (l *ledger) add(m wire.Message) error {
	b, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("table: %w", err)
	}
	if err := l.app.Append(append(b, '\n')); err != nil {
		return fmt.Errorf("table: %w", err)
	}
	l.lines = append(l.lines, m)
	return nil
}

func (l *ledger) markSent(n int) error {
	l.sent = n
	return safefile.WriteFile(filepath.Join(l.dir, "sent"), []byte(strconv.Itoa(n)+"\n"), 0o644)
}

func (l *ledger) close() error { return l.app.Close() }
