package enrol

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/vision/classify"
	"github.com/siamesetable/siamesed/vision/labels"
)

// LookAlike is two enrolled faces the model holds alike: their closest crops, and how alike
// (classify.Example.Similarity).
type LookAlike struct {
	A, B           tile.Face
	ImageA, ImageB string
	Similarity     float32
}

func (l LookAlike) String() string {
	return fmt.Sprintf("%v and %v look alike to the model (similarity %.2f; crops %s and %s)", l.A, l.B, l.Similarity, l.ImageA, l.ImageB)
}

// LookAlikes embeds every crop of the enrolment folder dir with c's model and returns each pair
// of different faces whose closest crops are at least limit alike, most alike first. A crop of
// one may then be answered as the other: enrol a clearer crop of each, or check the set's tiles.
func LookAlikes(c *classify.Classifier, dir string, items []labels.Item, limit float32) ([]LookAlike, error) {
	exs, _, err := embed(c, dir, items, false)
	if err != nil {
		return nil, err
	}
	return lookAlikes(exs, items, limit), nil
}

// lookAlikes are the pairs of different faces whose closest examples are at least limit alike.
func lookAlikes(exs []classify.Example, items []labels.Item, limit float32) []LookAlike {
	closest := map[[2]tile.Face]LookAlike{}
	for i := range items {
		for j := i + 1; j < len(items); j++ {
			a, b := i, j
			if items[a].Tile == items[b].Tile {
				continue
			}
			if items[a].Tile > items[b].Tile {
				a, b = b, a
			}
			key := [2]tile.Face{items[a].Tile, items[b].Tile}
			s := exs[a].Similarity(exs[b])
			if cur, ok := closest[key]; s >= limit && (!ok || s > cur.Similarity) {
				closest[key] = LookAlike{A: key[0], B: key[1], ImageA: items[a].Image, ImageB: items[b].Image, Similarity: s}
			}
		}
	}
	out := make([]LookAlike, 0, len(closest))
	for _, l := range closest {
		out = append(out, l)
	}
	slices.SortFunc(out, func(x, y LookAlike) int {
		return cmp.Or(cmp.Compare(y.Similarity, x.Similarity), cmp.Compare(x.A, y.A), cmp.Compare(x.B, y.B))
	})
	return out
}
