package area

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A calibration goes round the area clockwise as the camera sees it; the same corners the other
// way round are convex too, but mirror the view.
func TestClockwise(t *testing.T) {
	c := Calibration{Corners: [4][2]float64{{102, 80}, {538, 76}, {560, 410}, {88, 418}}, Width: 640, Height: 480}
	if err := c.Validate(); err != nil || !c.Clockwise() {
		t.Fatalf("the doc's corners: %v, clockwise %v", err, c.Clockwise())
	}
	m := c
	m.Corners[1], m.Corners[3] = c.Corners[3], c.Corners[1]
	if err := m.Validate(); err != nil || m.Clockwise() {
		t.Fatalf("mirrored: %v, clockwise %v", err, m.Clockwise())
	}
	x := c
	x.Corners[1], x.Corners[2] = c.Corners[2], c.Corners[1] // a bow tie
	if err := x.Validate(); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "convex") {
		t.Fatalf("crossed: %v", err)
	}
}

// Saved, the file reads back as written, in the format calibrate camera writes.
func TestSaveLoad(t *testing.T) {
	c := Calibration{Corners: [4][2]float64{{102, 80}, {538.5, 76}, {560, 410}, {88, 418}}, Width: 640, Height: 480}
	path := filepath.Join(t.TempDir(), "calibration.yaml")
	if err := c.Save(path); err != nil {
		t.Fatal(err)
	}
	back, err := Load(path)
	if err != nil || back != c {
		t.Fatalf("read back %+v (%v), want %+v", back, err, c)
	}
}

// The daemon imports this package: it must not bring OpenCV in.
func TestNoOpenCV(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Skipf("go list: %v: %s", err, out)
	}
	if len(out) == 0 {
		t.Fatal("go list printed nothing")
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "gocv.io/") || dep == "C" || dep == "runtime/cgo" {
			t.Errorf("area depends on %s", dep)
		}
	}
}
