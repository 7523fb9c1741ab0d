package eval

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/vision/classify"
	"github.com/siamesetable/siamesed/vision/labels"
	"github.com/siamesetable/siamesed/vision/synth"
)

// OpenSetResult is how a kind of non-tile crop fared: every crop at every rotation should be
// answered not Known.
type OpenSetResult struct {
	Kind     string  `json:"kind"`
	N        int     `json:"n"`
	Rejected float64 `json:"rejected"`          // share not Known
	Far      int     `json:"far"`               // rejected as too far from every face
	Close    int     `json:"close"`             // rejected as too close to a runner-up
	NoTile   *Spread `json:"no_tile,omitempty"` // how like "no tile" the network held them
}

// NonTiles draws perKind crops of each of synth.NonTileKinds, "tile patch" crops (a third to
// half of a tile photo from dir's items, blown up) and, for each image in others, "photo patch"
// crops (tile-shaped windows of photos of other things). The caller closes the crops.
func NonTiles(perKind int, seed uint64, dir string, items []labels.Item, others []gocv.Mat) (map[string][]gocv.Mat, error) {
	rng := rand.New(rand.NewPCG(seed, 0xbad))
	out := map[string][]gocv.Mat{}
	for _, k := range synth.NonTileKinds {
		for range perKind {
			m, err := synth.NonTile(k, rng)
			if err != nil {
				return nil, err
			}
			out[k] = append(out[k], m)
		}
	}
	for i := range min(perKind, len(items)) {
		it := items[rng.IntN(len(items))]
		if i%2 == 1 {
			it = items[i%len(items)]
		}
		m, err := classify.ReadCrop(dir, it)
		if err != nil {
			return nil, fmt.Errorf("eval: %w", err)
		}
		p, err := synth.PhotoPatch(m, rng, 0.33, 0.5)
		m.Close()
		if err != nil {
			return nil, err
		}
		out["tile patch"] = append(out["tile patch"], p)
	}
	for _, img := range others {
		for range max(1, perKind/max(1, len(others))) {
			p, err := synth.PhotoPatch(img, rng, 0.15, 1)
			if err != nil {
				return nil, err
			}
			out["photo patch"] = append(out["photo patch"], p)
		}
	}
	return out, nil
}

// RunOpenSet classifies every crop at every rotation and counts those not answered Known, per kind
// (sorted) and, last, all together.
func RunOpenSet(c *classify.Classifier, crops map[string][]gocv.Mat) ([]OpenSetResult, error) {
	kinds := make([]string, 0, len(crops))
	for k := range crops {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	all := OpenSetResult{Kind: "all"}
	var out []OpenSetResult
	var allNoTile []float64
	for _, k := range kinds {
		r := OpenSetResult{Kind: k}
		var noTile []float64
		for _, m := range crops[k] {
			for _, deg := range Rotations {
				res, err := classifyTurned(c, m, deg)
				if err != nil {
					return nil, fmt.Errorf("eval: %s: %w", k, err)
				}
				r.N++
				noTile = append(noTile, float64(res.NoTile))
				switch res.Why {
				case classify.TooFar:
					r.Far++
				case classify.TooClose:
					r.Close++
				}
			}
		}
		all.N, all.Far, all.Close = all.N+r.N, all.Far+r.Far, all.Close+r.Close
		r.NoTile = spreadOf(noTile)
		allNoTile = append(allNoTile, noTile...)
		out = append(out, r.share())
	}
	all.NoTile = spreadOf(allNoTile)
	return append(out, all.share()), nil
}

func (r OpenSetResult) share() OpenSetResult {
	if r.N > 0 {
		r.Rejected = float64(r.Far+r.Close) / float64(r.N)
	}
	return r
}
