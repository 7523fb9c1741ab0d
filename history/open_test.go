package history

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// TestOpenReadOnly: a reader never creates the history: a missing or empty file says no games
// are recorded yet, naming the directory; a reader cannot record.
func TestOpenReadOnly(t *testing.T) {
	dir := t.TempDir()
	_, err := Open(Path(dir), Options{ReadOnly: true})
	if !errors.Is(err, ErrNoHistory) || !strings.Contains(err.Error(), "no games recorded yet in "+dir) {
		t.Errorf("missing: %v", err)
	}
	if _, err := os.Stat(Path(dir)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a reader created %s", Path(dir))
	}
	if err := os.WriteFile(Path(dir), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(Path(dir), Options{ReadOnly: true}); !errors.Is(err, ErrNoHistory) {
		t.Errorf("empty: %v", err)
	}
	db, err := Open(Path(dir), Options{})
	if err != nil {
		t.Fatal(err)
	}
	mustRecord(t, db, rec("g1", "s", at(19, 0), four, 1, -1, 0, 0))
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	ro, err := Open(Path(dir), Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if _, err := ro.Record(rec("g2", "s", at(20, 0), four, 1, -1, 0, 0)); err == nil {
		t.Error("a reader recorded a game")
	}
	if list, err := ro.List(Filter{}); err != nil || len(list) != 1 {
		t.Errorf("after a failed record: %d games, %v", len(list), err)
	}
}

// TestOpenWhileLocked: while the daemon holds the history, a reader is told so within its
// timeout instead of hanging; readers share the file with each other.
func TestOpenWhileLocked(t *testing.T) {
	path := Path(t.TempDir())
	daemon, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = Open(path, Options{ReadOnly: true, Timeout: 50 * time.Millisecond})
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "stop the daemon") {
		t.Errorf("locked: %v", err)
	}
	if waited := time.Since(start); waited > 5*time.Second {
		t.Errorf("waited %v for a 50ms timeout", waited)
	}
	if err := daemon.Close(); err != nil {
		t.Fatal(err)
	}
	r1, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r1.Close()
	r2, err := Open(path, Options{ReadOnly: true, Timeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatalf("a second reader: %v", err)
	}
	r2.Close()
	if _, err := Open(path, Options{Timeout: 50 * time.Millisecond}); !errors.Is(err, ErrLocked) {
		t.Errorf("a writer while a reader reads: %v", err)
	}
}

// TestOpenRefusesOtherFiles: a file that is not a history is named in a clear error, whether
// opened to read or to write, and is left as it was.
func TestOpenRefusesOtherFiles(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.db")
	if err := os.WriteFile(garbage, []byte(strings.Repeat("not a database\n", 1000)), 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.db")
	b, err := bolt.Open(other, 0o644, nil)
	if err == nil {
		err = b.Update(func(tx *bolt.Tx) error { _, err := tx.CreateBucket([]byte("users")); return err })
	}
	if err = errors.Join(err, b.Close()); err != nil {
		t.Fatal(err)
	}
	newer := filepath.Join(dir, "newer.db")
	db, err := Open(newer, Options{})
	if err == nil {
		err = db.update(func(tx *bolt.Tx) error {
			return tx.Bucket(metaBucket).Put([]byte(formatKey), []byte("siamesed-history 2"))
		})
	}
	if err = errors.Join(err, db.Close()); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{garbage, "is not a siamesed history database"},
		{other, "not a siamesed history database: it holds other data"},
		{newer, "update siamesed"},
	} {
		for _, ro := range []bool{false, true} {
			before, err := os.ReadFile(c.path)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Open(c.path, Options{ReadOnly: ro})
			if c.path == other && ro {
				c.want = "not a siamesed history database: no format mark"
			}
			if err == nil || !strings.Contains(err.Error(), c.path) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s (read-only %v): %v, want %q", filepath.Base(c.path), ro, err, c.want)
			}
			if after, _ := os.ReadFile(c.path); string(after) != string(before) {
				t.Errorf("%s (read-only %v) was changed", filepath.Base(c.path), ro)
			}
		}
	}
}
