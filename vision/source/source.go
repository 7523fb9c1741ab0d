// Package source gives camera frames: a V4L2 camera or a video file through gocv.VideoCapture,
// or a folder of images. Synthetic frames come from synth.Script, which has the same method set.
package source

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gocv.io/x/gocv"
)

// Source yields BGR frames; Read returns io.EOF after the last one.
type Source interface {
	Read(dst *gocv.Mat) error
	Close() error
}

// Open opens spec: a folder of images, a camera index ("0" for /dev/video0), or a video file or
// stream URL that OpenCV can read.
func Open(spec string) (Source, error) {
	if st, err := os.Stat(spec); err == nil && st.IsDir() {
		return Folder(spec)
	}
	if n, err := strconv.Atoi(spec); err == nil {
		vc, err := gocv.VideoCaptureDevice(n)
		if err != nil {
			return nil, fmt.Errorf("source: camera %d: %w", n, err)
		}
		return &capture{vc: vc, name: "camera " + spec}, nil
	}
	if _, err := os.Stat(spec); err != nil && !strings.Contains(spec, "://") {
		return nil, fmt.Errorf("source: %w", err)
	}
	vc, err := gocv.VideoCaptureFile(spec)
	if err != nil {
		return nil, fmt.Errorf("source: %s: %w", spec, err)
	}
	return &capture{vc: vc, name: spec}, nil
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
