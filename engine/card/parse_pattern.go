package card

import (
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/siamesetable/siamesed/engine/tile"
)

// posError is a problem at a column of a pattern string.
type posError struct {
	col int // 1-based, in characters
	msg string
}

func (e posError) Error() string { return fmt.Sprintf("col %d: %s", e.col, e.msg) }

// parsePattern reads the card notation of docs/card-language.md. It returns every problem it
// finds, each with its 1-based column (in characters, as an editor counts).
func parsePattern(s string) (pattern, []posError) {
	p := pattern{text: s}
	var errs []posError
	total := 0
	for i := 0; i < len(s); {
		if s[i] == ' ' || s[i] == '\t' {
			i++
			continue
		}
		start := i
		for i < len(s) && s[i] != ' ' && s[i] != '\t' {
			i++
		}
		c, size, cerrs := parseChoice(s[start:i], start)
		errs = append(errs, cerrs...)
		if len(cerrs) == 0 {
			p.choices = append(p.choices, c)
			total += size
		}
	}
	for _, c := range p.choices {
		for _, g := range c.alts {
			for _, e := range g.elems {
				if e.kind == elemX {
					p.usesX = true
					p.maxOff = max(p.maxOff, e.n)
				}
			}
		}
	}
	if len(p.choices) == 0 && len(errs) == 0 {
		errs = append(errs, posError{0, "empty pattern"})
	}
	if len(errs) == 0 && total != 14 {
		errs = append(errs, posError{0, fmt.Sprintf("pattern has %d tiles, a hand has 14", total)})
	}
	for i := range errs { // byte offsets to character columns
		errs[i].col = utf8.RuneCountInString(s[:min(errs[i].col, len(s))]) + 1
	}
	return p, errs
}

// parseChoice reads one space-separated token at byte offset off: a group, or alternatives
// separated by `|`. It returns the tiles one alternative holds. Errors carry byte offsets.
func parseChoice(tok string, off int) (choice, int, []posError) {
	var c choice
	var errs []posError
	size := -1
	for start := 0; start <= len(tok); {
		end := start
		for end < len(tok) && tok[end] != '|' {
			end++
		}
		if end == start {
			errs = append(errs, posError{off + start, fmt.Sprintf("empty alternative in %q: write groups on both sides of |, as in 2222b|6666b", tok)})
		} else {
			g, gerrs := parseGroup(tok[start:end], off+start)
			errs = append(errs, gerrs...)
			if len(gerrs) == 0 {
				if size >= 0 && len(g.elems) != size {
					errs = append(errs, posError{off + start, fmt.Sprintf("alternatives in %q hold different numbers of tiles (%d and %d)", tok, size, len(g.elems))})
				}
				size = len(g.elems)
				c.alts = append(c.alts, g)
			}
		}
		start = end + 1
	}
	return c, max(size, 0), errs
}

// parseGroup reads one group starting at byte offset off. A group takes one suit variable, at
// its end or repeated inside it (`XX0aX1aX2a`); a group with different ones is mixed, each
// variable giving its suit to the suited elements since the one before (`1a2b3c`, a mixed chow).
func parseGroup(tok string, off int) (group, []posError) {
	g := group{suit: noSuit}
	var errs []posError
	bad := func(at int, format string, args ...any) {
		errs = append(errs, posError{off + at, fmt.Sprintf(format, args...)})
	}
	var marks []suitMark
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		switch {
		case c >= 'a' && c <= 'c':
			marks = append(marks, suitMark{suit: int(c - 'a'), at: i, upto: len(g.elems)})
		case c >= '1' && c <= '9':
			g.elems = append(g.elems, element{kind: elemNumber, n: int(c - '0'), suit: noSuit})
		case c == '0':
			g.elems = append(g.elems, element{kind: elemFace, face: tile.White, suit: noSuit})
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
				g.elems = append(g.elems, element{kind: elemX, n: int(tok[i] - '0'), suit: noSuit})
			}
		case c >= 'd' && c <= 'z' && c != 'x' && i == len(tok)-1 && i > 0 && !isLower(tok[i-1]) && slices.ContainsFunc(g.elems, element.suited):
			// "DDDDd", "1111d": a fourth suit letter, not a lower-case dragon
			bad(i, "%q ends the group %q but is no suit variable: the suit variables are a, b and c", c, tok)
			return g, errs
		default:
			e, ok := letterElems[upper(c)]
			if !ok && c >= 'A' && c <= 'C' {
				bad(i, "unknown element %q in group %q (suit variables are lower case: %c)", c, tok, c-'A'+'a')
				return g, errs
			}
			if !ok {
				r, _ := utf8.DecodeRuneInString(tok[i:])
				bad(i, "unknown element %q in group %q (want 0-9, X, D, R, G, F, N, E, W, S, Z, then a suit variable a, b or c; | between alternatives)", r, tok)
				return g, errs
			}
			e.suit = noSuit
			g.elems = append(g.elems, e)
		}
	}
	if len(g.elems) == 0 {
		bad(0, "group %q has no tiles", tok)
		return g, errs
	}
	g.suit = uniformSuit(marks)
	if g.suit == noSuit { // D without a suit variable is any one dragon
		for i, e := range g.elems {
			if e.kind == elemDragon {
				g.elems[i].kind = elemAnyDragon
			}
		}
	}
	suited := slices.ContainsFunc(g.elems, element.suited)
	switch {
	case suited && g.suit == noSuit:
		bad(len(tok)-1, "group %q holds numbers or X and needs a suit variable a, b or c at its end", tok)
	case !suited && g.suit != noSuit:
		bad(len(tok)-1, "group %q holds no suited tile; remove the suit variable", tok)
	case g.suit == mixedSuits:
		errs = append(errs, g.giveMixedSuits(tok, off, marks)...)
	default:
		for i := range g.elems {
			if g.elems[i].suited() {
				g.elems[i].suit = g.suit
			}
		}
	}
	return g, errs
}

// suitMark is a suit variable at byte at of a group, after upto of its elements.
type suitMark struct{ suit, at, upto int }

// uniformSuit is the group's one suit variable, noSuit if it has none, or mixedSuits.
func uniformSuit(marks []suitMark) int {
	s := noSuit
	for _, m := range marks {
		if s != noSuit && s != m.suit {
			return mixedSuits
		}
		s = m.suit
	}
	return s
}

// giveMixedSuits gives each suited element of a mixed group the suit variable that follows it.
// A pung inside a mixed group is refused: `111a222b` is almost surely two pungs missing a space,
// and one mixed group would take no joker.
func (g *group) giveMixedSuits(tok string, off int, marks []suitMark) []posError {
	var errs []posError
	from := 0
	for _, m := range marks {
		gave := false
		for i := from; i < m.upto; i++ {
			if g.elems[i].suited() {
				g.elems[i].suit, gave = m.suit, true
			}
		}
		if !gave {
			errs = append(errs, posError{off + m.at, fmt.Sprintf("suit variable %c in group %q follows no number, X or D of its own", 'a'+m.suit, tok)})
		}
		from = m.upto
	}
	for i := from; i < len(g.elems); i++ {
		if g.elems[i].suited() {
			errs = append(errs, posError{off + len(tok) - 1, fmt.Sprintf("group %q mixes suit variables, so its last numbers need one of their own at the end", tok)})
			break
		}
	}
	seen := map[element]int{}
	for _, e := range g.elems {
		if seen[e]++; seen[e] == 3 {
			errs = append(errs, posError{off, fmt.Sprintf("group %q mixes suit variables but holds three of one tile: separate its groups with a space, as in 111a 222b", tok)})
			break
		}
	}
	return errs
}

// letterElems maps element letters to elements.
var letterElems = map[byte]element{
	'D': {kind: elemDragon},
	'Z': {kind: elemAnyWind},
	'R': {kind: elemFace, face: tile.Red},
	'G': {kind: elemFace, face: tile.Green},
	'F': {kind: elemFace, face: tile.Flower},
	'N': {kind: elemFace, face: tile.North},
	'E': {kind: elemFace, face: tile.East},
	'W': {kind: elemFace, face: tile.West},
	'S': {kind: elemFace, face: tile.South},
}

func isLower(c byte) bool { return c >= 'a' && c <= 'z' }

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}
