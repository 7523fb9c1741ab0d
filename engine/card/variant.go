package card

import (
	"slices"
	"strings"

	"github.com/siamesetable/siamesed/engine/tile"
)

// variant is one concrete way to make a hand: suits and X chosen.
type variant struct {
	hand      int32
	need      []need        // sorted by face, one entry a face
	groups    []cgroup      // the concrete groups, for exposures and for printing
	mask      uint64        // faces the variant uses
	fixedMask uint64        // faces that must be natural (singles, pairs, rows)
	faces     [][]tile.Face // the groups' tiles, built once, shared read-only by results
}

// need says how many tiles of a face a variant holds: fixed ones must be natural, jok ones may
// be jokers.
type need struct {
	face       tile.Face
	fixed, jok uint8
}

// cgroup is a concrete group.
type cgroup struct {
	tiles     []tile.Face
	face      tile.Face // the face of an identical group, NoFace for a row of different tiles
	jokerable bool
}

// expand compiles the patterns of hand hi into variants, removing duplicates.
func expand(hi int, pats []pattern, xs []int, flowerJokers bool) []variant {
	var out []variant
	seen := map[string]bool{}
	for _, p := range pats {
		letters := 0
		for _, g := range p.groups {
			if g.suit != noSuit {
				letters = max(letters, g.suit+1)
			}
		}
		bases := []int{0}
		if p.usesX {
			bases = bases[:0]
			for b := 1; b+p.maxOff <= 9; b++ {
				if xs == nil || slices.Contains(xs, b) {
					bases = append(bases, b)
				}
			}
		}
		for _, suits := range suitAssignments(letters) {
			for _, base := range bases {
				v := concrete(hi, p, suits, base, flowerJokers)
				k := v.key()
				if !seen[k] {
					seen[k] = true
					out = append(out, v)
				}
			}
		}
	}
	return out
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

func concrete(hi int, p pattern, suits []tile.Suit, base int, flowerJokers bool) variant {
	v := variant{hand: int32(hi)}
	var fixed, jok tile.Counts
	for _, g := range p.groups {
		cg := cgroup{face: tile.NoFace}
		for _, e := range g.elems {
			cg.tiles = append(cg.tiles, e.resolve(g.suit, suits, base))
		}
		if len(cg.tiles) >= 3 && g.identical() {
			cg.face = cg.tiles[0]
			cg.jokerable = cg.face != tile.Flower || flowerJokers
		}
		for _, f := range cg.tiles {
			if cg.jokerable {
				jok[f]++
			} else {
				fixed[f]++
			}
		}
		v.groups = append(v.groups, cg)
		v.faces = append(v.faces, cg.tiles)
	}
	for f := tile.Face(0); f < tile.NumFaces; f++ {
		if fixed[f]+jok[f] > 0 {
			v.need = append(v.need, need{face: f, fixed: fixed[f], jok: jok[f]})
			v.mask |= 1 << f
			if fixed[f] > 0 {
				v.fixedMask |= 1 << f
			}
		}
	}
	return v
}

func (e element) resolve(suitVar int, suits []tile.Suit, base int) tile.Face {
	switch e.kind {
	case elemNumber:
		return tile.Number(suits[suitVar], e.n)
	case elemX:
		return tile.Number(suits[suitVar], base+e.n)
	case elemDragon:
		return suits[suitVar].Dragon()
	}
	return e.face
}

// key identifies a variant by its groups regardless of their order.
func (v variant) key() string {
	parts := make([]string, len(v.groups))
	for i, g := range v.groups {
		parts[i] = tile.Format(g.tiles)
		if g.jokerable {
			parts[i] += "*"
		}
	}
	slices.Sort(parts)
	return strings.Join(parts, "|")
}

// groupFaces returns the concrete groups as tile lists. They are shared by every result that
// names this variant: callers must not modify them.
func (v *variant) groupFaces() [][]tile.Face { return v.faces }
