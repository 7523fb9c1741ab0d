package source

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// errNoLibcamerasrc is returned for the Camera Module on a machine without libcamera's
// GStreamer element.
var errNoLibcamerasrc = errors.New("libcamerasrc, libcamera's GStreamer element, is not installed (apt-get install gstreamer1.0-libcamera; deploy/install.sh does)")

// libcamerasrcInstalled says whether libcamera's GStreamer plugin is in one of GStreamer's
// plugin folders. It is looked for before the pipeline is opened because OpenCV's GStreamer
// backend, given a pipeline with an element missing, waits for it forever instead of failing.
func libcamerasrcInstalled() bool {
	dirs := []string{"/usr/lib/*/gstreamer-1.0", "/usr/lib/gstreamer-1.0", "/usr/local/lib/*/gstreamer-1.0", "/usr/local/lib/gstreamer-1.0"}
	for _, env := range []string{"GST_PLUGIN_PATH_1_0", "GST_PLUGIN_PATH", "GST_PLUGIN_SYSTEM_PATH_1_0", "GST_PLUGIN_SYSTEM_PATH"} {
		for d := range strings.SplitSeq(os.Getenv(env), ":") {
			if d != "" {
				dirs = append(dirs, d)
			}
		}
	}
	for _, d := range dirs {
		if m, _ := filepath.Glob(filepath.Join(d, "libgstlibcamera.so")); len(m) > 0 {
			return true
		}
	}
	return false
}
