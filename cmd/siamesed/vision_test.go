package main

import (
	"encoding/json"
	"fmt"
	"image"
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/internal/shareddata"
	"github.com/siamesetable/siamesed/vision/labels"
	"github.com/siamesetable/siamesed/vision/synth"
)

func sharedData(t *testing.T, sub, probe string) string { return shareddata.Dir(t, sub, probe) }

type evalLine struct {
	Accuracy float64 `json:"accuracy"`
	N        int     `json:"n"`
	MedianMS float64 `json:"median_ms"`
	P99MS    float64 `json:"p99_ms"`
}

func lastJSON(t *testing.T, out string) evalLine {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var r evalLine
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &r); err != nil {
		t.Fatalf("last line is not JSON: %v\n%s", err, out)
	}
	return r
}

func TestVisionEvalOnPhotosDevSplit(t *testing.T) {
	dir := sharedData(t, "photos-dev", "labels.csv")
	code, out, errs := run(t, "vision", "eval", "--enroll", dir, "--split", "0.5", "--seed", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	r := lastJSON(t, out)
	if r.N != 628 || r.Accuracy < 0.70 || r.MedianMS <= 0 || !strings.Contains(out, "most confused") {
		t.Errorf("got %+v; want n 628 (157 images x 4 rotations), accuracy >= 0.70 (measured 0.771)\n%s", r, out)
	}
}

// A synthetic camera session: calibrate, show three faces one at a time with a hand coming and
// going, then evaluate the enrolled crops against themselves.
func TestCalibrateEnrollEval(t *testing.T) {
	art, err := synth.LoadArt(sharedData(t, "tile-art", "png/Front.png") + "/png")
	if err != nil {
		t.Fatal(err)
	}
	defer art.Close()
	opts := synth.Options{Tilt: 0.06, Light: 0.2, Blur: 3, Noise: 3, Seed: 3}
	r, err := synth.NewRenderer(art, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	faces := []tile.Face{tile.Bam1, tile.Red, tile.Joker}
	steps := []synth.Step{{Frames: 4}}
	hand := &image.Point{X: 320, Y: 300}
	for i, f := range faces {
		p := synth.Placed{Face: f, Center: image.Pt(200+100*i, 200), Quarter: i}
		steps = append(steps, synth.Step{Scene: synth.Scene{Hand: hand}, Frames: 2},
			synth.Step{Scene: synth.Scene{Tiles: []synth.Placed{p}}, Frames: 5},
			synth.Step{Scene: synth.Scene{Hand: hand}, Frames: 1},
			synth.Step{Frames: 5})
	}
	frames := t.TempDir()
	script := synth.NewScript(r, steps...)
	m := gocv.NewMat()
	defer m.Close()
	for i := 0; script.Read(&m) == nil; i++ {
		gocv.IMWrite(filepath.Join(frames, fmt.Sprintf("%04d.png", i)), m)
	}

	dir := t.TempDir()
	cal := filepath.Join(dir, "camera.yaml")
	var corners []string
	for _, c := range r.Calibration().Corners {
		corners = append(corners, fmt.Sprintf("%g,%g", c[0], c[1]))
	}
	if code, _, errs := run(t, "calibrate", "camera", "--corners", strings.Join(corners, " "), "--size", "640x480", "--out", cal,
		"--image", filepath.Join(frames, "0000.png"), "--warped", filepath.Join(dir, "warped.png")); code != 0 {
		t.Fatalf("calibrate camera: exit %d: %s", code, errs)
	}
	set := filepath.Join(dir, "set")
	code, out, errs := run(t, "enroll", "camera", "--source", frames, "--calib", cal, "--out", set, "--faces", tile.Format(faces))
	if code != 0 || !strings.Contains(out, "enrolled 3 faces") {
		t.Fatalf("enroll camera: exit %d: %s%s", code, out, errs)
	}
	items, err := labels.Read(set)
	if err != nil || len(items) != 3 || items[2].Tile != tile.Joker {
		t.Fatalf("labels %+v, %v", items, err)
	}
	code, out, errs = run(t, "vision", "eval", "--enroll", set, "--test", set)
	if code != 0 {
		t.Fatalf("vision eval: exit %d: %s", code, errs)
	}
	if r := lastJSON(t, out); r.N != 12 || r.Accuracy != 1 {
		t.Errorf("eval of the enrolled crops against themselves: %+v", r)
	}
	// Too few frames: the source ends before the last face, and what was seen is kept.
	code, _, errs = run(t, "enroll", "camera", "--source", frames, "--calib", cal, "--out", filepath.Join(dir, "more"), "--faces", "1B RD J N")
	if code != 1 || !strings.Contains(errs, "after 3 of 4 faces") {
		t.Errorf("short source: exit %d: %s", code, errs)
	}
}

func TestVisionEvalSynthetic(t *testing.T) {
	dir := sharedData(t, "tile-art", "png/Front.png")
	code, out, errs := run(t, "vision", "eval", "--synthetic", filepath.Join(dir, "png"), "--frames", "3", "--tiles", "10")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if r := lastJSON(t, out); r.N != 30 || r.Accuracy < 0.95 {
		t.Errorf("got %+v, want 30 tiles, 95%% right\n%s", r, out)
	}
}

func TestVisionUsage(t *testing.T) {
	for _, args := range [][]string{
		{"vision", "eval"},
		{"vision", "eval", "--enroll", "x", "--test", "y", "--split", "0.5"},
		{"vision", "eval", "--synthetic", "art", "--enroll", "x"},
		{"calibrate", "camera", "--out", "x.yaml", "--corners", "1,2 3,4"},
		{"calibrate", "camera", "--out", "x.yaml", "--corners", "0,0 10,0 10,10 0,10", "--size", "big"},
		{"enroll", "camera", "--faces", "1B"},
		{"enroll", "camera", "--out", "x", "--faces", "ZZ"},
	} {
		if code, _, errs := run(t, args...); code != 2 {
			t.Errorf("%q: exit %d, want 2: %s", args, code, errs)
		}
	}
}

func FuzzParseCalibration(f *testing.F) {
	f.Add("10,10 630,12 620,470 5,460", "640x480")
	f.Add("0,0 1,1", "1x1")
	f.Fuzz(func(t *testing.T, corners, size string) {
		c, err := parseCalibration(corners, size)
		if err != nil {
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("accepted an invalid calibration: %v", err)
		}
	})
}
