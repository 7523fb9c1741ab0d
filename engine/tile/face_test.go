package tile

import (
	"errors"
	"fmt"
	"testing"
)

func TestParseEveryFaceRoundTrips(t *testing.T) {
	for f := Face(0); f < NumFaces; f++ {
		s := f.String()
		for _, in := range []string{s, lower(s), " " + s + " "} {
			got, err := Parse(in)
			if err != nil || got != f {
				t.Errorf("Parse(%q) = %v, %v; want %v", in, got, err, f)
			}
		}
	}
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func TestParseNotation(t *testing.T) {
	tests := []struct {
		in   string
		want Face
	}{
		{"1b", Bam1}, {"9B", Bam9}, {"5c", Crak5}, {"1D", Dot1}, {"9d", Dot9},
		{"e", East}, {"S", South}, {"w", West}, {"n", North},
		{"rd", Red}, {"Gd", Green}, {"wD", White}, {"0", White}, {"soap", White},
		{"f", Flower}, {"J", Joker},
	}
	for _, tc := range tests {
		got, err := Parse(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("Parse(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

func TestParseRejects(t *testing.T) {
	for _, in := range []string{"", "0B", "10B", "1X", "B1", "R", "G", "D", "JJ", "1", "1BB", "WDD"} {
		if f, err := Parse(in); err == nil || !errors.Is(err, ErrNotation) {
			t.Errorf("Parse(%q) = %v, %v; want ErrNotation", in, f, err)
		}
	}
}

func TestFaceProperties(t *testing.T) {
	if s, ok := Crak7.Suit(); !ok || s != Craks || Crak7.Rank() != 7 {
		t.Errorf("Crak7: suit %v %v rank %d", s, ok, Crak7.Rank())
	}
	if _, ok := Red.Suit(); ok || Red.Rank() != 0 {
		t.Errorf("Red has a suit or rank")
	}
	for s, want := range map[Suit]Face{Bams: Green, Craks: Red, Dots: White} {
		if s.Dragon() != want {
			t.Errorf("%v.Dragon() = %v, want %v", s, s.Dragon(), want)
		}
	}
	if Number(Dots, 0) != NoFace || Number(Dots, 10) != NoFace || Number(Dots, 4) != Dot4 {
		t.Errorf("Number range")
	}
	if !East.IsWind() || Red.IsWind() || !White.IsDragon() || Flower.IsDragon() || !Bam9.IsNumber() || East.IsNumber() {
		t.Errorf("classification wrong")
	}
}

func TestParseListNamesPosition(t *testing.T) {
	got, err := ParseList("1b 2B, j\tF")
	if err != nil || Format(got) != "1B 2B J F" {
		t.Fatalf("ParseList = %v, %v", got, err)
	}
	_, err = ParseList("1B 2B XX 3B")
	if err == nil || !errors.Is(err, ErrNotation) || err.Error()[:6] != "tile 3" {
		t.Fatalf("ParseList error = %v, want one naming tile 3", err)
	}
}

func TestTextMarshal(t *testing.T) {
	b, err := Green.MarshalText()
	if err != nil || string(b) != "GD" {
		t.Fatalf("MarshalText = %s, %v", b, err)
	}
	var f Face
	if err := f.UnmarshalText([]byte("9c")); err != nil || f != Crak9 {
		t.Fatalf("UnmarshalText = %v, %v", f, err)
	}
	if _, err := NoFace.MarshalText(); err == nil {
		t.Fatal("NoFace marshalled")
	}
}

func ExampleParseList() {
	fs, _ := ParseList("3b 3B j rd soap f")
	fmt.Println(Format(fs))
	// Output: 3B 3B J RD WD F
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"1B", "rd", "0", "soap", "J", "10B", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		face, err := Parse(s)
		if err != nil {
			return
		}
		if face >= NumFaces {
			t.Fatalf("Parse(%q) = %v out of range", s, face)
		}
		again, err := Parse(face.String())
		if err != nil || again != face {
			t.Fatalf("canonical %q does not round-trip: %v %v", face.String(), again, err)
		}
	})
}

func FuzzParseList(f *testing.F) {
	f.Add("1B 2B, J")
	f.Fuzz(func(t *testing.T, s string) {
		fs, err := ParseList(s)
		if err != nil {
			return
		}
		back, err := ParseList(Format(fs))
		if err != nil || Format(back) != Format(fs) {
			t.Fatalf("round trip of %q: %v %v", s, back, err)
		}
	})
}
