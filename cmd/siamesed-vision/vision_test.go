package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/internal/shareddata"
	"github.com/siamesetable/siamesed/vision/classify"
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
	for _, c := range []struct {
		model string
		floor float64 // measured: network 0.988, features 0.762
	}{{"", 0.975}, {"features", 0.70}} {
		code, out, errs := run(t, "vision", "eval", "--enroll", dir, "--split", "0.5", "--seed", "1", "--model", c.model,
			"--exclude", filepath.Join("..", "..", "vision", "classify", "train", "train-photos.csv"))
		if code != 0 {
			t.Fatalf("--model %q: exit %d: %s", c.model, code, errs)
		}
		r := lastJSON(t, out)
		if r.N != 336 || r.Accuracy < c.floor || r.MedianMS <= 0 || !strings.Contains(out, "most confused") {
			t.Errorf("--model %q: got %+v; want n 336 (84 images x 4 rotations), accuracy >= %.2f\n%s", c.model, r, c.floor, out)
		}
	}
}

// --seeds runs one split a seed with the same model and prints the spread.
func TestVisionEvalSeeds(t *testing.T) {
	dir := sharedData(t, "photos-dev", "labels.csv")
	code, out, errs := run(t, "vision", "eval", "--enroll", dir, "--split", "0.5", "--seeds", "1,2",
		"--exclude", filepath.Join("..", "..", "vision", "classify", "train", "train-photos.csv"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var lines []struct {
		Seed     int     `json:"seed"`
		Accuracy float64 `json:"accuracy"`
		Images   int     `json:"images"`
	}
	all := strings.Split(strings.TrimSpace(out), "\n")
	if err := json.Unmarshal([]byte(all[len(all)-1]), &lines); err != nil {
		t.Fatalf("last line: %v\n%s", err, out)
	}
	if len(lines) != 2 || lines[0].Seed != 1 || lines[1].Seed != 2 || lines[0].Images != 84 || !strings.Contains(out, "top-1 over 2 seeds: mean") {
		t.Errorf("got %+v\n%s", lines, out)
	}
}

// A bad model file is refused with its name, before OpenCV could abort the process on it.
func TestVisionEvalBadModel(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.onnx")
	if err := os.WriteFile(bad, []byte("\x08\x07\x3a\xff\xff\x01 not a model"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errs := run(t, "vision", "eval", "--enroll", "x", "--test", "y", "--model", bad)
	if code != 1 || !strings.Contains(errs, bad) || !strings.Contains(errs, "bad model") {
		t.Errorf("exit %d, want 1 and an error naming %s: %s", code, bad, errs)
	}
}

// vision split prints the two halves vision eval uses: together every crop once.
func TestVisionSplit(t *testing.T) {
	dir := sharedData(t, "photos-dev", "labels.csv")
	var halves [2][]labels.Item
	for i, args := range [][]string{{}, {"--test"}} {
		code, out, errs := run(t, append([]string{"vision", "split", "--dir", dir, "--seed", "1"}, args...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		items, err := labels.Parse("stdout", strings.NewReader(out))
		if err != nil {
			t.Fatal(err)
		}
		halves[i] = items
	}
	all, err := labels.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, it := range append(halves[0], halves[1]...) {
		if seen[it.Image] {
			t.Errorf("%s in both halves", it.Image)
		}
		seen[it.Image] = true
	}
	if len(halves[0]) != 161 || len(seen) != len(all) {
		t.Errorf("enrolment half %d (want 161), %d of %d crops in all", len(halves[0]), len(seen), len(all))
	}
}

func TestVisionArt(t *testing.T) {
	dir := sharedData(t, "tile-art", "png/Front.png")
	out := t.TempDir()
	if code, _, errs := run(t, "vision", "art", "--art", filepath.Join(dir, "png"), "--out", out); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, f := range []tile.Face{tile.Bam1, tile.White, tile.Joker} {
		m := gocv.IMRead(filepath.Join(out, f.String()+".png"), gocv.IMReadColor)
		if m.Cols() != synth.ArtW || m.Rows() != synth.ArtH {
			t.Errorf("%v: %dx%d, want %dx%d", f, m.Cols(), m.Rows(), synth.ArtW, synth.ArtH)
		}
		m.Close()
	}
}

// The faces built into the simulated camera are what `vision art --size 60x80` makes of the
// artwork now (vision/synth/art/README.md says how to regenerate them).
func TestEmbeddedArtIsUpToDate(t *testing.T) {
	dir := sharedData(t, "tile-art", "png/Front.png")
	out := t.TempDir()
	if code, _, errs := run(t, "vision", "art", "--art", filepath.Join(dir, "png"), "--out", out, "--size", "60x80"); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for f := range tile.Face(tile.NumFaces) {
		built, err := fs.ReadFile(synth.EmbeddedFS(), f.String()+".png")
		if err != nil {
			t.Fatal(err)
		}
		a, err := gocv.IMDecode(built, gocv.IMReadColor)
		if err != nil {
			t.Fatal(err)
		}
		b := gocv.IMRead(filepath.Join(out, f.String()+".png"), gocv.IMReadColor)
		diff := gocv.NewMat()
		gocv.AbsDiff(a, b, &diff)
		if a.Cols() != synth.EmbeddedW || a.Rows() != synth.EmbeddedH || b.Cols() != a.Cols() || b.Rows() != a.Rows() {
			t.Errorf("%v: built in %dx%d, made now %dx%d", f, a.Cols(), a.Rows(), b.Cols(), b.Rows())
		} else if n := gocv.CountNonZero(diff.Reshape(1, 0)); n > 0 {
			t.Errorf("%v: %d values differ from what the artwork gives now: regenerate vision/synth/art", f, n)
		}
		a.Close()
		b.Close()
		diff.Close()
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
	// a card of dragons and flowers: the table must enrol RD, GD, WD, F and J
	card := filepath.Join(t.TempDir(), "dragons.yaml")
	if err := os.WriteFile(card, []byte("name: Dragons\nyear: 2026\nhands:\n  - {section: Dragons, pattern: \"FFFF RRRR GGGG 00\", value: 25}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	faces := []tile.Face{tile.Red, tile.Green, tile.White, tile.Flower, tile.Joker}
	steps := []synth.Step{{Frames: 4}}
	hand := &image.Point{X: 320, Y: 300}
	for i, f := range faces {
		p := synth.Placed{Face: f, Center: image.Pt(120+100*i, 200), Quarter: i}
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
	code, out, errs := run(t, "enroll", "camera", "--source", frames, "--calib", cal, "--out", set, "--card", card, "--faces", tile.Format(faces))
	if code != 0 || !strings.Contains(out, "enrolled 5 faces") {
		t.Fatalf("enroll camera: exit %d: %s%s", code, out, errs)
	}
	items, err := labels.Read(set)
	if err != nil || len(items) != 5 || items[4].Tile != tile.Joker {
		t.Fatalf("labels %+v, %v", items, err)
	}
	code, out, errs = run(t, "vision", "eval", "--enroll", set, "--test", set)
	if code != 0 {
		t.Fatalf("vision eval: exit %d: %s", code, errs)
	}
	if r := lastJSON(t, out); r.N != 20 || r.Accuracy != 1 {
		t.Errorf("eval of the enrolled crops against themselves: %+v", r)
	}
	// Too few frames: the source ends before the last face, and what was seen is kept.
	code, _, errs = run(t, "enroll", "camera", "--source", frames, "--calib", cal, "--out", filepath.Join(dir, "more"), "--card", card, "--faces", "RD GD WD F J N")
	if code != 1 || !strings.Contains(errs, "after 5 of 6 faces") {
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
		{"vision", "eval", "--enroll", "x", "--split", "0.5", "--views", "1,big"},
		{"vision", "eval", "--enroll", "x", "--split", "0.5", "--enroll-views", "1/0.6/0"},
		{"vision", "split", "--split", "0.5"},
		{"vision", "split", "--dir", "x", "--split", "1"},
		{"vision", "art", "--art", "x"},
		{"calibrate", "camera", "--out", "x.yaml", "--corners", "1,2 3,4"},
		{"calibrate", "camera", "--out", "x.yaml", "--corners", "0,0 10,0 10,10 0,10", "--size", "big"},
		{"enroll", "camera", "--faces", "1B", "extra"},
		{"enroll", "camera", "--out", "x", "--faces", "ZZ"},
		{"vision", "watch"},
		{"vision", "watch", "--sim", "--source", "0"},
		{"vision", "watch", "--sim", "--unknown", "2"},
		{"vision", "watch", "--source", "0"},
		{"vision", "watch", "--source", "0", "--calib", "c.yaml"},
		{"vision", "watch", "--sim", "extra"},
	} {
		if code, _, errs := run(t, args...); code != 2 {
			t.Errorf("%q: exit %d, want 2: %s", args, code, errs)
		}
	}
}

func TestParseViews(t *testing.T) {
	got, err := parseViews("1, 0.9,1.08/0.03/-0.03")
	want := []classify.View{{Zoom: 1}, {Zoom: 0.9}, {Zoom: 1.08, DX: 0.03, DY: -0.03}}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("got %v, %v; want %v", got, err, want)
	}
	for _, bad := range []string{"", "1,", "x", "1/0.1", "1/0.1/0.1/0", "3", "1/0.5/0", "NaN", "1/NaN/0"} {
		if v, err := parseViews(bad); !errors.Is(err, errUsage) {
			t.Errorf("%q: got %v, %v; want a usage error", bad, v, err)
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

func FuzzParseViews(f *testing.F) {
	f.Add("1,0.9,1.08/0.03/-0.03")
	f.Add("0.5/0.49/-0.49")
	f.Fuzz(func(t *testing.T, spec string) {
		views, err := parseViews(spec)
		if err != nil {
			if !errors.Is(err, errUsage) {
				t.Fatalf("%q: error %v is not a usage error", spec, err)
			}
			return
		}
		if len(views) == 0 {
			t.Fatalf("%q: accepted with no views", spec)
		}
		for _, v := range views {
			if err := v.Check(); err != nil {
				t.Fatalf("%q: accepted a view Check refuses: %v", spec, err)
			}
		}
	})
}
