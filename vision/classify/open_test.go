package classify

import (
	"encoding/json"
	"math"
	"testing"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/engine/tile"
)

// fixedEmbedder gives every crop the vector next holds, so a test sets exactly how near a crop
// is to each enrolled example.
type fixedEmbedder struct{ next []float32 }

func (f *fixedEmbedder) embed(crops []gocv.Mat, half bool) (ups, downs [][]float32, err error) {
	for range crops {
		ups = append(ups, f.next)
		if half {
			downs = append(downs, f.next)
		}
	}
	return ups, downs, nil
}

func (f *fixedEmbedder) close() error { return nil }

// unit returns the unit vector at cosine c to e0, in the plane of e0 and e(k).
func unit(c float32, k int) []float32 {
	v := make([]float32, 4)
	v[0] = c
	v[k] = float32(math.Sqrt(float64(1 - c*c)))
	return v
}

// Each threshold decides, on its own side, and Why names the one that did: an example at
// exactly the limit is known, just under it is not.
func TestKnownFollowsBothThresholds(t *testing.T) {
	emb := &fixedEmbedder{}
	c := &Classifier{Threshold: 0.2, MinSimilarity: 0.6, emb: emb, nearest: 1}
	crop := gocv.NewMatWithSize(8, 6, gocv.MatTypeCV8UC3)
	defer crop.Close()
	// Bam1 enrolled along e0, Bam2 along e1 (similarity 0 to each other).
	emb.next = []float32{1, 0, 0, 0}
	if err := c.Enrol(tile.Bam1, crop); err != nil {
		t.Fatal(err)
	}
	emb.next = []float32{0, 1, 0, 0}
	if err := c.Enrol(tile.Bam2, crop); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		vec   []float32
		known bool
		why   Reason
	}{
		{"identical to 1B", []float32{1, 0, 0, 0}, true, None},
		{"just above MinSimilarity, away from 2B", unit(0.61, 2), true, None},
		{"just below MinSimilarity", unit(0.59, 2), false, TooFar},
		{"far from both", []float32{0, 0, 0, 1}, false, TooFar},
		// s1 0.8, s2 0.6: confidence 1-0.2/0.4 = 0.5, known
		{"near 1B, further from 2B", []float32{0.8, 0.6, 0, 0}, true, None},
		// s1 0.72, s2 0.69: confidence 1-0.28/0.31 = 0.097 < 0.2
		{"between 1B and 2B", []float32{0.72, 0.69, 0, 0.0824}, false, TooClose},
	} {
		emb.next = tc.vec
		normalise(emb.next)
		r, err := c.Classify(crop)
		if err != nil {
			t.Fatal(err)
		}
		if r.Known != tc.known || r.Why != tc.why || r.Face != tile.Bam1 {
			t.Errorf("%s: got %v known %v (%v), similarity %.3f, confidence %.3f; want 1B known %v (%v)",
				tc.name, r.Face, r.Known, r.Why, r.Similarity, r.Confidence, tc.known, tc.why)
		}
	}
}

func TestReasonJSON(t *testing.T) {
	b, err := json.Marshal([]Reason{None, TooFar, TooClose})
	if err != nil || string(b) != `["known","far","close"]` {
		t.Errorf("got %s, %v", b, err)
	}
	if _, err := json.Marshal(Reason(7)); err == nil {
		t.Error("marshalled an unknown reason")
	}
}
