package main

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"
)

func TestVersion(t *testing.T) {
	code, out, errs := run(t, "version")
	if code != 0 || !strings.HasPrefix(out, "siamesed dev") || !strings.Contains(out, runtime.GOOS+"/"+runtime.GOARCH) {
		t.Fatalf("exit %d %s: %q", code, errs, out)
	}
	code, out, _ = run(t, "version", "--json")
	var v versionInfo
	if code != 0 || json.Unmarshal([]byte(out), &v) != nil || v.Arch != runtime.GOARCH || v.Go != runtime.Version() {
		t.Fatalf("exit %d: %s", code, out)
	}
	if code, _, _ := run(t, "version", "extra"); code != 2 {
		t.Errorf("version extra: exit %d, want 2", code)
	}
}
