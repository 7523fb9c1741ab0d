// Package store is the desk's record: an SQLite database (modernc.org/sqlite, pure Go) holding
// every change to a tournament (a result, a signature, initials, a call, a ruling) as one row
// with who, when and why. Rows are only ever added: triggers refuse an UPDATE or DELETE, so
// nothing recorded is overwritten; standings are computed from the rows. A change already
// recorded (the same kind and ref: a result sent twice, a message redelivered) is not added
// again, which makes counting exactly once a property of the database.
package store

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	_ "modernc.org/sqlite" // the "sqlite" driver
)

// Errors a caller may test with errors.Is.
var (
	ErrForeign    = errors.New("not a siamesed desk database")
	ErrDamaged    = errors.New("damaged desk database")
	ErrOtherEvent = errors.New("the data directory holds another event")
	ErrNewer      = errors.New("written by a newer siamesed")
)

// appID marks the file as ours (PRAGMA application_id): "SDSK".
const appID = 0x5344534b

// version is the schema's (PRAGMA user_version).
const version = 1

const schema = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
CREATE TABLE changes (
	n     INTEGER PRIMARY KEY AUTOINCREMENT,
	at    TEXT NOT NULL,
	who   TEXT NOT NULL CHECK (who <> ''),
	why   TEXT NOT NULL,
	kind  TEXT NOT NULL CHECK (kind IN ('result', 'sign', 'initials', 'call', 'ruling')),
	ref   TEXT NOT NULL CHECK (ref <> ''),
	tbl   INTEGER NOT NULL,
	round INTEGER NOT NULL,
	body  TEXT NOT NULL CHECK (json_valid(body))
) STRICT;
CREATE UNIQUE INDEX changes_once ON changes (kind, ref);
CREATE TRIGGER changes_kept BEFORE UPDATE ON changes BEGIN SELECT RAISE(ABORT, 'the desk''s record is append-only'); END;
CREATE TRIGGER changes_not_deleted BEFORE DELETE ON changes BEGIN SELECT RAISE(ABORT, 'the desk''s record is append-only'); END;
CREATE TRIGGER meta_kept BEFORE UPDATE ON meta BEGIN SELECT RAISE(ABORT, 'the desk''s record is append-only'); END;
`

// Change is one row: what changed, who changed it, when and why.
type Change struct {
	N     int64           `json:"n"`
	At    time.Time       `json:"at"`
	Who   string          `json:"who"`
	Why   string          `json:"why"`
	Kind  string          `json:"kind"`
	Ref   string          `json:"ref"` // unique within its kind: a message's id
	Table int             `json:"table"`
	Round int             `json:"round"`
	Body  json.RawMessage `json:"body"`
}

// Store is an open desk database. Its methods are safe for concurrent use.
type Store struct {
	db   *sql.DB
	path string
}

// Open opens or creates the database at path for the event named event. A file that is not
// SQLite, another program's SQLite database, a damaged one, or another event's is refused
// with its name, and left as it is.
func Open(path, event string) (*Store, error) {
	if err := sniff(path); err != nil {
		return nil, err
	}
	dsn := "file:" + path + "?_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", path, err)
	}
	s := &Store{db: db, path: path}
	if err := s.prepare(event); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// sniff refuses a file that is not SQLite before the driver sees it.
func sniff(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	defer f.Close()
	head := make([]byte, 16)
	n, err := io.ReadFull(f, head)
	if n == 0 && (errors.Is(err, io.EOF)) {
		return nil // an empty file: a database not yet written
	}
	if !bytes.Equal(head[:n], []byte("SQLite format 3\x00")) {
		return fmt.Errorf("store: %s: %w (not an SQLite file); move it away or choose another --data", path, ErrForeign)
	}
	return nil
}

func (s *Store) prepare(event string) error {
	var id, ver, tables int
	if err := s.db.QueryRow(`PRAGMA application_id`).Scan(&id); err != nil {
		return s.damaged(err)
	}
	if err := s.db.QueryRow(`PRAGMA user_version`).Scan(&ver); err != nil {
		return s.damaged(err)
	}
	if err := s.db.QueryRow(`SELECT count(*) FROM sqlite_schema`).Scan(&tables); err != nil {
		return s.damaged(err)
	}
	switch {
	case id == 0 && tables == 0:
		return s.create(event)
	case id != appID:
		return fmt.Errorf("store: %s: %w (an SQLite database of another program, application_id %#x); move it away or choose another --data", s.path, ErrForeign, id)
	case ver > version:
		return fmt.Errorf("store: %s: %w (schema %d, this one reads %d): update siamesed", s.path, ErrNewer, ver, version)
	}
	var check string
	if err := s.db.QueryRow(`PRAGMA quick_check`).Scan(&check); err != nil {
		return s.damaged(err)
	}
	if check != "ok" {
		return s.damaged(errors.New(check))
	}
	var had string
	if err := s.db.QueryRow(`SELECT value FROM meta WHERE key = 'event'`).Scan(&had); err != nil {
		return s.damaged(err)
	}
	if had != event {
		return fmt.Errorf("store: %s: %w: %q, not %q; choose another --data for a new event", s.path, ErrOtherEvent, had, event)
	}
	return nil
}

func (s *Store) damaged(err error) error {
	return fmt.Errorf("store: %s: %w: %v (the file is left as it is)", s.path, ErrDamaged, err)
}

func (s *Store) create(event string) error {
	tx, err := s.db.Begin()
	if err != nil {
		return fmt.Errorf("store: %s: %w", s.path, err)
	}
	defer tx.Rollback()
	for _, q := range []string{schema, fmt.Sprintf(`PRAGMA application_id = %d`, appID), fmt.Sprintf(`PRAGMA user_version = %d`, version)} {
		if _, err := tx.Exec(q); err != nil {
			return fmt.Errorf("store: %s: creating: %w", s.path, err)
		}
	}
	if _, err := tx.Exec(`INSERT INTO meta (key, value) VALUES ('event', ?), ('created', ?)`, event, time.Now().UTC().Format(time.RFC3339Nano)); err != nil {
		return fmt.Errorf("store: %s: creating: %w", s.path, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: %s: creating: %w", s.path, err)
	}
	return nil
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }
