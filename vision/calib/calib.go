// Package calib warps camera frames to the top-down view of the discard area that a
// calibration gives: the four corners of the area in the camera image, warped to a view of a
// fixed size. The calibration and its YAML file are vision/area's (pure Go, so that the daemon
// saves them too); this package names them as before:
//
//	corners: [[102, 80], [538, 76], [560, 410], [88, 418]] # top-left, top-right, bottom-right, bottom-left
//	width: 640
//	height: 480
package calib

import "github.com/siamesetable/siamesed/vision/area"

// ErrInvalid marks a calibration that cannot give a warp.
var ErrInvalid = area.ErrInvalid

// Calibration maps the discard area in the camera image to a Width x Height top-down view.
type Calibration = area.Calibration

// Identity is the calibration of a camera that already looks straight down at a w x h area.
func Identity(w, h int) Calibration { return area.Identity(w, h) }

// Parse decodes and validates a calibration; name is used in errors.
func Parse(name string, data []byte) (Calibration, error) { return area.Parse(name, data) }

// Load reads a calibration file.
func Load(path string) (Calibration, error) { return area.Load(path) }
