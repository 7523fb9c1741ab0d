package synth

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/siamesetable/siamesed/engine/tile"
)

// Every face of every tile set is built in, once, at the size said, and little else is.
func TestEmbeddedHasEveryFace(t *testing.T) {
	fsys := EmbeddedFS()
	want := map[string]bool{}
	for _, set := range []tile.Set{tile.American(), tile.Royale4(), tile.Royale3()} {
		for f, n := range set.Count {
			if n > 0 {
				want[tile.Face(f).String()+".png"] = true
			}
		}
	}
	total := 0
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		total += int(info.Size())
		if !want[e.Name()] {
			t.Errorf("%s is built in but no face of the sets", e.Name())
		}
		delete(want, e.Name())
	}
	for name := range want {
		t.Errorf("no built-in %s", name)
	}
	if total > 400<<10 {
		t.Errorf("built-in faces take %d bytes; keep them small", total)
	}
	art, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	defer art.Close()
	for f := range tile.Face(tile.NumFaces) {
		if m := art.Face(f); m.Cols() != ArtW || m.Rows() != ArtH || m.Channels() != 3 {
			t.Errorf("%v: %dx%d, %d channels", f, m.Cols(), m.Rows(), m.Channels())
		}
	}
}

func TestLoadFacesNamesWhatIsWrong(t *testing.T) {
	good, err := fs.ReadFile(EmbeddedFS(), "1B.png")
	if err != nil {
		t.Fatal(err)
	}
	all := fstest.MapFS{}
	for f := range tile.Face(tile.NumFaces) {
		all["faces/"+f.String()+".png"] = &fstest.MapFile{Data: good}
	}
	if a, err := LoadFaces(all, "faces"); err != nil {
		t.Errorf("36 good faces refused: %v", err)
	} else {
		a.Close()
	}
	for _, c := range []struct {
		name string
		edit func(fstest.MapFS)
		want string
	}{
		{"missing joker", func(m fstest.MapFS) { delete(m, "faces/J.png") }, "J.png"},
		{"not an image", func(m fstest.MapFS) { m["faces/5D.png"] = &fstest.MapFile{Data: []byte("hello")} }, "5D.png is not an image"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := fstest.MapFS{}
			for k, v := range all {
				m[k] = v
			}
			c.edit(m)
			a, err := LoadFaces(m, "faces")
			if err == nil {
				a.Close()
				t.Fatal("accepted")
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("%v, want it to say %q", err, c.want)
			}
		})
	}
}
