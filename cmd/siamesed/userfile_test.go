package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFilesThatAreNoFilesAreRefused: a card, a configuration or a hardware profile that is
// /dev/zero, a folder or a 3 GB file is refused at once with its path and what is wrong with
// it, before anything is read (before, these read gigabytes until the process was killed).
func TestFilesThatAreNoFilesAreRefused(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.yaml")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(3 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	configs := 0
	config := func(field, value string) string {
		configs++
		p := filepath.Join(dir, fmt.Sprintf("config%d.yaml", configs))
		c := "camera: direct\nhttp: 127.0.0.1:0\nmqtt: {broker: none}\n" + field + ": " + value + "\n"
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	log := filepath.Join(dir, "game.jsonl")
	if err := os.WriteFile(log, []byte(`{"seat":0,"act":"draw","tiles":["1B"],"rack":1}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"card", "check", "/dev/zero"}, "/dev/zero: not a regular file (a character device)"},
		{[]string{"replay", "--card", "/dev/zero", log}, "/dev/zero: not a regular file (a character device)"},
		{[]string{"replay", "--card", big, log}, "more than a card may be"},
		{[]string{"replay", dir}, "not a regular file (a folder)"},
		{[]string{"run", "--data", dir, "--config", "/dev/zero"}, "/dev/zero: not a regular file"},
		{[]string{"run", "--data", dir, "--config", config("card", "/dev/zero")}, "/dev/zero: not a regular file"},
		{[]string{"run", "--data", dir, "--config", config("hardware", "/dev/zero")}, "/dev/zero: not a regular file"},
		{[]string{"run", "--data", dir, "--config", config("card", big)}, "more than"},
	} {
		code, _, stderr := run(t, c.args...)
		if code == 0 || !strings.Contains(stderr, c.says) {
			t.Errorf("siamesed %s: exit %d, %q; want an error saying %q", strings.Join(c.args, " "), code, stderr, c.says)
		}
	}
}

// TestReplayOfNoGameFails: an empty file is no game log: replay says so and fails.
func TestReplayOfNoGameFails(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty.jsonl")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := run(t, "replay", empty)
	if code == 0 || !strings.Contains(stderr, "no game in it: the file is empty") {
		t.Errorf("replay of an empty file: exit %d, out %q, err %q", code, stdout, stderr)
	}
}
