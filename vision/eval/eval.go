// Package eval measures the classifier on labelled crops: top-1 accuracy at each of the four
// rotations, the time per crop and the most confused pairs.
package eval

import (
	"cmp"
	"fmt"
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
}

// Pair is a confusion: Want taken for Got, Count times.
type Pair struct {
	Want  tile.Face `json:"want"`
	Got   tile.Face `json:"got"`
	Count int       `json:"count"`
}

// Run enrols c on nothing new; it classifies every test item from dir at every rotation.
func Run(c *classify.Classifier, dir string, test []labels.Item) (Report, error) {
	r := Report{Images: len(test), Enrolled: c.Len(), ByRotation: map[int]float64{}}
	confused := map[[2]tile.Face]int{}
	var times []time.Duration
	var right, known, knownRight int
	perRot := map[int]int{}
	rot := gocv.NewMat()
	defer rot.Close()
	for _, it := range test {
		m, err := classify.ReadCrop(dir, it)
		if err != nil {
			return Report{}, fmt.Errorf("eval: %w", err)
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
	if r.N == 0 {
		return r, nil
	}
	r.Accuracy = float64(right) / float64(r.N)
	for _, deg := range Rotations {
		r.ByRotation[deg] = float64(perRot[deg]) / float64(len(test))
	}
	r.Known = float64(known) / float64(r.N)
	if known > 0 {
		r.KnownAcc = float64(knownRight) / float64(known)
	}
	slices.Sort(times)
	r.MedianMS = ms(times[len(times)/2])
	r.P99MS = ms(times[min(len(times)-1, len(times)*99/100)])
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
