package source

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"
)

func TestFolderReadsImagesInOrder(t *testing.T) {
	dir := t.TempDir()
	for i, v := range []float64{10, 200, 90} {
		m := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(v, v, v, 0), 12, 16, gocv.MatTypeCV8UC3)
		if !gocv.IMWrite(filepath.Join(dir, string(rune('a'+i))+".png"), m) {
			t.Fatal("cannot write test image")
		}
		m.Close()
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not an image"), 0o644); err != nil {
		t.Fatal(err)
	}
	src, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	m := gocv.NewMat()
	defer m.Close()
	for _, want := range []uint8{10, 200, 90} {
		if err := src.Read(&m); err != nil {
			t.Fatal(err)
		}
		if got := m.GetVecbAt(0, 0)[0]; got != want || m.Cols() != 16 {
			t.Fatalf("pixel %d, width %d; want %d, 16", got, m.Cols(), want)
		}
	}
	if err := src.Read(&m); !errors.Is(err, io.EOF) {
		t.Fatalf("after the last image: %v", err)
	}
}

func TestOpenErrors(t *testing.T) {
	if _, err := Open(t.TempDir()); !errors.Is(err, ErrNoImages) {
		t.Errorf("empty folder: %v", err)
	}
	if _, err := Open(filepath.Join(t.TempDir(), "missing.mp4")); err == nil {
		t.Error("missing file opened")
	}
}
