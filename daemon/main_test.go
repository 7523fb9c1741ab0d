package daemon

import (
	"os"
	"testing"

	"github.com/siamesetable/siamesed/internal/visionproc/visiontest"
)

// TestMain lets this test binary serve as a fake camera worker (visiontest) for eyes_test.go.
func TestMain(m *testing.M) {
	visiontest.Main()
	os.Exit(m.Run())
}
