package card

// The oracle's own reading of the pattern notation, from docs/card-language.md, sharing no code
// with the parser: a pattern is tokens separated by spaces; a token is alternatives separated
// by |; an alternative is a group, its last letter a suit variable a, b or c when it has one.
// It tries every alternative of every token, every injective map of a, b, c to suits, every
// base X in 1..9, every wind for a group's Z and every dragon for a group's suitless D, and
// keeps each concrete hand once.

import (
	"slices"
	"strings"
	"testing"

	"github.com/siamesetable/siamesed/engine/tile"
)

var oSuitPerms = [][3]tile.Suit{
	{tile.Bams, tile.Craks, tile.Dots}, {tile.Bams, tile.Dots, tile.Craks},
	{tile.Craks, tile.Bams, tile.Dots}, {tile.Craks, tile.Dots, tile.Bams},
	{tile.Dots, tile.Bams, tile.Craks}, {tile.Dots, tile.Craks, tile.Bams},
}

// oSuitDragon is the dragon of each suit: green with bams, red with craks, white with dots.
var oSuitDragon = map[tile.Suit]tile.Face{tile.Bams: tile.Green, tile.Craks: tile.Red, tile.Dots: tile.White}

// oracleExpand turns one pattern into every concrete hand it stands for.
func oracleExpand(t testing.TB, s string, xs []int, jokers oJokers) []oVariant {
	var tokens [][]string
	for _, tok := range strings.Fields(s) {
		tokens = append(tokens, strings.Split(tok, "|"))
	}
	bases := []int{0}
	if strings.ContainsAny(s, "Xx") {
		bases = nil
		for x := 1; x <= 9; x++ {
			if xs == nil || slices.Contains(xs, x) {
				bases = append(bases, x)
			}
		}
	}
	var out []oVariant
	seen := map[string]bool{}
	picked := make([]string, len(tokens))
	var pick func(i int)
	pick = func(i int) {
		if i < len(tokens) {
			for _, alt := range tokens[i] {
				picked[i] = alt
				pick(i + 1)
			}
			return
		}
		for _, perm := range oSuitPerms {
			for _, x := range bases {
				oChooseHonours(t, picked, perm, x, nil, func(groups [][]tile.Face) {
					v := oVariantOf(groups, jokers)
					if k := oKey(groups); !seen[k] {
						seen[k] = true
						out = append(out, v)
					}
				})
			}
		}
	}
	pick(0)
	return out
}

// oChooseHonours resolves groups[len(done):] one by one, trying every wind for a group's Z
// and every dragon for its suitless D, and calls f with each complete hand. A group whose
// X+offset leaves 1..9 ends that branch.
func oChooseHonours(t testing.TB, groups []string, perm [3]tile.Suit, x int, done [][]tile.Face, f func([][]tile.Face)) {
	if len(done) == len(groups) {
		f(done)
		return
	}
	g := groups[len(done)]
	winds, dragons := []tile.Face{tile.NoFace}, []tile.Face{tile.NoFace}
	if strings.ContainsAny(g, "Zz") {
		winds = []tile.Face{tile.North, tile.East, tile.West, tile.South}
	}
	if last := g[len(g)-1]; strings.ContainsAny(g, "Dd") && (last < 'a' || last > 'c') {
		dragons = []tile.Face{tile.Red, tile.Green, tile.White}
	}
	for _, w := range winds {
		for _, d := range dragons {
			if ts, ok := oResolve(t, g, perm, x, w, d); ok {
				oChooseHonours(t, groups, perm, x, append(done[:len(done):len(done)], ts), f)
			}
		}
	}
}

// oResolve reads one group for a choice of suits, base, wind and dragon.
func oResolve(t testing.TB, g string, perm [3]tile.Suit, x int, wind, dragon tile.Face) ([]tile.Face, bool) {
	letters := oSuitLetters(g)
	var ts []tile.Face
	for i := 0; i < len(g); i++ {
		c := g[i]
		if c >= 'a' && c <= 'c' {
			continue // a suit variable, read by oSuitLetters
		}
		if c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		suit, suited := tile.Suit(0), letters[i] != 0
		if suited {
			suit = perm[letters[i]-'a']
		}
		switch {
		case c == 'X':
			run := 0
			for ; g[i] == 'X' || g[i] == 'x'; i++ {
				run++
			}
			n := x + int(g[i]-'0')
			if n > 9 {
				return nil, false
			}
			for ; run > 0; run-- {
				ts = append(ts, tile.Number(perm[letters[i]-'a'], n))
			}
		case c >= '1' && c <= '9':
			ts = append(ts, tile.Number(suit, int(c-'0')))
		case c == '0':
			ts = append(ts, tile.White)
		case c == 'D' && suited:
			ts = append(ts, oSuitDragon[suit])
		case c == 'D':
			ts = append(ts, dragon)
		case c == 'Z':
			ts = append(ts, wind)
		default:
			f, ok := map[byte]tile.Face{'R': tile.Red, 'G': tile.Green, 'F': tile.Flower, 'N': tile.North, 'E': tile.East, 'W': tile.West, 'S': tile.South}[c]
			if !ok {
				t.Fatalf("oracle: unknown element %q in group %q", c, g)
			}
			ts = append(ts, f)
		}
	}
	return ts, true
}

// oSuitLetters says, for each byte of a group, which suit variable its tile takes (0: none).
// The spec: a group with one suit variable, at its end or repeated inside, gives it to every
// number, X and D; a group with different ones (a mixed chow, 1a2b3c) gives each one to the
// numbers before it since the one before.
func oSuitLetters(g string) []byte {
	out := make([]byte, len(g))
	distinct := map[byte]bool{}
	next := byte(0)
	for i := len(g) - 1; i >= 0; i-- {
		if g[i] >= 'a' && g[i] <= 'c' {
			next = g[i]
			distinct[next] = true
		}
		out[i] = next
	}
	if len(distinct) == 1 {
		for i := range out {
			out[i] = next
		}
	}
	return out
}

// oJokers is what a card file says about jokers: flower_jokers, and jokers (false: none at all).
type oJokers struct{ flowers, none bool }

// oVariantOf builds the oracle's concrete hand: jokers stand in a group of three or more
// identical tiles (the spec's words), flower groups only when the card allows it, and nowhere
// on a card with jokers: false.
func oVariantOf(groups [][]tile.Face, jokers oJokers) oVariant {
	var v oVariant
	for _, ts := range groups {
		og := oGroup{tiles: slices.Clone(ts), jok: len(ts) >= 3 && !jokers.none}
		for _, f := range ts {
			og.jok = og.jok && f == ts[0]
			v.faces |= 1 << f
		}
		if ts[0] == tile.Flower && !jokers.flowers {
			og.jok = false
		}
		v.groups = append(v.groups, og)
	}
	return v
}

// oKey names a concrete hand by its groups in any order.
func oKey(groups [][]tile.Face) string {
	parts := make([]string, len(groups))
	for i, g := range groups {
		parts[i] = tile.Format(g)
	}
	slices.Sort(parts)
	return strings.Join(parts, "|")
}
