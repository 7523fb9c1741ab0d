// Package tile holds the faces of an American Mah Jongg set, their notation and the sets a
// table plays with. It is pure Go with no I/O so every other layer can share it.
package tile

import (
	"errors"
	"fmt"
	"strings"
)

// Face is one kind of tile. The zero value is 1B; NoFace marks "none".
//
// Layout: 0..8 bams 1-9, 9..17 craks 1-9, 18..26 dots 1-9, 27..30 winds E S W N,
// 31..33 dragons RD GD WD, 34 flower, 35 joker. The order is the canonical sort order.
type Face uint8

// Faces in canonical order.
const (
	Bam1 Face = iota
	Bam2
	Bam3
	Bam4
	Bam5
	Bam6
	Bam7
	Bam8
	Bam9
	Crak1
	Crak2
	Crak3
	Crak4
	Crak5
	Crak6
	Crak7
	Crak8
	Crak9
	Dot1
	Dot2
	Dot3
	Dot4
	Dot5
	Dot6
	Dot7
	Dot8
	Dot9
	East
	South
	West
	North
	Red
	Green
	White
	Flower
	Joker

	// NumFaces is the number of distinct faces.
	NumFaces = 36
	// NoFace is returned where there is no face.
	NoFace Face = 255
)

// Suit is one of the three numbered suits.
type Suit uint8

// The suits, in the order of their faces.
const (
	Bams Suit = iota
	Craks
	Dots
	NumSuits = 3
)

var suitLetters = [NumSuits]string{"B", "C", "D"}

// String returns the suit's letter: B, C or D.
func (s Suit) String() string {
	if s >= NumSuits {
		return fmt.Sprintf("Suit(%d)", uint8(s))
	}
	return suitLetters[s]
}

// Dragon returns the dragon that goes with a suit: green with bams, red with craks,
// white ("soap") with dots.
func (s Suit) Dragon() Face {
	return [NumSuits]Face{Green, Red, White}[s]
}

// Number returns the face of number n (1..9) in suit s, or NoFace if out of range.
func Number(s Suit, n int) Face {
	if s >= NumSuits || n < 1 || n > 9 {
		return NoFace
	}
	return Face(int(s)*9 + n - 1)
}

// IsNumber reports whether f is a suited number tile.
func (f Face) IsNumber() bool { return f < East }

// IsWind reports whether f is one of the four winds.
func (f Face) IsWind() bool { return f >= East && f <= North }

// IsDragon reports whether f is one of the three dragons.
func (f Face) IsDragon() bool { return f >= Red && f <= White }

// Suit returns the suit of a number tile; ok is false for honours, flowers and jokers.
func (f Face) Suit() (s Suit, ok bool) {
	if !f.IsNumber() {
		return 0, false
	}
	return Suit(f / 9), true
}

// Rank returns 1..9 for a number tile and 0 otherwise.
func (f Face) Rank() int {
	if !f.IsNumber() {
		return 0
	}
	return int(f%9) + 1
}

var honourNames = [...]string{"E", "S", "W", "N", "RD", "GD", "WD", "F", "J"}

// String prints the canonical notation: 1B..9B, 1C..9C, 1D..9D, E S W N, RD GD WD, F, J.
func (f Face) String() string {
	switch {
	case f.IsNumber():
		return fmt.Sprintf("%d%s", f.Rank(), Suit(f/9))
	case f < NumFaces:
		return honourNames[f-East]
	case f == NoFace:
		return "-"
	}
	return fmt.Sprintf("Face(%d)", uint8(f))
}

// MarshalText prints the canonical notation, so faces read well in JSON and YAML.
func (f Face) MarshalText() ([]byte, error) {
	if f >= NumFaces {
		return nil, fmt.Errorf("tile: cannot marshal %v", f)
	}
	return []byte(f.String()), nil
}

// UnmarshalText parses the notation case-insensitively.
func (f *Face) UnmarshalText(b []byte) error {
	p, err := Parse(string(b))
	if err != nil {
		return err
	}
	*f = p
	return nil
}

// ErrNotation is wrapped by every notation error, for errors.Is.
var ErrNotation = errors.New("bad tile notation")

// aliases are the longer spellings players type; all map to canonical faces.
var aliases = map[string]Face{
	"E": East, "S": South, "W": West, "N": North,
	"RD": Red, "GD": Green, "WD": White, "0": White, "SOAP": White,
	"F": Flower, "J": Joker,
}

// Parse reads one tile in the notation of docs/notation.md, case-insensitively:
// "3b", "9C", "rd", "Wd", "f", "j". "0" is accepted for the white dragon.
func Parse(s string) (Face, error) {
	u := strings.ToUpper(strings.TrimSpace(s))
	if f, ok := aliases[u]; ok {
		return f, nil
	}
	if len(u) == 2 && u[0] >= '1' && u[0] <= '9' {
		n := int(u[0] - '0')
		switch u[1] {
		case 'B':
			return Number(Bams, n), nil
		case 'C':
			return Number(Craks, n), nil
		case 'D':
			return Number(Dots, n), nil
		}
	}
	return NoFace, fmt.Errorf("tile: %w: %q (want 1B..9B, 1C..9C, 1D..9D, E S W N, RD GD WD, F or J)", ErrNotation, s)
}

// ParseList reads tiles separated by spaces or commas: "1B 1B J, RD". Errors name the
// position (1-based) of the bad tile.
func ParseList(s string) ([]Face, error) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' || r == '\n' })
	out := make([]Face, 0, len(fields))
	for i, fs := range fields {
		f, err := Parse(fs)
		if err != nil {
			return nil, fmt.Errorf("tile %d: %w", i+1, err)
		}
		out = append(out, f)
	}
	return out, nil
}

// Format prints tiles in canonical notation separated by spaces.
func Format(fs []Face) string {
	var b strings.Builder
	for i, f := range fs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(f.String())
	}
	return b.String()
}
