package card

import (
	"fmt"
	"strings"

	"github.com/siamesetable/siamesed/engine/tile"
)

// elemKind says what one element of a pattern group stands for.
type elemKind uint8

const (
	elemNumber elemKind = iota // a literal 1..9 in the group's suit
	elemX                      // base X plus an offset, in the group's suit
	elemDragon                 // the dragon of the group's suit
	elemFace                   // a fixed face: 0 (white dragon), F, N, E, W, S
)

// element is one tile of a pattern group before suits and X are chosen.
type element struct {
	kind elemKind
	n    int       // the number (elemNumber) or offset (elemX)
	face tile.Face // elemFace only
}

func (e element) suited() bool { return e.kind != elemFace }

// noSuit marks a group that holds no suited tile.
const noSuit = -1

// group is one space-separated group of a pattern: `333b`, `NEWS`, `XXXX0a`.
type group struct {
	elems []element
	suit  int // 0..2 for a..c, or noSuit
	col   int // 1-based column of the group within the pattern, for errors
}

// identical reports whether every element of the group is the same: with three or more it is
// a pung, kong, quint or sextet, the only groups jokers may stand in.
func (g group) identical() bool {
	for _, e := range g.elems[1:] {
		if e != g.elems[0] {
			return false
		}
	}
	return true
}

// pattern is one parsed alternative of a hand.
type pattern struct {
	text   string
	groups []group
	usesX  bool
	maxOff int // largest X offset used
}

// posError is a problem at a column of a pattern string.
type posError struct {
	col int
	msg string
}

func (e posError) Error() string { return fmt.Sprintf("col %d: %s", e.col, e.msg) }

// parsePattern reads the card notation of docs/card-language.md. It returns every problem it
// finds, each with its 1-based column.
func parsePattern(s string) (pattern, []posError) {
	p := pattern{text: s}
	var errs []posError
	total := 0
	i := 0
	for i < len(s) {
		if s[i] == ' ' || s[i] == '\t' {
			i++
			continue
		}
		start := i
		for i < len(s) && s[i] != ' ' && s[i] != '\t' {
			i++
		}
		g, gerrs := parseGroup(s[start:i], start+1)
		errs = append(errs, gerrs...)
		if len(gerrs) == 0 {
			p.groups = append(p.groups, g)
			total += len(g.elems)
			for _, e := range g.elems {
				if e.kind == elemX {
					p.usesX = true
					p.maxOff = max(p.maxOff, e.n)
				}
			}
		}
	}
	if len(p.groups) == 0 && len(errs) == 0 {
		errs = append(errs, posError{1, "empty pattern"})
	}
	if len(errs) == 0 && total != 14 {
		errs = append(errs, posError{1, fmt.Sprintf("pattern has %d tiles, a hand has 14", total)})
	}
	return p, errs
}

// parseGroup reads one group starting at column col.
func parseGroup(tok string, col int) (group, []posError) {
	g := group{suit: noSuit, col: col}
	var errs []posError
	bad := func(at int, format string, args ...any) {
		errs = append(errs, posError{col + at, fmt.Sprintf(format, args...)})
	}
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		switch {
		case c >= 'a' && c <= 'c':
			if i != len(tok)-1 {
				bad(i, "suit variable %q must end the group %q", c, tok)
				return g, errs
			}
			g.suit = int(c - 'a')
		case c >= '1' && c <= '9':
			g.elems = append(g.elems, element{kind: elemNumber, n: int(c - '0')})
		case c == '0':
			g.elems = append(g.elems, element{kind: elemFace, face: tile.White})
		case c == 'X' || c == 'x':
			run := 0
			for i < len(tok) && (tok[i] == 'X' || tok[i] == 'x') {
				run++
				i++
			}
			if i >= len(tok) || tok[i] < '0' || tok[i] > '8' {
				bad(i, "X needs an offset digit 0..8 after it, as in XXX0a or X1a")
				return g, errs
			}
			for k := 0; k < run; k++ {
				g.elems = append(g.elems, element{kind: elemX, n: int(tok[i] - '0')})
			}
		default:
			f, ok := honourLetters[upper(c)]
			if !ok {
				bad(i, "unknown element %q in group %q (want 0-9, X, D, F, N, E, W, S, then a suit variable a, b or c)", c, tok)
				return g, errs
			}
			if f == tile.NoFace {
				g.elems = append(g.elems, element{kind: elemDragon})
			} else {
				g.elems = append(g.elems, element{kind: elemFace, face: f})
			}
		}
	}
	if len(g.elems) == 0 {
		bad(0, "group %q has no tiles", tok)
		return g, errs
	}
	suited := false
	for _, e := range g.elems {
		suited = suited || e.suited()
	}
	switch {
	case suited && g.suit == noSuit:
		bad(len(tok)-1, "group %q holds numbers or D and needs a suit variable a, b or c at its end", tok)
	case !suited && g.suit != noSuit:
		bad(len(tok)-1, "group %q holds no suited tile; remove the suit variable", tok)
	}
	return g, errs
}

// honourLetters maps element letters to faces; NoFace stands for D, the suit's dragon.
var honourLetters = map[byte]tile.Face{
	'D': tile.NoFace, 'F': tile.Flower,
	'N': tile.North, 'E': tile.East, 'W': tile.West, 'S': tile.South,
}

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// String prints the parsed pattern back in canonical form, for tests and messages.
func (p pattern) String() string {
	var b strings.Builder
	for gi, g := range p.groups {
		if gi > 0 {
			b.WriteByte(' ')
		}
		for ei := 0; ei < len(g.elems); ei++ {
			e := g.elems[ei]
			switch e.kind {
			case elemNumber:
				b.WriteByte(byte('0' + e.n))
			case elemDragon:
				b.WriteByte('D')
			case elemFace:
				b.WriteString(map[tile.Face]string{tile.White: "0", tile.Flower: "F", tile.North: "N", tile.East: "E", tile.West: "W", tile.South: "S"}[e.face])
			case elemX:
				j := ei
				for j < len(g.elems) && g.elems[j] == e {
					b.WriteByte('X')
					j++
				}
				b.WriteByte(byte('0' + e.n))
				ei = j - 1
			}
		}
		if g.suit != noSuit {
			b.WriteByte(byte('a' + g.suit))
		}
	}
	return b.String()
}
