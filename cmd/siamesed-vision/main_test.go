package main

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/siamesetable/siamesed/vision/classify"
)

// run executes siamesed-vision in-process and returns its exit status, stdout and stderr.
func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := dispatch(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

// TestMain lets this test binary serve as the child process that loads a model first.
func TestMain(m *testing.M) {
	classify.ServeProbe()
	os.Exit(m.Run())
}
