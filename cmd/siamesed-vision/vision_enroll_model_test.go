package main

import (
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/vision/detect"
	"github.com/siamesetable/siamesed/vision/labels"
	"github.com/siamesetable/siamesed/vision/synth"
)

// Photos a user already has: a folder with labels.csv is enrolled directly (each photo cut to the
// tile at crop size); a folder of photos without it ends with a hint saying what each source must
// look like.
func TestEnrollFromLabelledPhotos(t *testing.T) {
	art, err := synth.LoadArt(sharedData(t, "tile-art", "png/Front.png") + "/png")
	if err != nil {
		t.Fatal(err)
	}
	defer art.Close()
	src := t.TempDir()
	if err := os.MkdirAll(filepath.Join(src, labels.ImageDir), 0o755); err != nil {
		t.Fatal(err)
	}
	faces := []tile.Face{tile.Joker, tile.Flower, tile.Flower, tile.Dot5}
	var items []labels.Item
	for i, f := range faces {
		name := fmt.Sprintf("photo%d.jpg", i)
		m := gocv.NewMat()
		gocv.CopyMakeBorder(art.Face(f), &m, 20, 20, 15, 15, gocv.BorderConstant, color.RGBA{40, 110, 30, 0})
		if i == 1 {
			gocv.Rotate(m, &m, gocv.Rotate90Clockwise) // landscape
		}
		if !gocv.IMWrite(filepath.Join(src, labels.ImageDir, name), m) {
			t.Fatal("cannot write a photo")
		}
		m.Close()
		items = append(items, labels.Item{Image: name, Tile: f})
	}
	var b strings.Builder
	if err := labels.Write(&b, items); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, labels.FileName), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "set")
	code, stdout, errs := run(t, "enroll", "camera", "--source", src, "--out", out, "--faces", "J F 5D 1B")
	if code != 0 || !strings.Contains(stdout, "enrolled 4 labelled crops") || !strings.Contains(errs, "no crop of 1B") {
		t.Fatalf("exit %d: %s%s", code, stdout, errs)
	}
	got, err := labels.Read(out)
	if err != nil || len(got) != 4 || got[1].Tile != tile.Flower {
		t.Fatalf("labels %+v, %v", got, err)
	}
	m := gocv.IMRead(filepath.Join(out, labels.ImageDir, got[1].Image), gocv.IMReadColor)
	defer m.Close()
	if m.Cols() != detect.CropW || m.Rows() != detect.CropH {
		t.Errorf("crop %dx%d, want %dx%d portrait", m.Cols(), m.Rows(), detect.CropW, detect.CropH)
	}
	if err := os.Remove(filepath.Join(src, labels.FileName)); err != nil {
		t.Fatal(err)
	}
	code, _, errs = run(t, "enroll", "camera", "--source", filepath.Join(src, labels.ImageDir), "--out", filepath.Join(t.TempDir(), "x"), "--faces", "J F")
	if code != 1 || !strings.Contains(errs, "after 0 of 2 faces") || !strings.Contains(errs, "labels.csv") {
		t.Errorf("a folder of photos without labels: exit %d: %s", code, errs)
	}
}

// vision model: the built-in model loads; a damaged copy is refused, the reason printed, and the
// fallback named.
func TestVisionModel(t *testing.T) {
	code, out, errs := run(t, "vision", "model")
	if code != 0 || !strings.Contains(out, "loads and runs") {
		t.Fatalf("built-in: exit %d: %s%s", code, out, errs)
	}
	// passes CheckONNX; OpenCV 4.6 aborts the process loading it (see its classify test)
	bad := filepath.Join("..", "..", "vision", "classify", "testdata", "opencv-aborts.onnx")
	code, out, errs = run(t, "vision", "model", "--model", bad)
	if code != 1 || !strings.Contains(out, "OpenCV cannot load it") || !strings.Contains(out, "using the built-in network instead") || !strings.Contains(errs, bad) {
		t.Errorf("a model OpenCV aborts on: exit %d: %s%s", code, out, errs)
	}
}
