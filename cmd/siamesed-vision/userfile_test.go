package main

import (
	"strings"
	"testing"
)

// TestVisionModelRefusesWhatIsNoFile: a model that is /dev/zero or a folder is refused at
// once, naming it (before, /dev/zero was read until the process was killed).
func TestVisionModelRefusesWhatIsNoFile(t *testing.T) {
	for path, says := range map[string]string{"/dev/zero": "not a regular file (a character device)", t.TempDir(): "not a regular file (a folder)"} {
		code, out, errs := run(t, "vision", "model", "--model", path)
		if code == 0 || !strings.Contains(out+errs, path) || !strings.Contains(out+errs, says) {
			t.Errorf("--model %s: exit %d: %s%s; want it refused, saying %q", path, code, out, errs, says)
		}
	}
}
