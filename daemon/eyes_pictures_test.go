package daemon

import (
	"log/slog"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/internal/clock"
	"github.com/siamesetable/siamesed/internal/visionproc"
	"github.com/siamesetable/siamesed/internal/visionproc/visiontest"
	"github.com/siamesetable/siamesed/vision/wire"
)

// liveFakeEyes runs the fake worker in mode, not in a soak, counting its starts.
func liveFakeEyes(t *testing.T, mode string) (*visionEyes, *atomic.Int32) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(visiontest.Env, mode)
	var starts atomic.Int32
	start := func() (*visionproc.Proc, error) { starts.Add(1); return visionproc.Start(self, nil, 5*time.Second) }
	e, err := newVisionEyes(start, clock.NewFake(eyesT0), slog.New(slog.DiscardHandler), false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.close() })
	return e, &starts
}

// A real camera's worker reads its calibration as it starts: the camera section's reload starts
// it again at once, and pictures come from the new one. The simulated camera keeps its own
// corners and is not started again.
func TestCameraReloadStartsARealCamerasWorkerAgain(t *testing.T) {
	for _, c := range []struct {
		mode   string
		starts int32
		says   string
	}{{"camera", 2, "started again"}, {"sim", 1, "simulated camera"}} {
		e, starts := liveFakeEyes(t, c.mode)
		cam := setupCamera{e}
		if p, err := cam.Snapshot(); err != nil || p.Width != visiontest.Picture.Width {
			t.Fatalf("%s: snapshot %+v %v", c.mode, p, err)
		}
		said, err := cam.Reload()
		if err != nil || !strings.Contains(said, c.says) || starts.Load() != c.starts {
			t.Fatalf("%s: reload said %q (%v) after %d starts, want %q after %d", c.mode, said, err, starts.Load(), c.says, c.starts)
		}
		if p, err := cam.Snapshot(); err != nil || p.Height != visiontest.Picture.Height {
			t.Fatalf("%s: snapshot after the reload %+v %v", c.mode, p, err)
		}
	}
}

// A picture asked of a worker that dies is an error at once, saying so, not a wait to the end.
func TestCameraPictureFromAWorkerThatStops(t *testing.T) {
	e, _ := liveFakeEyes(t, "crash:0")
	begun := time.Now()
	_, err := e.picture(wire.Request{Op: wire.OpSnapshot}, time.Minute)
	if err == nil || !strings.Contains(err.Error(), "stopped") || time.Since(begun) > 30*time.Second {
		t.Fatalf("%v after %v", err, time.Since(begun))
	}
}
