// Package camspec reads the camera a `camera:` setting or a `--source` flag names, without
// OpenCV, so that the daemon (which never links OpenCV) refuses a mistyped camera when it reads
// its configuration, and the camera worker (vision/source) opens the very camera it names.
package camspec

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Kind is how frames are read.
type Kind int

// The kinds of camera.
const (
	// V4L2 is a USB (UVC) camera: a /dev path (/dev/video0, /dev/v4l/by-id/...) or an index
	// (0 for /dev/video0), read by OpenCV's V4L2 backend.
	V4L2 Kind = iota + 1
	// Libcamera is the Raspberry Pi Camera Module, read through libcamera's GStreamer element
	// (libcamerasrc) by OpenCV's GStreamer backend.
	Libcamera
	// GStreamer is any GStreamer pipeline ending in an appsink, read by OpenCV's GStreamer backend.
	GStreamer
	// Recording is a video file or URL, or a folder of frames: it ends, and is not a camera.
	Recording
)

// LibcameraSize is the frame size asked of the Camera Module when the setting names none:
// 1280x720 covers a 60 cm discard area at about 2 pixels a millimetre, and every Camera Module
// (v1.3, v2, v3, HQ) has a sensor mode that scales to it.
const LibcameraSize = "1280x720"

// Spec is a parsed camera setting.
type Spec struct {
	Kind Kind
	// Text is the setting as written.
	Text string
	// Index is a V4L2 camera's index (-1 for a /dev path, in Path).
	Index int
	// Path is a V4L2 device path, a recording's file, URL or folder.
	Path string
	// Pipeline is the GStreamer pipeline (Libcamera and GStreamer).
	Pipeline string
}

// ErrSpec marks a camera setting that names no camera.
var ErrSpec = errors.New("not a camera")

// Want says what a camera setting may be, for error messages.
const Want = "want /dev/video0 (a USB camera, or another /dev path), libcamera or libcamera:WIDTHxHEIGHT (the Raspberry Pi Camera Module), gst:PIPELINE ending in appsink, a camera index, or a video file or folder of frames"

// Parse reads a camera setting. It never touches the file system: whether a device or file
// exists is found when it is opened.
func Parse(s string) (Spec, error) {
	sp := Spec{Text: s, Index: -1}
	bad := func(format string, a ...any) (Spec, error) {
		return Spec{}, fmt.Errorf("%w: camera %q: %s (%s)", ErrSpec, s, fmt.Sprintf(format, a...), Want)
	}
	switch {
	case strings.TrimSpace(s) != s || s == "":
		return bad("empty, or spaces around it")
	case s == "libcamera" || strings.HasPrefix(s, "libcamera:"):
		size := LibcameraSize
		if rest, ok := strings.CutPrefix(s, "libcamera:"); ok {
			size = rest
		}
		w, h, err := parseSize(size)
		if err != nil {
			return bad("%v", err)
		}
		sp.Kind, sp.Pipeline = Libcamera, LibcameraPipeline(w, h)
	case strings.HasPrefix(s, "gst:"):
		p := strings.TrimSpace(strings.TrimPrefix(s, "gst:"))
		last := p[strings.LastIndex(p, "!")+1:]
		if f := strings.Fields(last); len(f) == 0 || f[0] != "appsink" {
			return bad("a GStreamer pipeline must end in appsink, where OpenCV takes the frames")
		}
		sp.Kind, sp.Pipeline = GStreamer, p
	case strings.HasPrefix(s, "/dev/"):
		sp.Kind, sp.Path = V4L2, s
	default:
		if n, err := strconv.Atoi(s); err == nil {
			if n < 0 || n > 63 {
				return bad("camera index %d: want 0 to 63", n)
			}
			sp.Kind, sp.Index = V4L2, n
			break
		}
		scheme, _, ok := strings.Cut(s, ":")
		if ok && !strings.Contains(s, "://") && !strings.ContainsAny(scheme, "/.") {
			return bad("%q is no kind of camera", scheme+":")
		}
		if !strings.ContainsAny(s, "/.") {
			return bad("neither a device, a camera kind nor a file (name a file with its extension or folder: ./frames)")
		}
		sp.Kind, sp.Path = Recording, s
	}
	return sp, nil
}

// Live says whether frames that stop may come back (a camera, opened again), rather than a
// recording that has ended.
func (s Spec) Live() bool { return s.Kind != Recording }

// LibcameraPipeline is the pipeline the Camera Module is read through: libcamerasrc asked for
// w x h frames, converted to the BGR that OpenCV works in, into an appsink that keeps only the
// newest frame, so a slow reader sees the table as it is now, not as it was.
func LibcameraPipeline(w, h int) string {
	return fmt.Sprintf("libcamerasrc ! video/x-raw,width=%d,height=%d ! videoconvert ! video/x-raw,format=BGR ! appsink drop=true max-buffers=1 sync=false", w, h)
}

func parseSize(s string) (w, h int, err error) {
	ws, hs, ok := strings.Cut(s, "x")
	w, errW := strconv.Atoi(ws)
	h, errH := strconv.Atoi(hs)
	if !ok || errW != nil || errH != nil || w < 160 || h < 120 || w > 4096 || h > 3072 {
		return 0, 0, fmt.Errorf("size %q: want WIDTHxHEIGHT, from 160x120 to 4096x3072", s)
	}
	return w, h, nil
}
