package labels

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/siamesetable/siamesed/engine/tile"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     int
		err      string
	}{
		{"ok", "image,tile,source_label\n1.jpg,1B,bamboo-1\n2.jpg,rd,x\n", 2, ""},
		{"no header", "", 0, "empty"},
		{"wrong header", "file,tile\n", 0, ":1: header"},
		{"bad tile", "image,tile\n1.jpg,1B\n2.jpg,10B\n", 0, "x.csv:3: tile"},
		{"escape", "image,tile\n../../etc/passwd,1B\n", 0, "x.csv:2: image"},
		{"short", "image,tile\n1.jpg\n", 0, "x.csv:2: want at least 2"},
		{"sets", "image,tile,set,source\n1.jpg,1B,B,x\n2.jpg,E,H,y\n", 2, ""},
		{"no set", "image,tile,set\n1.jpg,1B,B\n2.jpg,E, \n", 0, "x.csv:3: no set"},
		{"short of the set", "image,tile,source,set\n1.jpg,1B,x\n", 0, "x.csv:2: no set named in column 4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			items, err := Parse("x.csv", strings.NewReader(tc.in))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want it to contain %q", err, tc.err)
				}
				if !errors.Is(err, ErrFormat) {
					t.Fatalf("err = %v, want ErrFormat", err)
				}
				return
			}
			if err != nil || len(items) != tc.want {
				t.Fatalf("got %d items, %v; want %d", len(items), err, tc.want)
			}
			if tc.name == "sets" && (items[0].Set != "B" || items[1].Set != "H") {
				t.Fatalf("sets: got %+v, want B and H", items)
			}
		})
	}
}

func TestWriteParseRoundTrip(t *testing.T) {
	roundTrip(t, []Item{{Image: "a.png", Tile: tile.Bam1}, {Image: "b/c.png", Tile: tile.Joker}, {Image: "d,e.png", Tile: tile.Flower}})
	roundTrip(t, []Item{{Image: "a.png", Tile: tile.Bam1, Set: "B"}, {Image: "b.png", Tile: tile.Joker, Set: "set 2"}})
}

// roundTrip writes in and reads it back unchanged.
func roundTrip(t *testing.T, in []Item) {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, in); err != nil {
		t.Fatal(err)
	}
	out, err := Parse("rt", &buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != len(in) {
		t.Fatalf("got %v, want %v", out, in)
	}
	for i := range in {
		if in[i] != out[i] {
			t.Fatalf("item %d: got %v, want %v", i, out[i], in[i])
		}
	}
}

func TestSplitKeepsEveryTileOnBothSides(t *testing.T) {
	var items []Item
	for f := tile.Face(0); f < tile.NumFaces; f++ {
		for i := range 5 {
			items = append(items, Item{Image: f.String() + string(rune('a'+i)), Tile: f})
		}
	}
	a, b := Split(items, 0.5, 7)
	if len(a)+len(b) != len(items) {
		t.Fatalf("split lost items: %d+%d != %d", len(a), len(b), len(items))
	}
	seen := map[tile.Face][2]int{}
	for _, it := range a {
		s := seen[it.Tile]
		s[0]++
		seen[it.Tile] = s
	}
	for _, it := range b {
		s := seen[it.Tile]
		s[1]++
		seen[it.Tile] = s
	}
	for f, s := range seen {
		if s[0] == 0 || s[1] == 0 {
			t.Errorf("%v: %d enrol, %d test", f, s[0], s[1])
		}
	}
	a2, _ := Split(items, 0.5, 7)
	for i := range a {
		if a[i] != a2[i] {
			t.Fatal("same seed, different split")
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add("image,tile,source_label\n1.jpg,1B,bamboo-1\n")
	f.Add("image,tile\n\"a,b\",J\n")
	f.Add("image,tile\n/abs,F\n")
	f.Fuzz(func(t *testing.T, s string) {
		items, err := Parse("fuzz", strings.NewReader(s))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := Write(&buf, items); err != nil {
			t.Fatal(err)
		}
		again, err := Parse("again", &buf)
		if err != nil || len(again) != len(items) {
			t.Fatalf("round trip: %v, %d != %d", err, len(again), len(items))
		}
	})
}
