package card

import (
	"slices"

	"github.com/siamesetable/siamesed/engine/tile"
)

// maxCombinations bounds how many concrete hands one hand's patterns may stand for before
// duplicates are removed, so that a pasted line such as fourteen Z groups (4^14 hands) is
// refused with a message instead of exhausting memory.
const maxCombinations = 20_000

var (
	allWinds   = []tile.Face{tile.East, tile.South, tile.West, tile.North}
	allDragons = []tile.Face{tile.Red, tile.Green, tile.White}
	noChoice   = []tile.Face{tile.NoFace}
)

// combinations is how many concrete hands the pattern stands for before duplicates are
// removed: every alternative, suit assignment, base X, wind and dragon. It saturates just
// above maxCombinations.
func (p *pattern) combinations() int {
	n := 6 * len(p.bases()) // at most 6 ways to give suit letters suits
	for _, c := range p.choices {
		alts := 0
		for _, g := range c.alts {
			alts += len(windsOf(g)) * len(dragonsOf(g))
		}
		n = min(n*alts, maxCombinations+1)
	}
	return n
}

// bases lists the values X may take: every base whose offsets stay within 1..9 (and in xs,
// if given), or just 0 for a pattern without X.
func (p *pattern) bases() []int {
	if !p.usesX {
		return []int{0}
	}
	var out []int
	for b := 1; b+p.maxOff <= 9; b++ {
		if p.xs == nil || slices.Contains(p.xs, b) {
			out = append(out, b)
		}
	}
	return out
}

func windsOf(g group) []tile.Face {
	if g.has(elemAnyWind) {
		return allWinds
	}
	return noChoice
}

func dragonsOf(g group) []tile.Face {
	if g.has(elemAnyDragon) {
		return allDragons
	}
	return noChoice
}

// eachConcrete calls f with every concrete hand the pattern stands for, as the tiles of each
// group. f must not keep the slices it is given.
func (p *pattern) eachConcrete(f func([][]tile.Face)) {
	picked := make([]group, len(p.choices))
	var pick func(i int)
	pick = func(i int) {
		if i < len(p.choices) {
			for _, g := range p.choices[i].alts {
				picked[i] = g
				pick(i + 1)
			}
			return
		}
		letters := 0
		for _, g := range picked {
			letters = max(letters, g.letters())
		}
		for _, suits := range suitAssignments(letters) {
			for _, base := range p.bases() {
				resolveGroups(picked, suits, base, f)
			}
		}
	}
	pick(0)
}

// resolveGroups turns groups into tiles for one choice of suits and base, calling f once for
// every choice of each group's wind (Z) and dragon (suitless D).
func resolveGroups(gs []group, suits []tile.Suit, base int, f func([][]tile.Face)) {
	out := make([][]tile.Face, len(gs))
	var rec func(i int)
	rec = func(i int) {
		if i == len(gs) {
			f(out)
			return
		}
		g := gs[i]
		ts := make([]tile.Face, len(g.elems))
		for _, wind := range windsOf(g) {
			for _, dragon := range dragonsOf(g) {
				for k, e := range g.elems {
					ts[k] = e.resolve(suits, base, wind, dragon)
				}
				out[i] = ts
				rec(i + 1)
			}
		}
	}
	rec(0)
}

func (e element) resolve(suits []tile.Suit, base int, wind, dragon tile.Face) tile.Face {
	switch e.kind {
	case elemNumber:
		return tile.Number(suits[e.suit], e.n)
	case elemX:
		return tile.Number(suits[e.suit], base+e.n)
	case elemDragon:
		return suits[e.suit].Dragon()
	case elemAnyWind:
		return wind
	case elemAnyDragon:
		return dragon
	}
	return e.face
}

// suitAssignments lists every injective map from n suit variables to suits.
func suitAssignments(n int) [][]tile.Suit {
	all := [][]tile.Suit{{}}
	for i := 0; i < n; i++ {
		var next [][]tile.Suit
		for _, a := range all {
			for s := tile.Suit(0); s < tile.NumSuits; s++ {
				if !slices.Contains(a, s) {
					next = append(next, append(slices.Clone(a), s))
				}
			}
		}
		all = next
	}
	return all
}
