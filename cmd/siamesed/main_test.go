package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// run executes siamesed in-process and returns its exit status, stdout and stderr.
func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := dispatch(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

// golden compares got with testdata/NAME, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/siamesed -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (run with -update if the change is intended):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

func TestUsage(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"no command: the list, a usage mistake", nil, 2, "", "card match"},
		{"help on stdout", []string{"help"}, 0, "replay", ""},
		{"a group lists its commands", []string{"card"}, 0, "card advise", ""},
		{"help for a command shows its flags", []string{"help", "card", "away"}, 0, "--dead TILES", ""},
		{"unknown command", []string{"frobnicate"}, 2, "", `unknown command "frobnicate"`},
		{"unknown flag of an hw command names its usage", []string{"hw", "scan", "--frob"}, 2, "", "usage: siamesed hw scan [flags]"},
		{"hw commands refuse arguments", []string{"hw", "scan", "extra"}, 2, "", `unexpected argument "extra"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := run(t, tc.args...)
			if code != tc.code || !strings.Contains(out, tc.stdout) || !strings.Contains(errs, tc.stderr) {
				t.Errorf("exit %d (want %d)\nstdout %q (want %q)\nstderr %q (want %q)", code, tc.code, out, tc.stdout, errs, tc.stderr)
			}
		})
	}
}
