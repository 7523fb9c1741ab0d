// Package eval measures the classifier on labelled crops: top-1 accuracy at each of the four
// rotations, the time per crop and the most confused pairs.
package eval

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/vision/classify"
	"github.com/siamesetable/siamesed/vision/labels"
)

// Rotations are the quarter turns every test crop is tried at.
var Rotations = []int{0, 90, 180, 270}

// Report is the outcome of an evaluation; its JSON is the last line of `siamesed vision eval`.
type Report struct {
	Accuracy   float64         `json:"accuracy"`    // top-1, over every crop at every rotation
	N          int             `json:"n"`           // crops classified (test images x rotations)
	Images     int             `json:"images"`      // test images
	Enrolled   int             `json:"enrolled"`    // enrolment images
	ByRotation map[int]float64 `json:"by_rotation"` // accuracy per rotation in degrees
	Known      float64         `json:"known"`       // share answered (confidence >= threshold)
	KnownAcc   float64         `json:"known_accuracy"`
	MedianMS   float64         `json:"median_ms"` // classification time per crop
	P99MS      float64         `json:"p99_ms"`
	Confused   []Pair          `json:"confused,omitempty"`
	// NoTile is how like "no tile" the network held the test crops (Result.NoTile), when it
	// has that class: for choosing MaxNone against the non-tiles' own (OpenSetResult.NoTile).
	NoTile *Spread `json:"no_tile,omitempty"`
}

// Spread is the distribution of a measure over crops.
type Spread struct {
	Min float64 `json:"min"`
	P1  float64 `json:"p1"`
	P50 float64 `json:"p50"`
	P99 float64 `json:"p99"`
	Max float64 `json:"max"`
}

// spreadOf is the spread of xs (NaNs left out: an embedder without the measure); nil when none
// is left.
func spreadOf(xs []float64) *Spread {
	xs = slices.DeleteFunc(slices.Clone(xs), math.IsNaN)
	if len(xs) == 0 {
		return nil
	}
	slices.Sort(xs)
	return &Spread{Min: xs[0], P1: at(xs, 0.01), P50: at(xs, 0.5), P99: at(xs, 0.99), Max: xs[len(xs)-1]}
}

// at is the q quantile (0 to 1) of sorted, which is not empty: the element a share q of the
// others lie below.
func at[T cmp.Ordered](sorted []T, q float64) T {
	return sorted[min(len(sorted)-1, int(q*float64(len(sorted))))]
}

// Pair is a confusion: Want taken for Got, Count times, Known of them answered with confidence
// (counted by the leave-one-out measurements only).
type Pair struct {
	Want  tile.Face `json:"want"`
	Got   tile.Face `json:"got"`
	Count int       `json:"count"`
	Known int       `json:"known,omitempty"`
}

// Run enrols c on nothing new; it classifies every test item from dir at every rotation.
func Run(c *classify.Classifier, dir string, test []labels.Item) (Report, error) {
	r := Report{Images: len(test), Enrolled: c.Len(), ByRotation: map[int]float64{}}
	confused := map[[2]tile.Face]int{}
	var times []time.Duration
	var noTile []float64
	var right, known, knownRight int
	perRot := map[int]int{}
	rot := gocv.NewMat()
	defer rot.Close()
	var unreadable []error
	for _, it := range test {
		m, err := classify.ReadCrop(dir, it)
		if err != nil {
			unreadable = append(unreadable, err) // every one is named, as enrol does
			continue
		}
		for _, deg := range Rotations {
			src := m
			if deg != 0 {
				gocv.Rotate(m, &rot, rotFlag(deg))
				src = rot
			}
			t0 := time.Now()
			res, err := c.Classify(src)
			times = append(times, time.Since(t0))
			if err != nil {
				m.Close()
				return Report{}, fmt.Errorf("eval: %s: %w", it.Image, err)
			}
			r.N++
			noTile = append(noTile, float64(res.NoTile))
			ok := res.Face == it.Tile
			if ok {
				right++
				perRot[deg]++
			} else {
				confused[[2]tile.Face{it.Tile, res.Face}]++
			}
			if res.Known {
				known++
				if ok {
					knownRight++
				}
			}
		}
		m.Close()
	}
	if len(unreadable) > 0 {
		return Report{}, fmt.Errorf("eval: %d of %d images cannot be read: %w", len(unreadable), len(test), errors.Join(unreadable...))
	}
	if r.N == 0 {
		return r, nil
	}
	r.Accuracy = float64(right) / float64(r.N)
	for _, deg := range Rotations {
		r.ByRotation[deg] = float64(perRot[deg]) / float64(len(test))
	}
	r.Known = float64(known) / float64(r.N)
	r.NoTile = spreadOf(noTile)
	if known > 0 {
		r.KnownAcc = float64(knownRight) / float64(known)
	}
	slices.Sort(times)
	r.MedianMS, r.P99MS = ms(at(times, 0.5)), ms(at(times, 0.99))
	for k, n := range confused {
		r.Confused = append(r.Confused, Pair{Want: k[0], Got: k[1], Count: n})
	}
	slices.SortFunc(r.Confused, func(a, b Pair) int {
		return cmp.Or(b.Count-a.Count, cmp.Compare(a.Want, b.Want), cmp.Compare(a.Got, b.Got))
	})
	return r, nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func rotFlag(deg int) gocv.RotateFlag {
	switch deg {
	case 90:
		return gocv.Rotate90Clockwise
	case 180:
		return gocv.Rotate180Clockwise
	default:
		return gocv.Rotate90CounterClockwise
	}
}
