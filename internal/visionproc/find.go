// Package visionproc runs siamesed-vision, the one program of Siamese Table that links OpenCV:
// Find locates it (beside siamesed, else on PATH), and Start runs its camera worker (`vision
// watch`) and speaks the wire protocol with it. It is pure Go: siamesed starts without OpenCV,
// and an abort inside OpenCV ends the worker, never the daemon.
package visionproc

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// Binary names the OpenCV half of siamesed.
const Binary = "siamesed-vision"

// ErrNotFound is returned when siamesed-vision is neither beside siamesed nor on PATH.
var ErrNotFound = errors.New(Binary + " is not beside siamesed nor on PATH: build it with scripts/build.sh (it needs OpenCV)")

// Find finds siamesed-vision beside the running program, else on PATH.
func Find() (string, error) {
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), Binary)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
	}
	p, err := exec.LookPath(Binary)
	if err != nil {
		return "", fmt.Errorf("visionproc: %w", ErrNotFound)
	}
	return p, nil
}
