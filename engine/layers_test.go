// Package engine_test keeps the rules engine pure: no hardware, vision, network or file I/O in
// engine/ (tests may read fixtures), so the rules build and test anywhere, cgo or not.
package engine_test

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
	"os", "os/exec", "net", "net/http", "syscall", "unsafe", "C", "io/ioutil", "path/filepath",
	"periph.io/", "gocv.io/", "github.com/eclipse/paho", "github.com/mochi-mqtt",
	"github.com/siamesetable/siamesed/hw", "github.com/siamesetable/siamesed/vision",
	"github.com/siamesetable/siamesed/mqtt", "github.com/siamesetable/siamesed/cmd",
}

func TestEngineImportsNothingImpure(t *testing.T) {
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
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
				if p == bad || (strings.HasSuffix(bad, "/") && strings.HasPrefix(p, bad)) || strings.HasPrefix(p, bad+"/") || (strings.Contains(bad, ".") && strings.HasPrefix(p, bad)) {
					t.Errorf("%s imports %s: engine/ must stay pure", path, p)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 10 {
		t.Fatalf("checked only %d files", checked)
	}
}
