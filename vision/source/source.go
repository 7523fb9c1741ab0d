// Package source gives camera frames: a V4L2 camera, the Raspberry Pi Camera Module or another
// GStreamer pipeline, or a video file through gocv.VideoCapture, or a folder of images. Synthetic frames come from synth.Script, which has the same method set.
package source

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/vision/camspec"
)

// Source yields BGR frames; Read returns io.EOF after the last one.
type Source interface {
	Read(dst *gocv.Mat) error
	Close() error
}

// Open opens spec, a camera setting (camspec.Parse): a USB camera (/dev/video0, or an index: 0
// for /dev/video0) through OpenCV's V4L2 backend; the Raspberry Pi Camera Module (libcamera) or
// any GStreamer pipeline ending in appsink (gst:PIPELINE) through OpenCV's GStreamer backend; a
// video file or stream URL; or a folder of images.
func Open(spec string) (Source, error) {
	sp, err := Parse(spec)
	if err != nil {
		return nil, err
	}
	return OpenSpec(sp)
}

// Parse reads a camera setting as camspec.Parse does, and takes a file or folder that exists,
// named without a dot or slash (frames), as a recording.
func Parse(spec string) (camspec.Spec, error) {
	sp, err := camspec.Parse(spec)
	if _, serr := os.Stat(spec); err != nil && serr == nil {
		return camspec.Spec{Kind: camspec.Recording, Text: spec, Index: -1, Path: spec}, nil
	}
	if err != nil {
		return camspec.Spec{}, fmt.Errorf("source: %w", err)
	}
	return sp, nil
}

// OpenSpec opens a parsed camera setting (see Open).
func OpenSpec(sp camspec.Spec) (Source, error) {
	var vc *gocv.VideoCapture
	var err error
	switch sp.Kind {
	case camspec.V4L2:
		if sp.Index >= 0 {
			vc, err = gocv.VideoCaptureDeviceWithAPI(sp.Index, gocv.VideoCaptureV4L2)
		} else {
			vc, err = gocv.VideoCaptureFileWithAPI(sp.Path, gocv.VideoCaptureV4L2)
		}
	case camspec.Libcamera, camspec.GStreamer:
		if sp.Kind == camspec.Libcamera && !libcamerasrcInstalled() {
			return nil, fmt.Errorf("source: camera %s: %w", sp.Text, errNoLibcamerasrc)
		}
		vc, err = gocv.VideoCaptureFileWithAPI(sp.Pipeline, gocv.VideoCaptureGstreamer)
		if err != nil && sp.Kind == camspec.Libcamera {
			err = fmt.Errorf("%w (is the Camera Module connected, enabled, and gstreamer1.0-libcamera installed? rpicam-hello --list-cameras lists what libcamera sees)", err)
		}
	default:
		if st, serr := os.Stat(sp.Path); serr == nil && st.IsDir() {
			return Folder(sp.Path)
		}
		if _, serr := os.Stat(sp.Path); serr != nil && !strings.Contains(sp.Path, "://") {
			return nil, fmt.Errorf("source: %w", serr)
		}
		vc, err = gocv.VideoCaptureFile(sp.Path)
	}
	if err != nil {
		return nil, fmt.Errorf("source: camera %s: %w", sp.Text, err)
	}
	return &capture{vc: vc, name: sp.Text}, nil
}

type capture struct {
	vc   *gocv.VideoCapture
	name string
}

func (c *capture) Read(dst *gocv.Mat) error {
	if !c.vc.Read(dst) || dst.Empty() {
		return io.EOF
	}
	return nil
}

func (c *capture) Close() error {
	if err := c.vc.Close(); err != nil {
		return fmt.Errorf("source: %s: %w", c.name, err)
	}
	return nil
}

// FolderSource reads the images of a folder in name order.
type FolderSource struct {
	paths []string
	next  int
}

// Folder lists dir's .png, .jpg and .jpeg files.
func Folder(dir string) (*FolderSource, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("source: %w", err)
	}
	f := &FolderSource{}
	for _, e := range ents {
		switch strings.ToLower(filepath.Ext(e.Name())) {
		case ".png", ".jpg", ".jpeg":
			f.paths = append(f.paths, filepath.Join(dir, e.Name()))
		}
	}
	slices.Sort(f.paths)
	if len(f.paths) == 0 {
		return nil, fmt.Errorf("source: %s: %w", dir, ErrNoImages)
	}
	return f, nil
}

// ErrNoImages is returned for a folder without images.
var ErrNoImages = errors.New("no images")

// Read reads the next image.
func (f *FolderSource) Read(dst *gocv.Mat) error {
	if f.next >= len(f.paths) {
		return io.EOF
	}
	p := f.paths[f.next]
	f.next++
	m, err := ReadImage(p)
	if err != nil {
		return fmt.Errorf("source: %w", err)
	}
	defer m.Close()
	m.CopyTo(dst)
	return nil
}

// Close does nothing: images are read one at a time.
func (f *FolderSource) Close() error { return nil }
