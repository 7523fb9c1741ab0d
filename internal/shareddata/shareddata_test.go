package shareddata

import (
	"path/filepath"
	"testing"
)

func TestRootIsBesideTheRepository(t *testing.T) {
	self, err := filepath.Abs(".") // tests run in internal/shareddata
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(self, "..", "..", "..", "shared", "data")
	got, err := filepath.Abs(Root())
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("Root() = %s, want %s", got, want)
	}
}

func TestDirSkipsWhenAbsent(t *testing.T) {
	var skipped bool
	t.Run("absent", func(t *testing.T) {
		defer func() { skipped = t.Skipped() }()
		Dir(t, "no-such-folder-here", "x")
		t.Error("Dir returned for a folder that does not exist")
	})
	if !skipped {
		t.Fatal("Dir did not skip the test")
	}
}
