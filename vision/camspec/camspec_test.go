package camspec

import (
	"errors"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in       string
		kind     Kind
		index    int
		path     string
		pipeline string // a part of it
		live     bool
	}{
		{"/dev/video0", V4L2, -1, "/dev/video0", "", true},
		{"/dev/v4l/by-id/usb-046d_C920-video-index0", V4L2, -1, "/dev/v4l/by-id/usb-046d_C920-video-index0", "", true},
		{"0", V4L2, 0, "", "", true},
		{"2", V4L2, 2, "", "", true},
		{"libcamera", Libcamera, -1, "", "libcamerasrc ! video/x-raw,width=1280,height=720 ! videoconvert", true},
		{"libcamera:1640x1232", Libcamera, -1, "", "width=1640,height=1232", true},
		{"gst:videotestsrc ! videoconvert ! appsink", GStreamer, -1, "", "videotestsrc ! videoconvert ! appsink", true},
		{"gst: v4l2src device=/dev/video2 ! videoconvert ! appsink drop=true", GStreamer, -1, "", "v4l2src device=/dev/video2", true},
		{"game.mp4", Recording, -1, "game.mp4", "", false},
		{"frames/", Recording, -1, "frames/", "", false},
		{"/home/pi/session.mkv", Recording, -1, "/home/pi/session.mkv", "", false},
		{"rtsp://10.0.0.5/stream", Recording, -1, "rtsp://10.0.0.5/stream", "", false},
	} {
		s, err := Parse(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if s.Kind != c.kind || s.Index != c.index || s.Path != c.path || !strings.Contains(s.Pipeline, c.pipeline) || s.Live() != c.live || s.Text != c.in {
			t.Errorf("%q: %+v (live %v), want kind %d index %d path %q pipeline with %q live %v", c.in, s, s.Live(), c.kind, c.index, c.path, c.pipeline, c.live)
		}
		if c.pipeline == "" && s.Pipeline != "" {
			t.Errorf("%q: a pipeline %q", c.in, s.Pipeline)
		}
	}
}

// A mistyped camera is refused with what was wrong and what a camera may be.
func TestParseRefuses(t *testing.T) {
	for in, why := range map[string]string{
		"":                       "empty",
		" /dev/video0":           "spaces",
		"libcamera:720p":         `size "720p"`,
		"libcamera:":             `size ""`,
		"libcamera:100x100":      "from 160x120",
		"Libcamera":              "neither a device",
		"usb":                    "neither a device",
		"video0":                 "neither a device",
		"gst:":                   "must end in appsink",
		"gst:videotestsrc":       "must end in appsink",
		"gst:appsink ! fakesink": "must end in appsink",
		"gstreamer:videotestsrc": `"gstreamer:" is no kind of camera`,
		"libcam:1280x720":        `"libcam:" is no kind of camera`,
		"-1":                     "index -1",
		"64":                     "index 64",
	} {
		_, err := Parse(in)
		if !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), why) || !strings.Contains(err.Error(), "libcamera or libcamera:WIDTHxHEIGHT") {
			t.Errorf("%q: %v, want an ErrSpec saying %q and what a camera may be", in, err, why)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"/dev/video0", "0", "libcamera", "libcamera:640x480", "gst:videotestsrc ! appsink", "a.mp4", "x:y", "gst:!"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sp, err := Parse(s)
		if err != nil {
			if !errors.Is(err, ErrSpec) {
				t.Fatalf("%q: %v is not an ErrSpec", s, err)
			}
			return
		}
		if sp.Text != s || sp.Kind < V4L2 || sp.Kind > Recording {
			t.Fatalf("%q: %+v", s, sp)
		}
		if (sp.Kind == Libcamera || sp.Kind == GStreamer) != (sp.Pipeline != "") {
			t.Fatalf("%q: kind %d with pipeline %q", s, sp.Kind, sp.Pipeline)
		}
		if sp.Pipeline != "" && !strings.Contains(sp.Pipeline, "appsink") {
			t.Fatalf("%q: pipeline %q has no appsink", s, sp.Pipeline)
		}
	})
}
