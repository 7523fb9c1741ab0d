package eval

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/vision/classify"
	"github.com/siamesetable/siamesed/vision/labels"
)

// Pool is a folder of labelled crops (labels.csv, images/). Crops whose Item names a Set are
// tested set by set; crops without one (photos-dev: many sets, one crop each, none named) are
// only ever enrolled.
type Pool struct {
	Dir   string
	Items []labels.Item
}

// Bank holds every crop of some pools embedded once by one classifier's model: as an enrolled
// example and, for crops in a set, as a query at each of Rotations. The leave-one-out
// measurements then re-enrol and answer hundreds of times without running the network again.
type Bank struct {
	// OneFlower: a set's own enrolment takes one flower, like every other face, rather than
	// each of its flowers (the eight flowers of a set usually all differ, and docs/vision.md
	// tells a table to enrol each; the flowers left are then faces never enrolled).
	OneFlower bool
	c         *classify.Classifier
	crops     []banked
}

type banked struct {
	dir  string // the pool's folder
	item labels.Item
	ex   classify.Example
	q    []classify.Query // one per Rotations; nil for crops in no set
}

// NewBank embeds every crop of pools with c's model and views.
func NewBank(c *classify.Classifier, pools []Pool) (*Bank, error) {
	b := &Bank{c: c}
	for _, p := range pools {
		for _, it := range p.Items {
			m, err := classify.ReadCrop(p.Dir, it)
			if err != nil {
				return nil, fmt.Errorf("eval: %w", err)
			}
			k := banked{dir: p.Dir, item: it}
			k.ex, err = c.Example(it.Tile, m)
			if err == nil && it.Set != "" {
				k.q, err = b.queries(m)
			}
			m.Close()
			if err != nil {
				return nil, fmt.Errorf("eval: %s: %w", it.Image, err)
			}
			b.crops = append(b.crops, k)
		}
	}
	return b, nil
}

// Sets are the names of the sets in the bank, sorted.
func (b *Bank) Sets() []string {
	var out []string
	for _, k := range b.crops {
		if k.item.Set != "" && !slices.Contains(out, k.item.Set) {
			out = append(out, k.item.Set)
		}
	}
	slices.Sort(out)
	return out
}

// own picks a table's enrolment of set: one crop of each face, at random (by seed and the set's
// name), as `enroll camera` takes one sighting of each face, and every flower unless OneFlower.
// It returns the picked crops' indexes in the bank.
func (b *Bank) own(set string, seed uint64) map[int]bool {
	h := fnv.New64a()
	h.Write([]byte(set))
	rng := rand.New(rand.NewPCG(seed, h.Sum64()))
	byFace := map[tile.Face][]int{}
	for i, k := range b.crops {
		if k.item.Set == set {
			byFace[k.item.Tile] = append(byFace[k.item.Tile], i)
		}
	}
	faces := make([]tile.Face, 0, len(byFace))
	for f := range byFace {
		faces = append(faces, f)
	}
	slices.Sort(faces)
	picked := map[int]bool{}
	for _, f := range faces {
		is := byFace[f]
		if f == tile.Flower && !b.OneFlower {
			for _, i := range is {
				picked[i] = true
			}
			continue
		}
		picked[is[rng.IntN(len(is))]] = true
	}
	return picked
}

// Enrolment says which crops a leave-one-set-out trial enrols besides the left-out set's own.
type Enrolment int

// The enrolments measured for a left-out set.
const (
	// OwnAndOthers: every crop of the other sets and of the pools in no set, and the left-out
	// set's own one crop a face.
	OwnAndOthers Enrolment = iota
	// Others: the other sets and the pools in no set only; the left-out set never enrolled.
	Others
	// Own: the left-out set's own one crop a face alone, as a table enrols its set today.
	Own
)

// Enrolments are all three, in the order the tables print them.
var Enrolments = []Enrolment{OwnAndOthers, Others, Own}

func (e Enrolment) String() string {
	switch e {
	case OwnAndOthers:
		return "own+others"
	case Others:
		return "others"
	case Own:
		return "own"
	}
	return fmt.Sprintf("Enrolment(%d)", int(e))
}

// MarshalText names the enrolment in JSON.
func (e Enrolment) MarshalText() ([]byte, error) { return []byte(e.String()), nil }

// enrol resets the classifier to enrolment e for left-out set (own: its picks), less every crop
// of the faces in drop.
func (b *Bank) enrol(set string, e Enrolment, own map[int]bool, drop ...tile.Face) {
	b.c.Reset()
	for i, k := range b.crops {
		inSet := k.item.Set == set
		use := (e != Own && !inSet) || (e != Others && own[i])
		if use && !slices.Contains(drop, k.item.Tile) {
			b.c.Add(k.ex)
		}
	}
}

// tested are the crops of set a trial tests: all but its own picks (or all of them, when
// nothing of the set is enrolled), in the bank's order.
func (b *Bank) tested(set string, own map[int]bool, face tile.Face) []int {
	var out []int
	for i, k := range b.crops {
		if k.item.Set == set && (own == nil || !own[i]) && (face == tile.NoFace || k.item.Tile == face) {
			out = append(out, i)
		}
	}
	return out
}

// Tally counts answers: named right (top-1, known or not), not known, known and wrong.
type Tally struct {
	N          int     `json:"n"`
	Top1       float64 `json:"top1"`
	Unknown    float64 `json:"unknown"`
	WrongKnown float64 `json:"wrong_known"` // answered, with confidence, as another face
	right      int
	unknown    int
	wrong      int
}

func (t *Tally) add(want tile.Face, r classify.Result) {
	t.N++
	switch {
	case r.Face == want:
		t.right++
	case r.Known:
		t.wrong++
	}
	if !r.Known {
		t.unknown++
	}
}

func (t *Tally) merge(o Tally) {
	t.N, t.right, t.unknown, t.wrong = t.N+o.N, t.right+o.right, t.unknown+o.unknown, t.wrong+o.wrong
}

// shares fills in the shares from the counts.
func (t *Tally) shares() {
	if t.N > 0 {
		n := float64(t.N)
		t.Top1, t.Unknown, t.WrongKnown = float64(t.right)/n, float64(t.unknown)/n, float64(t.wrong)/n
	}
}

// confusions counts each wrong answer by its pair, known or not.
type confusions map[[2]tile.Face][2]int

func (c confusions) add(want tile.Face, r classify.Result) {
	if r.Face == want {
		return
	}
	k := [2]tile.Face{want, r.Face}
	n := c[k]
	n[0]++
	if r.Known {
		n[1]++
	}
	c[k] = n
}

// Asked is how often a face's crops were named right but not known, and why: the questions a
// table so enrolled would ask about faces it does know.
type Asked struct {
	Face  tile.Face       `json:"face"`
	Why   classify.Reason `json:"why"`
	Count int             `json:"count"`
}

type askedKey struct {
	face tile.Face
	why  classify.Reason
}

// askings counts the answers named right but not known, by face and reason.
type askings map[askedKey]int

func (a askings) add(want tile.Face, r classify.Result) {
	if r.Face == want && !r.Known {
		a[askedKey{want, r.Why}]++
	}
}

// addAsked adds counted askings (list's output) in.
func (a askings) addAsked(as []Asked) {
	for _, x := range as {
		a[askedKey{x.Face, x.Why}] += x.Count
	}
}

// list is the askings, most frequent first.
func (a askings) list() []Asked {
	var out []Asked
	for k, n := range a {
		out = append(out, Asked{Face: k.face, Why: k.why, Count: n})
	}
	slices.SortFunc(out, func(x, y Asked) int {
		return cmp.Or(y.Count-x.Count, cmp.Compare(x.Face, y.Face), cmp.Compare(x.Why, y.Why))
	})
	return out
}

// addPairs adds counted pairs (pairs' output) in.
func (c confusions) addPairs(ps []Pair) {
	for _, p := range ps {
		n := c[[2]tile.Face{p.Want, p.Got}]
		c[[2]tile.Face{p.Want, p.Got}] = [2]int{n[0] + p.Count, n[1] + p.Known}
	}
}

// pairs are the confusions, most frequent first.
func (c confusions) pairs() []Pair {
	var out []Pair
	for k, n := range c {
		out = append(out, Pair{Want: k[0], Got: k[1], Count: n[0], Known: n[1]})
	}
	slices.SortFunc(out, func(a, b Pair) int {
		return cmp.Or(b.Count-a.Count, cmp.Compare(a.Want, b.Want), cmp.Compare(a.Got, b.Got))
	})
	return out
}

// queries embeds m at every rotation.
func (b *Bank) queries(m gocv.Mat) ([]classify.Query, error) {
	rot := gocv.NewMat()
	defer rot.Close()
	var out []classify.Query
	for _, deg := range Rotations {
		src := m
		if deg != 0 {
			gocv.Rotate(m, &rot, rotFlag(deg))
			src = rot
		}
		q, err := b.c.Query(src)
		if err != nil {
			return nil, err
		}
		out = append(out, q)
	}
	return out, nil
}

// rejected answers qs against what is enrolled now: how many, and how many not known.
func (b *Bank) rejected(qs []classify.Query) (n, rejected int, err error) {
	for _, q := range qs {
		r, err := b.c.Answer(q)
		if err != nil {
			return 0, 0, err
		}
		n++
		if !r.Known {
			rejected++
		}
	}
	return n, rejected, nil
}
