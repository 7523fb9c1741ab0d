// Package classify recognises tile faces in canonical crops. It enrols from example crops of the
// table's own set (a few of each face) and answers by nearest neighbours over vectors of the crops,
// with a confidence; below the threshold the answer is Unknown and the table asks the players.
// The vectors come from a small convolutional network (NewNet; the model is built in, see
// train/README.md) or from hand-made features (New).
package classify

import (
	"errors"
	"fmt"
	"math"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/engine/tile"
)

// ErrNotEnrolled is returned by Classify before any example is enrolled.
var ErrNotEnrolled = errors.New("classify: nothing enrolled")

// DefaultThreshold is the confidence below which New's answer is unknown (NetThreshold for NewNet).
const DefaultThreshold = 0.04

// DefaultMinSimilarity is the similarity to the nearest enrolled example below which New's answer
// is unknown (NetMinSimilarity for NewNet).
const DefaultMinSimilarity = 0.5

type example struct {
	face tile.Face
	vec  [2][]float32 // upright and half a turn
}

// embedder turns crops into unit-length vectors, one per crop, in one pass (the network takes
// them as a batch).
type embedder interface {
	embed(crops []gocv.Mat, half bool) (embedding, error)
	close() error
}

// embedding is what an embedder makes of a batch of crops.
type embedding struct {
	// ups are the crops at their orientation (a landscape crop is first turned a quarter
	// clockwise); downs, when asked for, the same half a turn round.
	ups, downs [][]float32
	// none is each crop's cosine to the network's "no tile" class (NoneOutput); nil when the
	// embedder has none (the hand-made features, a model without the output).
	none []float32
	// faces are each crop's cosines to the network's face classes (FacesOutput); nil when the
	// embedder has none.
	faces [][]float32
}

// Classifier holds the enrolled examples; make one with NewNet or New. It is not safe for
// concurrent use.
type Classifier struct {
	// Threshold is the confidence (the margin over the runner-up face) below which Result.Known
	// is false: the crop is too close to two faces.
	Threshold float32
	// MinSimilarity is the similarity to the nearest enrolled example below which Result.Known is
	// false: the crop is too far from every enrolled face (a hand, the felt, a tile back, a face
	// that was never enrolled).
	MinSimilarity float32
	// MaxNone is the cosine to the network's "no tile" class (Result.NoTile) at or above which
	// Result.Known is false, too far: the crop is like no tile face at all, however near an
	// enrolled crop lies (an enrolled photo the network sees as little like a tile draws every
	// non-tile to it). 0 or less, or an embedder without the class: not used.
	MaxNone float32
	// KindLead: when the network takes a crop for a kind of face (Result.Kind) the table never
	// enrolled, by at least this much more than for the answer's face (their cosines to the
	// face classes), Result.Known is false, too far: a face never enrolled is not named as the
	// enrolled face nearest it. Below 0, or an embedder without the face classes: not used.
	KindLead float32
	// Views: a crop to classify is embedded through each of these and the vectors averaged; nil
	// means the crop as it is. Set before classifying.
	Views []View
	// EnrolViews: an enrolled crop is kept once for each of these, so that each face has more
	// neighbours; nil means the crop as it is. Set before enrolling.
	EnrolViews []View
	emb        embedder
	// nearest is the weight of a face's nearest example in its score; the second nearest gets
	// the rest.
	nearest  float32
	examples []example
	crops    int                 // enrolled crops; examples has one per crop and enrolment view
	enrolled [tile.NumFaces]bool // the faces with an example
}

// New returns an empty classifier on hand-made features (HOG, ink layout, colour) with the
// default threshold. NewNet is far more accurate on sets it was not shown; New needs no model.
func New() *Classifier {
	return &Classifier{Threshold: DefaultThreshold, MinSimilarity: DefaultMinSimilarity, KindLead: -1, emb: featureEmbedder{}, nearest: 0.7}
}

// Close frees the network, if any.
func (c *Classifier) Close() error { return c.emb.close() }

type featureEmbedder struct{}

func (featureEmbedder) embed(crops []gocv.Mat, half bool) (embedding, error) {
	var e embedding
	for _, m := range crops {
		u, d, err := Features(m)
		if err != nil {
			return embedding{}, err
		}
		e.ups = append(e.ups, u)
		if half {
			e.downs = append(e.downs, d)
		}
	}
	return e, nil
}

func (featureEmbedder) close() error { return nil }

// Result is one classification. When Known is false the table asks the players, and Why says
// what to ask: "which tile is this?" (TooFar) or "is this Face or Runner?" (TooClose).
type Result struct {
	Face tile.Face // the nearest face, even when not Known
	// Similarity of the crop to Face's nearest enrolled example: 1 when identical, near 0 or
	// below for something unlike every enrolled crop.
	Similarity float32
	// Confidence in [0,1): 0 when the two nearest faces tie, towards 1 as the nearest example
	// becomes identical while the nearest other face stays away.
	Confidence float32
	Known      bool      // Similarity >= MinSimilarity, NoTile < MaxNone, not an unenrolled Kind, Confidence >= Threshold
	Why        Reason    // why not Known; None when Known
	Runner     tile.Face // the nearest other face
	// NoTile is the crop's cosine to the network's "no tile" class: towards 1 for a crop like
	// no tile face at all; NaN when the embedder has no such class.
	NoTile float32
	// Kind is the face the network's own face classes take the crop for, whatever is enrolled,
	// and Lead how much more like Kind than like Face it holds the crop (cosines); NoFace and 0
	// when the embedder has no face classes.
	Kind tile.Face
	Lead float32
}

// Reason says why a classification is not Known.
type Reason int

// The reasons, in the order they are tested: a crop far from everything is TooFar even when its
// two nearest faces are also close to each other.
const (
	None     Reason = iota // Known
	TooFar                 // below MinSimilarity, at MaxNone or like a face never enrolled (KindLead): not like any enrolled face
	TooClose               // below Threshold: as like the runner-up face as the best one
)

func (r Reason) String() string {
	switch r {
	case None:
		return "known"
	case TooFar:
		return "too far from every enrolled face"
	case TooClose:
		return "too close to the runner-up face"
	}
	return fmt.Sprintf("Reason(%d)", int(r))
}

// MarshalText writes the reason as a word for JSON: known, far, close.
func (r Reason) MarshalText() ([]byte, error) {
	switch r {
	case None:
		return []byte("known"), nil
	case TooFar:
		return []byte("far"), nil
	case TooClose:
		return []byte("close"), nil
	}
	return nil, fmt.Errorf("classify: no such reason %d", int(r))
}

// Enrol adds one example crop of face f.
func (c *Classifier) Enrol(f tile.Face, crop gocv.Mat) error {
	ex, err := c.Example(f, crop)
	if err != nil {
		return err
	}
	c.Add(ex)
	return nil
}

// Example is one enrolled crop as the classifier keeps it: its vectors through each enrolment
// view, upright and half a turn round. Made once, it can be added to any classifier on the same
// model, as often as an evaluation re-enrols (vision/eval).
type Example struct {
	Face tile.Face
	vecs [][2][]float32
}

// Example embeds crop, a crop of face f, as Enrol would keep it, without enrolling it.
func (c *Classifier) Example(f tile.Face, crop gocv.Mat) (Example, error) {
	if f >= tile.NumFaces {
		return Example{}, fmt.Errorf("classify: enrol: no such face %d", f)
	}
	e, err := c.viewVectors(crop, c.EnrolViews, true)
	if err != nil {
		return Example{}, fmt.Errorf("classify: enrol %v: %w", f, err)
	}
	ex := Example{Face: f}
	for i := range e.ups {
		ex.vecs = append(ex.vecs, [2][]float32{e.ups[i], e.downs[i]})
	}
	return ex, nil
}

// Similarity is how alike the model holds two enrolled crops: a crop exactly like either, as
// Classify compares it with the other's vectors (every enrolment view, upright and half a turn
// round), the higher of the two ways. Two faces whose crops come this close can be taken for
// each other.
func (e Example) Similarity(o Example) float32 {
	best := float32(-1)
	for _, x := range [2][2]Example{{e, o}, {o, e}} {
		if len(x[0].vecs) == 0 {
			continue
		}
		q := x[0].vecs[0][0]
		for _, v := range x[1].vecs {
			best = max(best, dot(q, v[0]), dot(q, v[1]))
		}
	}
	return best
}

// Add enrols examples made by Example (on this classifier's model).
func (c *Classifier) Add(exs ...Example) {
	for _, ex := range exs {
		for _, v := range ex.vecs {
			c.examples = append(c.examples, example{face: ex.Face, vec: v})
		}
		c.enrolled[ex.Face] = true
		c.crops++
	}
}

// viewVectors embeds crop through each of views (nil: the crop as it is), a vector pair a view.
func (c *Classifier) viewVectors(crop gocv.Mat, views []View, half bool) (embedding, error) {
	if len(views) == 0 {
		return c.emb.embed([]gocv.Mat{crop}, half)
	}
	if crop.Empty() {
		return embedding{}, fmt.Errorf("classify: empty crop")
	}
	mats := make([]gocv.Mat, 0, len(views))
	defer func() {
		for _, m := range mats {
			m.Close()
		}
	}()
	for _, v := range views {
		m, err := v.apply(crop)
		if err != nil {
			return embedding{}, err
		}
		mats = append(mats, m)
	}
	return c.emb.embed(mats, half)
}

// Len is the number of enrolled crops (each kept once per enrolment view).
func (c *Classifier) Len() int { return c.crops }

// Classify names the face in crop. Any of the four rotations is fine: a landscape crop is turned
// a quarter, and each example is compared upright and half a turn round.
func (c *Classifier) Classify(crop gocv.Mat) (Result, error) {
	if len(c.examples) == 0 {
		return Result{}, ErrNotEnrolled
	}
	q, err := c.Query(crop)
	if err != nil {
		return Result{}, err
	}
	return c.Answer(q)
}

// Query is a crop to classify as the network sees it: its vector (averaged over Views) and its
// likeness to "no tile". Made once, it can be answered against any enrolment on the same model.
type Query struct {
	vec    []float32
	noTile float32
	faces  []float32 // cosines to the face classes; nil without them
}

// Query embeds crop for Answer.
func (c *Classifier) Query(crop gocv.Mat) (Query, error) {
	e, err := c.viewVectors(crop, c.Views, false)
	if err != nil {
		return Query{}, err
	}
	q := Query{vec: mean(e.ups), noTile: float32(math.NaN())}
	if e.none != nil {
		q.noTile = meanOf(e.none)
	}
	if e.faces != nil {
		q.faces = average(e.faces)
	}
	return q, nil
}

// Answer names the face of a crop embedded by Query against what is enrolled now.
func (c *Classifier) Answer(q Query) (Result, error) {
	if len(c.examples) == 0 {
		return Result{}, ErrNotEnrolled
	}
	r := c.classifyVec(q.vec)
	r.NoTile = q.noTile
	r.Kind = tile.NoFace
	if q.faces != nil {
		r.Kind = tile.Face(argmax(q.faces))
		r.Lead = q.faces[r.Kind] - q.faces[r.Face]
	}
	c.judge(&r)
	return r, nil
}

// average is the element-wise mean of vecs, which is not empty.
func average(vecs [][]float32) []float32 {
	out := make([]float32, len(vecs[0]))
	for _, v := range vecs {
		for i, x := range v {
			out[i] += x / float32(len(vecs))
		}
	}
	return out
}

// meanOf is the mean of xs.
func meanOf(xs []float32) float32 {
	var s float32
	for _, x := range xs {
		s += x
	}
	return s / float32(len(xs))
}

// judge says whether r is Known and, if not, why: too far from every enrolled face, or like no
// tile at all (TooFar), or too close to the runner-up (TooClose).
func (c *Classifier) judge(r *Result) {
	switch {
	case r.Similarity < c.MinSimilarity, c.MaxNone > 0 && r.NoTile >= c.MaxNone,
		c.KindLead >= 0 && r.Kind != tile.NoFace && !c.enrolled[r.Kind] && r.Lead >= c.KindLead:
		r.Why = TooFar
	case r.Confidence < c.Threshold:
		r.Why = TooClose
	default:
		r.Why = None
	}
	r.Known = r.Why == None
}

// classifyVec scores each face by its nearest example and its second nearest (the nearest again
// when a face has one example), weighted c.nearest and the rest. For the hand-made features 0.7:
// on photos-dev this beat the nearest alone by about two points (mean of seeds 1-5, 0.777 against
// 0.753), and an even mix was no better. For the network the nearest alone (1).
func (c *Classifier) classifyVec(q []float32) Result {
	var best, second [tile.NumFaces]float32
	var seen [tile.NumFaces]bool
	for _, e := range c.examples {
		s := max(dot(q, e.vec[0]), dot(q, e.vec[1]))
		switch {
		case !seen[e.face]:
			best[e.face], second[e.face], seen[e.face] = s, s, true
		case s > best[e.face]:
			best[e.face], second[e.face] = s, best[e.face]
		case s > second[e.face]:
			second[e.face] = s
		}
	}
	for f := range best {
		best[f] = c.nearest*best[f] + (1-c.nearest)*second[f]
	}
	r := Result{Face: tile.NoFace, Runner: tile.NoFace}
	for f := range tile.Face(tile.NumFaces) {
		if !seen[f] {
			continue
		}
		switch {
		case r.Face == tile.NoFace || best[f] > best[r.Face]:
			r.Runner, r.Face = r.Face, f
		case r.Runner == tile.NoFace || best[f] > best[r.Runner]:
			r.Runner = f
		}
	}
	s1 := best[r.Face]
	r.Similarity = s1
	if r.Runner == tile.NoFace {
		r.Confidence = max(0, s1)
	} else if s2 := best[r.Runner]; s2 < 1 {
		r.Confidence = max(0, 1-(1-s1)/(1-s2))
	}
	return r
}

// Reset forgets every enrolled example, keeping the model.
func (c *Classifier) Reset() { c.examples, c.crops, c.enrolled = nil, 0, [tile.NumFaces]bool{} }

// argmax is the index of the largest of xs, which is not empty.
func argmax(xs []float32) int {
	best := 0
	for i, x := range xs {
		if x > xs[best] {
			best = i
		}
	}
	return best
}
