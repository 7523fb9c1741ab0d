// Package safefile writes what a user made so that a power cut cannot leave it half written:
// whole files are replaced atomically (temp file, fsync, rename, fsync the directory), and logs
// are appended record by record, each fsync'd before the write returns.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// WriteFile replaces path with data, or leaves the old file as it was: the data goes to a
// temporary file in the same directory, which is synced, renamed over path, and the directory
// synced so the rename itself survives a power cut.
func WriteFile(path string, data []byte, perm os.FileMode) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("safefile: %w", err)
	}
	defer func() {
		if err != nil {
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("safefile: writing %s: %w", path, err)
	}
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return fmt.Errorf("safefile: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("safefile: syncing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("safefile: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("safefile: %w", err)
	}
	return SyncDir(dir)
}

// SyncDir fsyncs a directory, so that files created, renamed or removed in it stay so.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("safefile: %w", err)
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("safefile: syncing directory %s: %w", dir, err)
	}
	return nil
}

// Appender appends records to a file, each synced to disk before Append returns.
type Appender struct {
	f    *os.File
	path string
	size int64
}

// OpenAppender opens path for appending, creating it (and syncing its directory) if need be.
// size is where writing starts: the file is cut there first, so a torn tail found by a reader
// is dropped before anything new is written after it. size < 0 keeps the file as it is.
func OpenAppender(path string, size int64) (*Appender, error) {
	_, statErr := os.Stat(path)
	created := errors.Is(statErr, os.ErrNotExist)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("safefile: %w", err)
	}
	a := &Appender{f: f, path: path}
	if size >= 0 {
		if err := f.Truncate(size); err != nil {
			f.Close()
			return nil, fmt.Errorf("safefile: cutting %s at %d: %w", path, size, err)
		}
	}
	if a.size, err = f.Seek(0, io.SeekEnd); err != nil {
		f.Close()
		return nil, fmt.Errorf("safefile: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return nil, fmt.Errorf("safefile: syncing %s: %w", path, err)
	}
	if created {
		if err := SyncDir(filepath.Dir(path)); err != nil {
			f.Close()
			return nil, err
		}
	}
	return a, nil
}

// Append writes one record and syncs it. On an error the file is cut back to where it was, so
// a failed record never leaves half of itself behind.
func (a *Appender) Append(rec []byte) error {
	if a.f == nil {
		return errors.New("safefile: append after close")
	}
	n, err := a.f.WriteAt(rec, a.size)
	if err == nil {
		err = a.f.Sync()
	}
	if err != nil {
		if n > 0 {
			a.f.Truncate(a.size) // best effort; the reader treats what is left as a torn tail
		}
		return fmt.Errorf("safefile: appending to %s: %w", a.path, err)
	}
	a.size += int64(n)
	return nil
}

// Size is how many bytes the file holds.
func (a *Appender) Size() int64 { return a.size }

// Close closes the file.
func (a *Appender) Close() error {
	if a.f == nil {
		return nil
	}
	err := a.f.Close()
	a.f = nil
	if err != nil {
		return fmt.Errorf("safefile: %w", err)
	}
	return nil
}
