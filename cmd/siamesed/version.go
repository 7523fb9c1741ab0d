package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// version is the release, set by the build scripts (-ldflags "-X main.version=$(git describe)");
// a plain go build leaves it "dev".
var version = "dev"

func init() {
	register("version", "the program's version, Go version and platform: version [--json]", runVersion)
}

// versionInfo is what `siamesed version` reports: enough to tell which build runs on a Pi.
type versionInfo struct {
	Version  string `json:"version"`
	Revision string `json:"revision,omitempty"` // the commit, when the build recorded it
	Go       string `json:"go"`
	OS       string `json:"os"`
	Arch     string `json:"arch"`
}

func runVersion(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fl := newFlags("version", stderr)
	asJSON := fl.Bool("json", false, "print JSON")
	if err := parseFlags(fl, args); err != nil {
		return err
	}
	if fl.NArg() > 0 {
		return fmt.Errorf("%w: version takes no arguments", errUsage)
	}
	v := versionInfo{Version: version, Go: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				v.Revision = s.Value
			}
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	}
	rev := ""
	if v.Revision != "" {
		rev = " (" + v.Revision + ")"
	}
	_, err := fmt.Fprintf(stdout, "siamesed %s%s, %s, %s/%s\n", v.Version, rev, v.Go, v.OS, v.Arch)
	return err
}
