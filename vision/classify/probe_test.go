package classify

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gocv.io/x/gocv"
)

// flipped writes the built-in model with byte pos changed by x and returns the file.
func flipped(t *testing.T, pos int, x byte) string {
	t.Helper()
	data := slices.Clone(builtin(t))
	pos %= len(data)
	if x == 0 {
		x = 0xff
	}
	data[pos] ^= x
	p := filepath.Join(t.TempDir(), "flipped.onnx")
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// loadsOrRefuses is what any model file must give NewNet: ErrBadModel naming it, or a
// classifier that enrols and classifies; never a dead process.
func loadsOrRefuses(t *testing.T, path string) error {
	t.Helper()
	c, err := NewNet(path)
	if err != nil {
		if !errors.Is(err, ErrBadModel) || !strings.Contains(err.Error(), path) {
			t.Fatalf("error %q: want ErrBadModel naming %s", err, path)
		}
		return err
	}
	defer c.Close()
	crop := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(200, 180, 160, 0), 80, 60, gocv.MatTypeCV8UC3)
	defer crop.Close()
	if err := c.Enrol(0, crop); err != nil {
		t.Fatalf("loaded, then enrolment failed: %v", err)
	}
	if _, err := c.Classify(crop); err != nil {
		t.Fatalf("loaded, then classification failed: %v", err)
	}
	return nil
}

// opencvAborts is a model CheckONNX lets through and OpenCV 4.6 aborts the process on while it
// loads it: a Reshape of the 1x3x8x8 image to 1x100, a layer whose shape CheckONNX does not
// follow. Kept as testdata/opencv-aborts.onnx for the command's tests (-update rewrites it).
func opencvAborts() []byte { return tinyModel().with(func(m *tiny) { m.reshape = []int64{1, 100} }) }

var update = flag.Bool("update", false, "rewrite testdata/opencv-aborts.onnx")

// The probe's child dies instead of this process, and NewNet refuses the file, saying so.
func TestNewNetRefusesAModelOpenCVAbortsOn(t *testing.T) {
	data, p := opencvAborts(), filepath.Join("testdata", "opencv-aborts.onnx")
	if *update {
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if kept, err := os.ReadFile(p); err != nil || !bytes.Equal(kept, data) {
		t.Fatalf("%s is not opencvAborts() (%v): go test -run %s -update", p, err, t.Name())
	}
	if _, err := CheckONNX(p, data); err != nil {
		t.Fatalf("CheckONNX now refuses it, so it no longer tests the probe; find another model OpenCV aborts on: %v", err)
	}
	err := loadsOrRefuses(t, p)
	if err == nil || !strings.Contains(err.Error(), "OpenCV cannot load it") || !strings.Contains(err.Error(), "handleNode") {
		t.Errorf("got %v, want the probe to report that OpenCV cannot load it, and OpenCV's message", err)
	}
}

// Byte flips of the built-in model on which OpenCV 4.6 aborted the process, found by flipping
// each byte of the model's structure (everything but the weights' payloads) three ways and
// probing every flip CheckONNX passed (docs/vision.md). CheckONNX now refuses each, before any
// OpenCV code runs: 2695 turns on a MaxPool's ceil_mode, which makes the image one pixel larger
// than the layers after it take; 2788455 (2769952 before the faces output was added) turns the
// name of the output "embedding" into a doc string. FuzzNewNet starts from them.
var abortingFlips = [][2]int{{2695, 0x01}, {2788455, 0x10}}

func TestCheckONNXRefusesTheFlipsOpenCVAbortedOn(t *testing.T) {
	for _, f := range abortingFlips {
		data := slices.Clone(builtin(t))
		data[f[0]] ^= byte(f[1])
		if _, err := CheckONNX("flipped.onnx", data); !errors.Is(err, ErrBadModel) {
			t.Errorf("byte %d ^%#x: %v, want ErrBadModel", f[0], f[1], err)
		}
	}
}

// A probe asked for inside a probe is refused rather than started (it would recurse).
func TestProbeInsideAProbe(t *testing.T) {
	t.Setenv(ProbeEnv, "outer")
	if err := probe("m.onnx", builtin(t)); !errors.Is(err, errProbeSetUp) {
		t.Errorf("got %v, want the set-up error", err)
	}
}

// The built-in model is checked against its SHA-256 before anything reads it.
func TestBuiltinChecksum(t *testing.T) {
	if err := checkBuiltin(); err != nil {
		t.Fatal(err)
	}
	keep := builtinModel
	defer func() { builtinModel = keep }()
	builtinModel = slices.Clone(keep)
	builtinModel[len(keep)/2] ^= 1
	if _, err := NewNet(""); !errors.Is(err, ErrBadModel) || !strings.Contains(err.Error(), "SHA-256") {
		t.Errorf("a damaged built-in model: %v", err)
	}
}

// FuzzNewNet changes one byte of the built-in model and loads it the real way (CheckONNX, the
// probe's child process, OpenCV here): each must be refused with ErrBadModel or work.
func FuzzNewNet(f *testing.F) {
	for _, fl := range abortingFlips {
		f.Add(uint32(fl[0]), byte(fl[1]))
	}
	f.Add(uint32(66), byte(0x80))
	f.Add(uint32(700000), byte(0x01)) // a weight
	f.Fuzz(func(t *testing.T, pos uint32, x byte) {
		loadsOrRefuses(t, flipped(t, int(pos), x))
	})
}

// A refused model falls back: a user's bad file to the built-in network, a damaged built-in one
// to the features, each with a warning saying which.
func TestOpenFallsBack(t *testing.T) {
	bad := filepath.Join("testdata", "opencv-aborts.onnx")
	c, warns := Open(bad)
	if _, isNet := c.emb.(*netEmbedder); !isNet || len(warns) != 1 || !strings.Contains(warns[0].Error(), "using the built-in network") {
		t.Errorf("bad file: network %v, warnings %v; want the built-in network and one warning", isNet, warns)
	}
	c.Close()
	c, warns = Open("")
	if _, isNet := c.emb.(*netEmbedder); !isNet || len(warns) != 0 {
		t.Errorf("built-in: network %v, warnings %v", isNet, warns)
	}
	c.Close()
	keep := builtinModel
	defer func() { builtinModel = keep }()
	builtinModel = slices.Clone(keep)
	builtinModel[100] ^= 1
	c, warns = Open(bad)
	if _, isFeatures := c.emb.(featureEmbedder); !isFeatures || len(warns) != 2 || !strings.Contains(warns[1].Error(), "hand-made features") {
		t.Errorf("both bad: features %v, warnings %v; want the features and two warnings", isFeatures, warns)
	}
	c.Close()
}
