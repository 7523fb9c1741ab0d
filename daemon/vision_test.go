package daemon

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

// visionWorker builds siamesed-vision once for this test binary and returns its path. Without
// OpenCV's headers the test is skipped, unless SIAMESED_REQUIRE_SYSTEM_TESTS is set
// (scripts/test.sh, which installs them): then it fails.
func visionWorker(t testing.TB) string {
	t.Helper()
	if err := exec.Command("pkg-config", "--exists", "opencv4").Run(); err != nil {
		if os.Getenv("SIAMESED_REQUIRE_SYSTEM_TESTS") != "" {
			t.Fatalf("OpenCV's headers are missing (pkg-config opencv4: %v) and SIAMESED_REQUIRE_SYSTEM_TESTS is set: run scripts/test.sh, which installs libopencv-dev", err)
		}
		t.Skipf("OpenCV's headers are missing (pkg-config opencv4: %v; scripts/test.sh installs libopencv-dev): skipping the real vision pipeline", err)
	}
	worker.once.Do(func() {
		dir, err := os.MkdirTemp("", "siamesed-vision-")
		if err != nil {
			worker.err = err
			return
		}
		worker.path = filepath.Join(dir, "siamesed-vision")
		_, self, _, _ := runtime.Caller(0)
		cmd := exec.Command("go", "build", "-o", worker.path, "./cmd/siamesed-vision")
		cmd.Dir = filepath.Join(filepath.Dir(self), "..")
		if out, err := cmd.CombinedOutput(); err != nil {
			worker.err = &buildError{err, string(out)}
		}
	})
	if worker.err != nil {
		t.Fatal(worker.err)
	}
	return worker.path
}

var worker struct {
	once sync.Once
	path string
	err  error
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string {
	return "go build ./cmd/siamesed-vision: " + e.err.Error() + "\n" + e.out
}

// TestSimulatedGamesThroughTheVisionPipeline: camera: sim, whole games played by the virtual
// players, every discard rendered as camera frames and named by the real pipeline in a real
// siamesed-vision (5% of laid tiles catching the light, so the classifier cannot name them),
// players breaking a rule now and then; every game must be tracked exactly as played, every
// fault found.
func TestSimulatedGamesThroughTheVisionPipeline(t *testing.T) {
	n := 2
	if testing.Short() {
		n = 1
	}
	cfg := fastConfig(n, 0.01)
	cfg.Camera, cfg.Vision.Worker = "sim", visionWorker(t)
	r := runSim(t, cfg, t.TempDir())
	r.trackedExactly(t, n)
	if st := r.d.players.Stats(); st.Games != n || st.Exact != n {
		t.Errorf("soak: %s", st.String())
	}
}
