package daemon

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/siamesetable/siamesed/internal/visionproc/visiontest"
)

// TestMain lets this test binary serve as a fake camera worker (visiontest) for eyes_test.go,
// and removes the siamesed-vision that vision_test.go built.
func TestMain(m *testing.M) {
	visiontest.Main()
	code := m.Run()
	if worker.path != "" {
		os.RemoveAll(filepath.Dir(worker.path))
	}
	os.Exit(code)
}
