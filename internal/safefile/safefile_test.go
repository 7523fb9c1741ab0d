package safefile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteFileReplacesWholly(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "tags.yaml")
	if err := WriteFile(p, []byte("one\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(p, []byte("two\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(p)
	if err != nil || string(got) != "two\n" {
		t.Fatalf("read %q, %v", got, err)
	}
	st, _ := os.Stat(p)
	if st.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640", st.Mode().Perm())
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Fatalf("left %d files behind, want only tags.yaml", len(ents))
	}
}

func TestWriteFileLeavesTheOldFileOnFailure(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "cal.yaml")
	if err := WriteFile(p, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A directory in the way of the rename: the write fails and the old file stays.
	if err := WriteFile(filepath.Join(dir, "missing", "x.yaml"), []byte("new"), 0o644); err == nil {
		t.Fatal("wrote into a missing directory")
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(sub, []byte("new"), 0o644); err == nil {
		t.Fatal("replaced a directory")
	}
	if got, _ := os.ReadFile(p); string(got) != "old\n" {
		t.Fatalf("old file now %q", got)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

func TestAppenderAppendsAndCutsATornTail(t *testing.T) {
	p := filepath.Join(t.TempDir(), "game.jsonl")
	a, err := OpenAppender(p, -1)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range []string{"a\n", "bb\n"} {
		if err := a.Append([]byte(rec)); err != nil {
			t.Fatal(err)
		}
	}
	if a.Size() != 5 {
		t.Fatalf("size %d, want 5", a.Size())
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if err := a.Append([]byte("x")); err == nil {
		t.Fatal("append after close accepted")
	}
	// A torn tail written by a crash: reopening at the last good offset cuts it.
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"half`)
	f.Close()
	a, err = OpenAppender(p, 5)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Append([]byte("c\n")); err != nil {
		t.Fatal(err)
	}
	a.Close()
	if got, _ := os.ReadFile(p); string(got) != "a\nbb\nc\n" {
		t.Fatalf("file %q, want the torn tail cut", got)
	}
}
