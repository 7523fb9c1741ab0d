package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/siamesetable/siamesed/internal/visionproc"
)

// The camera's commands live in siamesed-vision, the one binary that links OpenCV: siamesed
// itself starts without loading it (a card check or a replay starts in milliseconds), and an
// abort inside OpenCV ends the worker, never the daemon.
func init() {
	for name, summary := range map[string]string{
		"vision eval":      "measure the recogniser: vision eval --enroll DIR (--test DIR | --split 0.5) ... (siamesed-vision)",
		"vision split":     "print a crop folder's enrolment or test half as labels.csv (siamesed-vision)",
		"vision art":       "write each face as the synthetic frames draw it (siamesed-vision)",
		"vision model":     "check a tile model file as the recogniser loads it (siamesed-vision)",
		"vision watch":     "the daemon's camera worker: discard events as JSON lines (siamesed-vision)",
		"calibrate camera": "save the discard area's corners (siamesed-vision)",
		"enroll camera":    "enrol the table's own tiles for the camera (siamesed-vision)",
	} {
		words := strings.Fields(name)
		register(name, summary, func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
			return forwardVision(ctx, append(words, args...), stdout, stderr)
		})
	}
}

// forwardVision runs siamesed-vision with args, its output and exit status passed through.
func forwardVision(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	bin, err := visionproc.Find()
	if err != nil {
		return fmt.Errorf("the camera's commands are in %s: %w", visionproc.Binary, err)
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr
	err = cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exitCode{exit.ExitCode(), silent{}}
	}
	return err
}

// silent is an error already reported by the program that failed.
type silent struct{}

func (silent) Error() string { return "" }
