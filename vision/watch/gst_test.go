package watch

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/vision/source"
	"github.com/siamesetable/siamesed/vision/wire"
)

// needVideotestsrc skips without GStreamer's test source (gstreamer1.0-plugins-base), or fails
// when SIAMESED_REQUIRE_SYSTEM_TESTS is set (scripts/test.sh sets it and installs the package).
func needVideotestsrc(t *testing.T) {
	t.Helper()
	out, _ := exec.Command("dpkg-query", "-W", "-f=${Status}", "gstreamer1.0-plugins-base").Output()
	if strings.Contains(string(out), "install ok installed") {
		return
	}
	if os.Getenv("SIAMESED_REQUIRE_SYSTEM_TESTS") != "" {
		t.Fatal("GStreamer's videotestsrc is missing (apt-get install gstreamer1.0-plugins-base), and SIAMESED_REQUIRE_SYSTEM_TESTS is set")
	}
	t.Skip("GStreamer's videotestsrc is missing: apt-get install gstreamer1.0-plugins-base (scripts/test.sh does)")
}

// A GStreamer pipeline stands in for the Camera Module (camera: libcamera differs only in its
// source element): its frames, read through OpenCV's GStreamer backend, go through the watch
// loop. A still picture settles and is taken as the empty area, and the camera works; a
// picture of noise (snow) never settles; either way, when the pipeline ends the camera is said
// to have stopped, and it is opened again.
func TestCameraOnGStreamer(t *testing.T) {
	needVideotestsrc(t)
	for _, c := range []struct {
		pattern string
		want    []string
	}{
		{"solid-color foreground-color=0xff1e5f28", []string{"waiting for the empty discard area to hold still, to take it as the reference", "", "stopped giving frames"}},
		{"snow", []string{"waiting for the empty discard area to hold still, to take it as the reference", "stopped giving frames"}},
	} {
		t.Run(strings.Fields(c.pattern)[0], func(t *testing.T) {
			g := newRig(t, tile.Dot5)
			name := "gst:videotestsrc num-buffers=30 pattern=" + c.pattern + " ! video/x-raw,width=720,height=560 ! videoconvert ! video/x-raw,format=BGR ! appsink"
			spec, err := source.Parse(name)
			if err != nil {
				t.Fatal(err)
			}
			var opened atomic.Int32
			cam := g.start(g.config(name, spec.Live(), func() (source.Source, error) { opened.Add(1); return source.OpenSpec(spec) }, time.Hour, time.Hour))
			var got []string
			for _, l := range dedup(g.out.until(t, func(r wire.Reply) bool { return strings.Contains(r.Problem, "stopped") })) {
				got = append(got, strings.TrimPrefix(strings.TrimPrefix(l, "status "), "camera "+name+" "))
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("replies %q, want %q", got, c.want)
			}
			m := gocv.NewMat()
			defer m.Close()
			if _, ok := cam.Latest(&m); !ok || m.Cols() != 720 || m.Rows() != 560 {
				t.Errorf("the last frame: %v, %dx%d; want 720x560", ok, m.Cols(), m.Rows())
			}
			g.advanceUntil(time.Hour, func(r wire.Reply) bool { return !strings.Contains(r.Problem, "stopped") })
			if n := opened.Load(); n < 2 {
				t.Errorf("opened %d times: a live camera that stopped is opened again", n)
			}
		})
	}
}
