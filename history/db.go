package history

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterr "go.etcd.io/bbolt/errors"
)

// FileName is the history's file in the data directory.
const FileName = "history.db"

// Path is the history's file in dataDir.
func Path(dataDir string) string { return filepath.Join(dataDir, FileName) }

// format marks a bbolt file as a siamesed history, and its record version.
const (
	formatKey = "format"
	format    = "siamesed-history 1"
)

// Buckets.
var (
	metaBucket     = []byte("meta")
	gamesBucket    = []byte("games")      // id -> record (JSON)
	byTimeBucket   = []byte("by_finish")  // finish time, id -> nil
	bySessBucket   = []byte("by_session") // session, finish time, id -> nil
	byDayBucket    = []byte("by_day")     // day, finish time, id -> nil
	sessionsBucket = []byte("sessions")   // session -> its settings (JSON): the pot
)

// Errors a caller tells apart.
var (
	ErrNoHistory  = errors.New("no games recorded yet")
	ErrLocked     = errors.New("locked by another process")
	ErrNotHistory = errors.New("not a siamesed history database")
	ErrNotFound   = errors.New("no such game")
)

// Options say how to open the history.
type Options struct {
	// ReadOnly opens for reading only, sharing the file with other readers; a missing file is
	// ErrNoHistory rather than created.
	ReadOnly bool
	// Timeout is how long to wait for another process's lock; 0 means DefaultTimeout.
	Timeout time.Duration
}

// DefaultTimeout is how long Open waits for the lock: longer than any recording takes.
const DefaultTimeout = 2 * time.Second

// DB is an open history.
type DB struct {
	bolt *bolt.DB
	path string
}

// Open opens the history at path (Path(dataDir)), creating it unless o.ReadOnly.
func Open(path string, o Options) (*DB, error) {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.ReadOnly {
		st, err := os.Stat(path)
		if errors.Is(err, os.ErrNotExist) || err == nil && st.Size() == 0 {
			return nil, fmt.Errorf("history: %w in %s", ErrNoHistory, filepath.Dir(path))
		}
		if err != nil {
			return nil, fmt.Errorf("history: %w", err)
		}
	}
	b, err := bolt.Open(path, 0o644, &bolt.Options{Timeout: o.Timeout, ReadOnly: o.ReadOnly})
	switch {
	case errors.Is(err, bolterr.ErrTimeout):
		return nil, fmt.Errorf("history: %s is %w, most likely the running daemon (siamesed run) recording a game: try again; if it stays locked, stop the daemon", path, ErrLocked)
	case errors.Is(err, bolterr.ErrInvalid), errors.Is(err, bolterr.ErrChecksum), errors.Is(err, bolterr.ErrVersionMismatch):
		return nil, fmt.Errorf("history: %s is %w (%v)", path, ErrNotHistory, err)
	case err != nil:
		return nil, fmt.Errorf("history: opening %s: %w", path, err)
	}
	db := &DB{bolt: b, path: path}
	if o.ReadOnly {
		err = db.view(checkFormat)
	} else {
		err = db.update(initialise)
	}
	if err != nil {
		return nil, errors.Join(err, b.Close())
	}
	return db, nil
}

// Close closes the history and lets go of its lock.
func (db *DB) Close() error {
	if err := db.bolt.Close(); err != nil {
		return fmt.Errorf("history: closing %s: %w", db.path, err)
	}
	return nil
}

// File is the history's path.
func (db *DB) File() string { return db.path }

// initialise makes a new file a history, and checks that an old one is one.
func initialise(tx *bolt.Tx) error {
	meta := tx.Bucket(metaBucket)
	if meta == nil {
		empty := true
		if err := tx.ForEach(func([]byte, *bolt.Bucket) error { empty = false; return nil }); err != nil {
			return err
		}
		if !empty {
			return fmt.Errorf("%w: it holds other data", ErrNotHistory)
		}
		var err error
		if meta, err = tx.CreateBucket(metaBucket); err != nil {
			return err
		}
		if err := meta.Put([]byte(formatKey), []byte(format)); err != nil {
			return err
		}
	}
	if err := checkFormat(tx); err != nil {
		return err
	}
	for _, name := range [][]byte{gamesBucket, byTimeBucket, bySessBucket, byDayBucket, sessionsBucket} {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return err
		}
	}
	return nil
}

// checkFormat tells a history this package reads from another bbolt file or a newer history.
func checkFormat(tx *bolt.Tx) error {
	meta := tx.Bucket(metaBucket)
	if meta == nil {
		return fmt.Errorf("%w: no %s mark", ErrNotHistory, formatKey)
	}
	switch got := string(meta.Get([]byte(formatKey))); got {
	case format:
		return nil
	case "":
		return fmt.Errorf("%w: no %s mark", ErrNotHistory, formatKey)
	default:
		return fmt.Errorf("the history is %q, and this siamesed reads %q: update siamesed", got, format)
	}
}

// view runs a read transaction; a panic in bbolt (a damaged page) becomes an error naming the
// file, so a damaged history is reported, not a crash.
func (db *DB) view(fn func(tx *bolt.Tx) error) (err error) {
	defer db.recoverDamage(&err)
	if err := db.bolt.View(fn); err != nil {
		return fmt.Errorf("history: %s: %w", db.path, err)
	}
	return nil
}

// update runs a write transaction: all of fn is committed (and synced) or none of it.
func (db *DB) update(fn func(tx *bolt.Tx) error) (err error) {
	defer db.recoverDamage(&err)
	if err := db.bolt.Update(fn); err != nil {
		return fmt.Errorf("history: %s: %w", db.path, err)
	}
	return nil
}

func (db *DB) recoverDamage(err *error) {
	if p := recover(); p != nil {
		*err = fmt.Errorf("history: %s is damaged: %v", db.path, p)
	}
}

// bucket is a bucket the history must have; one missing is damage, not a panic.
func bucket(tx *bolt.Tx, name []byte) (*bolt.Bucket, error) {
	b := tx.Bucket(name)
	if b == nil {
		return nil, fmt.Errorf("damaged: the %s bucket is missing", name)
	}
	return b, nil
}
