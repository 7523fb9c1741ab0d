// Package area is the discard area's calibration as a file: the four corners of the area in the
// camera image and the size of the top-down view they are warped to, saved as YAML:
//
//	corners: [[102, 80], [538, 76], [560, 410], [88, 418]] # top-left, top-right, bottom-right, bottom-left
//	width: 640
//	height: 480
//
// It is pure Go, so that the daemon (which links no OpenCV) checks and saves what the set-up
// page's owner clicked in the same format `siamesed calibrate camera` writes; vision/calib
// warps with it.
package area

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"os"

	"github.com/siamesetable/siamesed/internal/userfile"
	"github.com/siamesetable/siamesed/internal/yamlline"

	"gopkg.in/yaml.v3"
)

// ErrInvalid marks a calibration that cannot give a warp.
var ErrInvalid = errors.New("calib: invalid")

// Calibration maps the discard area in the camera image to a Width x Height top-down view.
type Calibration struct {
	// Corners of the discard area in camera pixels: top-left, top-right, bottom-right, bottom-left.
	Corners [4][2]float64 `yaml:"corners" json:"corners"`
	Width   int           `yaml:"width" json:"width"`
	Height  int           `yaml:"height" json:"height"`
}

// Identity is the calibration of a camera that already looks straight down at a w x h area.
func Identity(w, h int) Calibration {
	W, H := float64(w), float64(h)
	return Calibration{Corners: [4][2]float64{{0, 0}, {W, 0}, {W, H}, {0, H}}, Width: w, Height: h}
}

// Validate lists every problem at once.
func (c Calibration) Validate() error {
	var errs []error
	if c.Width < 16 || c.Width > 8192 {
		errs = append(errs, fmt.Errorf("%w: width %d not in 16..8192", ErrInvalid, c.Width))
	}
	if c.Height < 16 || c.Height > 8192 {
		errs = append(errs, fmt.Errorf("%w: height %d not in 16..8192", ErrInvalid, c.Height))
	}
	for i, p := range c.Corners {
		if p[0] < 0 || p[1] < 0 || p[0] > 1e5 || p[1] > 1e5 || p[0] != p[0] || p[1] != p[1] {
			errs = append(errs, fmt.Errorf("%w: corner %d (%v,%v) outside 0..100000", ErrInvalid, i, p[0], p[1]))
		}
	}
	if i, ok := c.convex(); !ok {
		errs = append(errs, fmt.Errorf("%w: corners do not form a convex quadrilateral (at corner %d)", ErrInvalid, i))
	}
	return errors.Join(errs...)
}

// convex says whether the corners go round a convex quadrilateral in one direction with some
// area; if not, at which corner they turn the other way (or do not turn).
func (c Calibration) convex() (int, bool) {
	var sign float64
	for i := range 4 {
		cross := c.turn(i)
		if cross*cross < 1 || (sign != 0 && (cross > 0) != (sign > 0)) {
			return (i + 1) % 4, false
		}
		sign = cross
	}
	return 0, true
}

// turn is the cross product of the edges into and out of corner i+1.
func (c Calibration) turn(i int) float64 {
	a, b, d := c.Corners[i], c.Corners[(i+1)%4], c.Corners[(i+2)%4]
	return (b[0]-a[0])*(d[1]-b[1]) - (b[1]-a[1])*(d[0]-b[0])
}

// Clockwise says whether the corners go round clockwise as the camera sees them (y down):
// top-left, top-right, bottom-right, bottom-left of a view that is not mirrored. A convex
// calibration that goes the other way gives a mirror image of the area, whose faces no
// enrolment recognises.
func (c Calibration) Clockwise() bool { return c.turn(0) > 0 }

// Parse decodes and validates a calibration; name is used in errors.
func Parse(name string, data []byte) (Calibration, error) {
	var c Calibration
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil {
		return Calibration{}, fmt.Errorf("calib: %s: %w", name, yamlline.Explain(data, err))
	}
	if err := c.Validate(); err != nil {
		return Calibration{}, fmt.Errorf("calib: %s: %w", name, err)
	}
	return c, nil
}

// Load reads a calibration file.
func Load(path string) (Calibration, error) {
	data, err := userfile.ReadFile(path, "a camera calibration", 1<<20)
	if err != nil {
		return Calibration{}, fmt.Errorf("calib: %w", err)
	}
	return Parse(path, data)
}

// Marshal encodes c as YAML.
func (c Calibration) Marshal() ([]byte, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	b, err := yaml.Marshal(c)
	if err != nil {
		return nil, fmt.Errorf("calib: %w", err)
	}
	return append([]byte("# siamesed calibration: corners top-left, top-right, bottom-right, bottom-left (camera pixels)\n"), b...), nil
}

// Save writes c to path.
func (c Calibration) Save(path string) error {
	b, err := c.Marshal()
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("calib: %w", err)
	}
	return nil
}

// Size is the size of the top-down view.
func (c Calibration) Size() image.Point { return image.Pt(c.Width, c.Height) }
