package labels

import (
	"slices"

	"github.com/siamesetable/siamesed/engine/tile"
)

// Required are the faces a table must enrol before play: every face its card uses and the
// joker, which the card never names but every American set holds. A face never enrolled is
// answered unknown at best, so the table would ask about every one of them.
func Required(cardFaces []tile.Face) []tile.Face {
	out := slices.Clone(cardFaces)
	if !slices.Contains(out, tile.Joker) {
		out = append(out, tile.Joker)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Missing are the faces of want not in have, in want's order, each once.
func Missing(have, want []tile.Face) []tile.Face {
	var out []tile.Face
	for _, f := range want {
		if !slices.Contains(have, f) && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}
