package enrol

import (
	"os"
	"testing"

	"github.com/siamesetable/siamesed/vision/classify"
)

// TestMain lets this test binary serve as the child process that loads a model first.
func TestMain(m *testing.M) {
	classify.ServeProbe()
	os.Exit(m.Run())
}
