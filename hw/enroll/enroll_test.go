package enroll

import (
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/siamesetable/siamesed/engine/tile"
)

func TestEnrolStopResume(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tags.yaml")
	s, err := Open(path, tile.American())
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 37; i++ {
		if err := s.Add(fmt.Sprintf("04:00:00:%02X", i), s.Next()); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Add("04:00:00:05", tile.Joker); !errors.Is(err, ErrDuplicate) {
		t.Fatalf("duplicate tag: %v", err)
	}
	// Stop, then resume from the file.
	s2, err := Open(path, tile.American())
	if err != nil {
		t.Fatal(err)
	}
	if done, total := s2.Progress(); done != 37 || total != 152 {
		t.Fatalf("progress %d/%d, want 37/152", done, total)
	}
	if f, ok := s2.Face("04:00:00:00"); !ok || f != tile.Bam1 {
		t.Fatalf("first tag is %v %v", f, ok)
	}
	if s2.Next() != s.Next() {
		t.Fatalf("resumed at %v, stopped at %v", s2.Next(), s.Next())
	}
	if err := s2.Add("04:00:00:03", tile.Joker); !errors.Is(err, ErrDuplicate) {
		t.Fatalf("duplicate after resume: %v", err)
	}
	for i := 0; i < 4; i++ {
		s2.Add(fmt.Sprintf("05:00:00:%02X", i), tile.Red)
	}
	if err := s2.Add("06:00:00:00", tile.Red); !errors.Is(err, ErrFull) {
		t.Fatalf("fifth red dragon: %v", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("\"DE:AD:BE:EF\": 1B\n\"04:11:22:33:44:55:66\": rd\n"))
	f.Add([]byte("a: b"))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Parse(b)
		if err != nil {
			return
		}
		for u, face := range m {
			if n, err := NormalUID(u); err != nil || n != u || face >= tile.NumFaces {
				t.Fatalf("parsed %q -> %v", u, face)
			}
		}
	})
}

// TestRemove: a tag removed is gone from the file, and its face is missing a tile again; a tag
// not enrolled is an error that changes nothing.
func TestRemove(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tags.yaml")
	s, err := Open(path, tile.American())
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		if err := s.Add(fmt.Sprintf("04:00:00:%02X", i), s.Next()); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Remove("04:00:00:09"); !errors.Is(err, ErrNotEnrolled) {
		t.Fatalf("removing a tag not enrolled: %v", err)
	}
	if err := s.Remove("04:00:00:02"); err != nil {
		t.Fatal(err)
	}
	again, err := Open(path, tile.American())
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := again.Face("04:00:00:02"); ok || again.Next() != tile.Face(0) {
		t.Fatalf("after removing a 1B: enrolled %v, next %v", ok, again.Next())
	}
	if done, _ := again.Progress(); done != 4 {
		t.Fatalf("%d tags left, want 4", done)
	}
}
