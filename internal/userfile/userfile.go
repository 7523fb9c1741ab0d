// Package userfile reads the files a user names (a card, a configuration, a hardware profile,
// a calibration, a vision model, a game log): regular files only, and never more than the cap
// their kind allows. A wrong path (/dev/zero, a FIFO, a folder, a 3 GB file) is then an error
// naming the file and what is wrong with it, found before anything is read into memory, not a
// process that reads until the kernel stops it.
package userfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrNotRegular is wrapped when the path is not a regular file.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooBig is wrapped when the file is larger than its kind may be.
var ErrTooBig = errors.New("too big")

// ReadFile reads the regular file at path, of at most max bytes; what names what the file is
// for errors ("a card", "a configuration").
func ReadFile(path, what string, max int64) ([]byte, error) {
	f, err := Open(path, what, max)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// Open opens the regular file at path for reading at most max bytes: a read that would go
// past max (the file grew since it was opened) fails with ErrTooBig.
func Open(path, what string, max int64) (io.ReadCloser, error) {
	// Checked before opening too: opening a named pipe would wait for a writer.
	st, err := os.Stat(path)
	if err != nil {
		return nil, err // *fs.PathError names the path
	}
	if err := check(path, what, st, max); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err = f.Stat() // what was opened, should the path have changed meanwhile
	if err == nil {
		err = check(path, what, st, max)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return &capped{f: f, path: path, what: what, max: max, left: max}, nil
}

func check(path, what string, st fs.FileInfo, max int64) error {
	if !st.Mode().IsRegular() {
		return &fs.PathError{Op: "read " + what, Path: path, Err: fmt.Errorf("%w (%s)", ErrNotRegular, kindOf(st.Mode()))}
	}
	if st.Size() > max {
		return &fs.PathError{Op: "read " + what, Path: path, Err: fmt.Errorf("%w: %d bytes, more than %s may be (%d)", ErrTooBig, st.Size(), what, max)}
	}
	return nil
}

// capped reads at most max bytes of a file.
type capped struct {
	f          *os.File
	path, what string
	max, left  int64
}

func (c *capped) Read(p []byte) (int, error) {
	if c.left <= 0 {
		var one [1]byte
		if n, _ := c.f.Read(one[:]); n > 0 {
			return 0, &fs.PathError{Op: "read " + c.what, Path: c.path, Err: fmt.Errorf("%w: more than %s may be (%d bytes)", ErrTooBig, c.what, c.max)}
		}
		return 0, io.EOF
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.f.Read(p)
	c.left -= int64(n)
	return n, err
}

func (c *capped) Close() error { return c.f.Close() }

// kindOf names what a path that is not a regular file is.
func kindOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a plain file: " + m.Type().String()
}
