package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/siamesetable/siamesed/vision/classify"
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
	code, _, errs := run(t)
	if code != 0 || !strings.Contains(errs, "card match") {
		t.Errorf("no args: exit %d, stderr %q", code, errs)
	}
	code, _, errs = run(t, "frobnicate")
	if code != 2 || !strings.Contains(errs, `unknown command "frobnicate"`) {
		t.Errorf("unknown command: exit %d, stderr %q", code, errs)
	}
}

// TestMain lets this test binary serve as the child process that loads a model first.
func TestMain(m *testing.M) {
	classify.ServeProbe()
	os.Exit(m.Run())
}
