package card

import (
	"bytes"
	"slices"

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

// jokerRule says which groups of three or more identical tiles take jokers: any (false for a
// card written for a set without jokers), and flower groups among them.
type jokerRule struct{ any, flowers bool }

// expand compiles the patterns of hand hi into variants, removing duplicates.
func expand(hi int, pats []pattern, jokers jokerRule) []variant {
	var out []variant
	seen := map[string]bool{}
	for pi := range pats {
		pats[pi].eachConcrete(func(groups [][]tile.Face) {
			if k := concreteKey(groups); !seen[k] {
				seen[k] = true
				out = append(out, concrete(hi, groups, jokers))
			}
		})
	}
	return out
}

// concrete builds the variant made of these groups. A group of three or more identical tiles
// is a pung, kong, quint or sextet, the only place a joker may stand (flowers only when the
// card allows it, and nowhere on a card without jokers).
func concrete(hi int, groups [][]tile.Face, jokers jokerRule) variant {
	v := variant{hand: int32(hi)}
	var fixed, jok tile.Counts
	for _, ts := range groups {
		cg := cgroup{tiles: slices.Clone(ts), face: tile.NoFace}
		if identical(ts) {
			cg.face = ts[0]
			cg.jokerable = jokers.any && (cg.face != tile.Flower || jokers.flowers)
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

// identical reports whether ts is three or more of one tile.
func identical(ts []tile.Face) bool {
	if len(ts) < 3 {
		return false
	}
	for _, f := range ts[1:] {
		if f != ts[0] {
			return false
		}
	}
	return true
}

// concreteKey identifies a concrete hand by its groups regardless of their order (whether a
// group takes jokers follows from its tiles). Faces are bytes; 0xff ends a group.
func concreteKey(groups [][]tile.Face) string {
	var buf [4 * 14]byte
	parts := make([][]byte, len(groups))
	b := buf[:0]
	for i, g := range groups {
		start := len(b)
		for _, f := range g {
			b = append(b, byte(f))
		}
		b = append(b, 0xff)
		parts[i] = b[start:len(b):len(b)]
	}
	slices.SortFunc(parts, bytes.Compare)
	return string(bytes.Join(parts, nil))
}

// groupFaces returns the concrete groups as tile lists. They are shared by every result that
// names this variant: callers must not modify them.
func (v *variant) groupFaces() [][]tile.Face { return v.faces }
