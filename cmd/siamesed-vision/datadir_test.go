package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/siamesetable/siamesed/daemon"
	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/vision/labels"
)

// The camera tools write where `siamesed run` reads: their default files in the data directory
// are the daemon's defaults for vision.calibration and vision.enrolment.
func TestCameraDefaultsAreTheDaemons(t *testing.T) {
	d := daemon.Defaults().Vision
	if d.Calibration != defaultCalibration || d.Enrolment != defaultEnrolled {
		t.Fatalf("daemon reads %q and %q, the tools write %q and %q", d.Calibration, d.Enrolment, defaultCalibration, defaultEnrolled)
	}
}

// TestCameraToolsWriteTheDataDirectory: without --out, calibrate camera and enroll camera write
// into the data directory (--data, else $SIAMESED_DATA), never into the working directory or
// the repository.
func TestCameraToolsWriteTheDataDirectory(t *testing.T) {
	flagData, envData := t.TempDir(), t.TempDir()
	t.Setenv("SIAMESED_DATA", envData)
	corners := "10,10 600,12 610,470 5,460"
	code, out, errs := run(t, "calibrate", "camera", "--corners", corners, "--data", flagData)
	want := filepath.Join(flagData, "camera", "calibration.yaml")
	if _, err := os.Stat(want); code != 0 || err != nil || !strings.Contains(out, want) {
		t.Fatalf("calibrate camera --data: exit %d %s%s (%v)", code, out, errs, err)
	}
	code, out, errs = run(t, "calibrate", "camera", "--corners", corners)
	want = filepath.Join(envData, "camera", "calibration.yaml")
	if _, err := os.Stat(want); code != 0 || err != nil || !strings.Contains(out, want) {
		t.Fatalf("calibrate camera with $SIAMESED_DATA: exit %d %s%s (%v)", code, out, errs, err)
	}

	// A labelled folder of photos of every face a winds card needs: the enrolment folder is laid
	// out where the daemon looks.
	src := labelledPhotos(t, []tile.Face{tile.East, tile.South, tile.West, tile.North, tile.Joker}, nil)
	code, out, errs = run(t, "enroll", "camera", "--source", src, "--card", windsCard(t))
	if _, err := os.Stat(filepath.Join(envData, "camera", "enrolled", labels.ImageDir)); code != 0 || err != nil {
		t.Fatalf("enroll camera with $SIAMESED_DATA: exit %d %s%s (%v)", code, out, errs, err)
	}
}
