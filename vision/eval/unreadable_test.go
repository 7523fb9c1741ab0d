package eval_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/vision/classify"
	"github.com/siamesetable/siamesed/vision/eval"
	"github.com/siamesetable/siamesed/vision/labels"
)

// TestEveryUnreadableImageIsNamed: eval and enrolment go through every image and name each
// one they cannot read, as `enroll` does, rather than stopping at the first.
func TestEveryUnreadableImageIsNamed(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, labels.ImageDir), 0o755); err != nil {
		t.Fatal(err)
	}
	good := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(200, 180, 160, 0), 80, 60, gocv.MatTypeCV8UC3)
	defer good.Close()
	if !gocv.IMWrite(filepath.Join(dir, labels.ImageDir, "good.png"), good) {
		t.Fatal("cannot write the test image")
	}
	if err := os.WriteFile(filepath.Join(dir, labels.ImageDir, "garbage.png"), []byte("not a png"), 0o644); err != nil {
		t.Fatal(err)
	}
	items := []labels.Item{{Image: "garbage.png", Tile: tile.Face(0)}, {Image: "good.png", Tile: tile.Face(0)}, {Image: "missing.png", Tile: tile.Face(0)}}
	c := classify.New()
	err := c.EnrolDir(dir, items)
	if err == nil || !strings.Contains(err.Error(), "garbage.png") || !strings.Contains(err.Error(), "missing.png") {
		t.Errorf("enrol: %v, want both unreadable images named", err)
	}
	if _, err := eval.Run(c, dir, items); err == nil || !strings.Contains(err.Error(), "garbage.png") || !strings.Contains(err.Error(), "missing.png") {
		t.Errorf("eval: %v, want both unreadable images named", err)
	}
}
