package classify

import (
	"encoding/json"
	"math"
	"testing"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/engine/tile"
)

// fixedEmbedder gives every crop the vector next holds, so a test sets exactly how near a crop
// is to each enrolled example, and, when noTile is set, that cosine to "no tile".
type fixedEmbedder struct {
	next   []float32
	noTile *float32
}

func (f *fixedEmbedder) embed(crops []gocv.Mat, half bool) (embedding, error) {
	var e embedding
	for range crops {
		e.ups = append(e.ups, f.next)
		if half {
			e.downs = append(e.downs, f.next)
		}
		if f.noTile != nil {
			e.none = append(e.none, *f.noTile)
		}
	}
	return e, nil
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

// A crop the network holds to be like no tile at all is not known, too far, however near an
// enrolled example it lies: at MaxNone and above, not just under it. Without the network's "no
// tile" class (nil), or with MaxNone 0, only the distances decide.
func TestKnownFollowsTheNoTileClass(t *testing.T) {
	emb := &fixedEmbedder{next: []float32{1, 0, 0, 0}}
	c := &Classifier{Threshold: 0.2, MinSimilarity: 0.6, MaxNone: 0.4, emb: emb, nearest: 1}
	crop := gocv.NewMatWithSize(8, 6, gocv.MatTypeCV8UC3)
	defer crop.Close()
	if err := c.Enrol(tile.Bam1, crop); err != nil {
		t.Fatal(err)
	}
	emb.next = []float32{0, 1, 0, 0}
	if err := c.Enrol(tile.Bam2, crop); err != nil {
		t.Fatal(err)
	}
	emb.next = []float32{1, 0, 0, 0} // identical to an enrolled 1B
	f := func(v float32) *float32 { return &v }
	for _, tc := range []struct {
		name    string
		noTile  *float32
		maxNone float32
		known   bool
	}{
		{"no class", nil, 0.4, true},
		{"far from no tile", f(-0.2), 0.4, true},
		{"just under MaxNone", f(0.399), 0.4, true},
		{"at MaxNone", f(0.4), 0.4, false},
		{"like no tile", f(0.9), 0.4, false},
		{"like no tile, MaxNone unset", f(0.9), 0, true},
	} {
		emb.noTile, c.MaxNone = tc.noTile, tc.maxNone
		r, err := c.Classify(crop)
		if err != nil {
			t.Fatal(err)
		}
		wantWhy := None
		if !tc.known {
			wantWhy = TooFar
		}
		if r.Known != tc.known || r.Why != wantWhy || r.Face != tile.Bam1 {
			t.Errorf("%s: %v known %v (%v), no tile %v; want 1B known %v", tc.name, r.Face, r.Known, r.Why, r.NoTile, tc.known)
		}
		if tc.noTile == nil && !math.IsNaN(float64(r.NoTile)) || tc.noTile != nil && r.NoTile != *tc.noTile {
			t.Errorf("%s: NoTile %v, want %v", tc.name, r.NoTile, tc.noTile)
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
