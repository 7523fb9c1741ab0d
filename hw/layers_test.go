// Package hw_test keeps the hardware layer below the game: hw/ may use engine/tile (faces and
// sets) but not the rules engine, vision, MQTT or the commands, so the simulated table and the
// drivers build and test without them.
package hw_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var forbidden = []string{
	"github.com/siamesetable/siamesed/engine/game", "github.com/siamesetable/siamesed/engine/card",
	"github.com/siamesetable/siamesed/engine/track", "github.com/siamesetable/siamesed/vision",
	"github.com/siamesetable/siamesed/mqtt", "github.com/siamesetable/siamesed/cmd", "gocv.io/",
}

func TestHWImportsNoGameOrVision(t *testing.T) {
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			for _, bad := range forbidden {
				if p == bad || strings.HasPrefix(p, strings.TrimSuffix(bad, "/")+"/") {
					t.Errorf("%s imports %s: hw/ stays below the game and vision", path, p)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 40 {
		t.Fatalf("checked only %d files", checked)
	}
}
