package source

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"gocv.io/x/gocv"
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

// A GStreamer pipeline standing in for the Camera Module (whose libcamerasrc pipeline differs
// only in its source element): its frames are read through OpenCV's GStreamer backend, at the
// size and in the colour the pipeline gives, until it ends.
func TestGStreamerPipeline(t *testing.T) {
	needVideotestsrc(t)
	src, err := Open("gst:videotestsrc num-buffers=5 pattern=solid-color foreground-color=0xffff0000 ! video/x-raw,width=320,height=240 ! videoconvert ! video/x-raw,format=BGR ! appsink")
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	m := gocv.NewMat()
	defer m.Close()
	for i := range 5 {
		if err := src.Read(&m); err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if px := m.GetVecbAt(120, 160); m.Cols() != 320 || m.Rows() != 240 || m.Channels() != 3 || px[0] > 5 || px[1] > 5 || px[2] < 250 {
			t.Fatalf("frame %d: %dx%d, %d channels, centre BGR %v; want 320x240 BGR red", i, m.Cols(), m.Rows(), m.Channels(), px)
		}
	}
	if err := src.Read(&m); !errors.Is(err, io.EOF) {
		t.Fatalf("after the pipeline's last buffer: %v", err)
	}
}

// A pipeline that cannot start, and the Camera Module where there is none (no libcamerasrc,
// or no camera behind it), are errors naming the camera, never a source of empty frames.
func TestGStreamerOpenErrors(t *testing.T) {
	needVideotestsrc(t)
	if _, err := Open("gst:nosuchelement ! appsink"); err == nil || !strings.Contains(err.Error(), "camera gst:nosuchelement ! appsink") {
		t.Errorf("a pipeline with no such element: %v", err)
	}
	if _, err := Open("libcamera"); err == nil || !strings.Contains(err.Error(), "camera libcamera") || !strings.Contains(err.Error(), "gstreamer1.0-libcamera") {
		t.Errorf("the Camera Module on a machine without one: %v", err)
	}
	if _, err := Open("usb"); err == nil || !strings.Contains(err.Error(), "not a camera") {
		t.Errorf("a mistyped camera: %v", err)
	}
}
