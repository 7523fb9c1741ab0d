package deploy

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// buildDir holds the programs the tests build once for the whole package.
var buildDir string

func TestMain(m *testing.M) {
	var err error
	if buildDir, err = os.MkdirTemp("", "siamesed-deploy-test"); err != nil {
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(buildDir)
	os.Exit(code)
}

var (
	buildOnce sync.Once
	built     string
	buildErr  error
	buildOut  []byte
)

// buildSiamesed builds this machine's siamesed (pure Go) once and returns its path.
func buildSiamesed(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		built = filepath.Join(buildDir, "siamesed")
		cmd := exec.Command("go", "build", "-o", built, "../cmd/siamesed")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		buildOut, buildErr = cmd.CombinedOutput()
	})
	if buildErr != nil {
		t.Fatalf("go build ./cmd/siamesed: %v\n%s", buildErr, buildOut)
	}
	return built
}
