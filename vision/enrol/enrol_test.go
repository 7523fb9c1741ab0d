package enrol

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/siamesetable/siamesed/engine/tile"
)

// Every photo that cannot be used is named, and nothing is written for a folder with any.
func TestFromLabelledNamesEveryBadPhoto(t *testing.T) {
	src := t.TempDir()
	if err := os.MkdirAll(filepath.Join(src, "images"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{
		"labels.csv":             "image,tile\nnot-a-photo.jpg,1B\nmissing.png,J\n",
		"images/not-a-photo.jpg": "text, not a JPEG",
	} {
		if err := os.WriteFile(filepath.Join(src, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "set")
	_, _, err := FromLabelled(src, out, []tile.Face{tile.Bam1})
	if err == nil || !strings.Contains(err.Error(), "2 of 2 photos") || !strings.Contains(err.Error(), "not-a-photo.jpg") || !strings.Contains(err.Error(), "missing.png") {
		t.Errorf("got %v; want both photos named", err)
	}
	if _, err := os.Stat(filepath.Join(out, "labels.csv")); err == nil {
		t.Error("labels.csv written for a folder with bad photos")
	}
	if _, _, err := FromLabelled(t.TempDir(), out, nil); err == nil || !strings.Contains(err.Error(), "labels.csv") {
		t.Errorf("a folder without labels.csv: %v", err)
	}
}
