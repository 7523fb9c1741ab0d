package card

import (
	"strings"

	"github.com/siamesetable/siamesed/engine/tile"
)

// elemKind says what one element of a pattern group stands for.
type elemKind uint8

const (
	elemNumber    elemKind = iota // a literal 1..9 in the group's suit
	elemX                         // base X plus an offset, in the group's suit
	elemDragon                    // the dragon of the group's suit (D in a group with a suit variable)
	elemFace                      // a fixed face: 0 (white dragon), R, G, F, N, E, W, S
	elemAnyWind                   // Z: one wind, the same for every Z of the group
	elemAnyDragon                 // D in a group without a suit variable: one dragon for the group
)

// element is one tile of a pattern group before suits, X, winds and dragons are chosen.
type element struct {
	kind elemKind
	n    int       // the number (elemNumber) or offset (elemX)
	face tile.Face // elemFace only
	suit int       // the suit variable (0..2 for a..c) of a suited element; noSuit otherwise
}

// suited reports whether the element takes the group's suit.
func (e element) suited() bool {
	return e.kind == elemNumber || e.kind == elemX || e.kind == elemDragon
}

// noSuit marks a group that holds no suited tile; mixedSuits one whose suited tiles take
// different suit variables (a mixed chow, `1a2b3c`).
const (
	noSuit     = -1
	mixedSuits = -2
)

// group is one concrete-shaped group of a pattern: `333b`, `NEWS`, `XXXX0a`, `ZZZ`, `1a2b3c`.
type group struct {
	elems []element
	suit  int // 0..2 for a..c when every suited element takes it, noSuit, or mixedSuits
}

// letters is how many suit variables the group needs: one more than the highest it uses.
func (g group) letters() int {
	n := 0
	for _, e := range g.elems {
		if e.suited() {
			n = max(n, e.suit+1)
		}
	}
	return n
}

// has reports whether some element of the group is of kind k.
func (g group) has(k elemKind) bool {
	for _, e := range g.elems {
		if e.kind == k {
			return true
		}
	}
	return false
}

// choice is one space-separated token of a pattern: a single group, or alternatives such as
// `2222b|6666b`, of which a hand uses exactly one. Every alternative holds as many tiles.
type choice struct {
	alts []group
}

// pattern is one parsed alternative of a hand.
type pattern struct {
	text    string
	choices []choice
	usesX   bool
	maxOff  int   // largest X offset used
	xs      []int // the bases X may take (nil: any); the loader sets it from x:
}

// faceLetters are the letters of fixed faces, for printing.
var faceLetters = map[tile.Face]byte{
	tile.White: '0', tile.Red: 'R', tile.Green: 'G', tile.Flower: 'F',
	tile.North: 'N', tile.East: 'E', tile.West: 'W', tile.South: 'S',
}

// String prints the parsed pattern back in canonical form, for tests and messages.
func (p pattern) String() string {
	var b strings.Builder
	for ci, c := range p.choices {
		if ci > 0 {
			b.WriteByte(' ')
		}
		for ai, g := range c.alts {
			if ai > 0 {
				b.WriteByte('|')
			}
			g.write(&b)
		}
	}
	return b.String()
}

// write prints the group canonically: one suit variable at its end, or, in a mixed group, a
// suit variable after each run of suited elements that take it (`1a2b3c`).
func (g group) write(b *strings.Builder) {
	for ei := 0; ei < len(g.elems); ei++ {
		e := g.elems[ei]
		switch e.kind {
		case elemNumber:
			b.WriteByte(byte('0' + e.n))
		case elemDragon, elemAnyDragon:
			b.WriteByte('D')
		case elemAnyWind:
			b.WriteByte('Z')
		case elemFace:
			b.WriteByte(faceLetters[e.face])
		case elemX:
			j := ei
			for j < len(g.elems) && g.elems[j] == e {
				b.WriteByte('X')
				j++
			}
			b.WriteByte(byte('0' + e.n))
			ei = j - 1
		}
		if g.suit == mixedSuits && e.suited() {
			if next := ei + 1; next == len(g.elems) || !g.elems[next].suited() || g.elems[next].suit != e.suit {
				b.WriteByte(byte('a' + e.suit))
			}
		}
	}
	if g.suit >= 0 {
		b.WriteByte(byte('a' + g.suit))
	}
}
