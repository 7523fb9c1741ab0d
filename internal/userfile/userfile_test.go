package userfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestReadFileRefusesWhatIsNoFileOfItsKind(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.yaml")
	if err := os.WriteFile(small, []byte("table: t1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big") // 3 GB, sparse: nothing of it is read
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(3 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		want error
		says string
	}{
		{"/dev/zero", ErrNotRegular, "a character device"},
		{dir, ErrNotRegular, "a folder"},
		{fifo, ErrNotRegular, "a named pipe"}, // opening it would wait for a writer: it is never opened
		{big, ErrTooBig, "3221225472 bytes, more than a card may be (1048576)"},
		{filepath.Join(dir, "missing"), os.ErrNotExist, "no such file"},
	} {
		_, err := ReadFile(c.path, "a card", 1<<20)
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.path) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: %v, want %v naming the path and saying %q", c.path, err, c.want, c.says)
		}
	}
	b, err := ReadFile(small, "a configuration", 1<<20)
	if err != nil || string(b) != "table: t1\n" {
		t.Errorf("a small regular file: %q %v", b, err)
	}
	if _, err := ReadFile(small, "a configuration", 4); !errors.Is(err, ErrTooBig) {
		t.Errorf("a file over the cap: %v, want ErrTooBig", err)
	}
}

// TestOpenStopsAFileThatGrows: a file that grows past the cap after it was opened (a log
// someone appends to, /proc) fails at the cap instead of being read on.
func TestOpenStopsAFileThatGrows(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log")
	if err := os.WriteFile(path, []byte("12345678"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Open(path, "a game log", 8)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("more")
	f.Close()
	buf := make([]byte, 64)
	n, err := r.Read(buf)
	if n != 8 || err != nil {
		t.Fatalf("first read: %d %v", n, err)
	}
	if _, err := r.Read(buf); !errors.Is(err, ErrTooBig) {
		t.Errorf("read past the cap: %v, want ErrTooBig", err)
	}
}
