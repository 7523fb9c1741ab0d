package main

import (
	"image"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/daemon"
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

	// A labelled folder of one photo (a plain green cloth: no tile in it, so nothing is
	// enrolled, but the enrolment folder is laid out where the daemon looks).
	src := t.TempDir()
	os.MkdirAll(filepath.Join(src, labels.ImageDir), 0o755)
	m := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(30, 110, 40, 0), 120, 160, gocv.MatTypeCV8UC3)
	defer m.Close()
	gocv.Rectangle(&m, image.Rect(60, 40, 96, 88), color.RGBA{240, 240, 230, 0}, -1)
	if !gocv.IMWrite(filepath.Join(src, labels.ImageDir, "p.png"), m) {
		t.Fatal("cannot write a photo")
	}
	os.WriteFile(filepath.Join(src, labels.FileName), []byte("image,tile\np.png,J\n"), 0o644)
	code, out, errs = run(t, "enroll", "camera", "--source", src, "--faces", "J")
	if _, err := os.Stat(filepath.Join(envData, "camera", "enrolled", labels.ImageDir)); code != 0 || err != nil {
		t.Fatalf("enroll camera with $SIAMESED_DATA: exit %d %s%s (%v)", code, out, errs, err)
	}
}
