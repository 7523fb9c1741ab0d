// Package shareddata finds the data the tests may use in ../shared/data, beside the repository
// (tile artwork, real tile photos). The data is never copied into the project: a test that needs
// it reads it in place and skips, saying where it looked, when it is absent.
package shareddata

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Root is ../shared/data from the repository root, found from this file's own path so that a
// test in any package gets the same folder.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "shared", "data")
}

// Dir returns Root()/sub after checking that probe exists in it; otherwise the test is skipped
// with the path it looked for.
func Dir(t testing.TB, sub, probe string) string {
	t.Helper()
	dir := filepath.Join(Root(), sub)
	if _, err := os.Stat(filepath.Join(dir, probe)); err != nil {
		t.Skipf("%s not found at %s (../shared/data beside the repository): %v", sub, dir, err)
	}
	return dir
}

// TileArt is the tile artwork's PNG folder (../shared/data/tile-art/png).
func TileArt(t testing.TB) string { return Dir(t, filepath.Join("tile-art", "png"), "Front.png") }

// Photos is the folder of real tile photos with labels.csv (../shared/data/photos-dev).
func Photos(t testing.TB) string { return Dir(t, "photos-dev", "labels.csv") }
