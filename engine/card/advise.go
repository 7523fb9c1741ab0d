package card

import (
	"github.com/siamesetable/siamesed/engine/tile"
)

// Advice is one pair of target hands for a Siamese player's two racks.
type Advice struct {
	Rack1 Away `json:"rack1"`
	Rack2 Away `json:"rack2"`
	// Away is the fewest tiles still to acquire for both hands together, from disjoint tiles:
	// at least Rack1.Away + Rack2.Away, more where the two hands want the same tiles.
	Away  int `json:"away"`
	Value int `json:"value"` // the two hands' values added
}

// Siamese is what a Siamese player holds: the concealed tiles of both racks (they move freely
// between the racks) and each rack's exposures (they stay on their rack).
type Siamese struct {
	Concealed tile.Counts
	Exposed   [2][]Exposure
}

// Advise ranks pairs of hands, one for each of a Siamese player's racks, built from disjoint
// tiles: the concealed tiles plus each rack's own exposures. It returns the best top pairs by
// total tiles-away, then total value. With no exposures on either rack the two racks are alike
// and each pair is listed once.
func (c *Card) Advise(concealed tile.Counts, exposed1, exposed2 []Exposure, top int) []Advice {
	return c.AdviseSiamese(Siamese{Concealed: concealed, Exposed: [2][]Exposure{exposed1, exposed2}}, top, nil)
}

// MaxAdvice is the most pairs Advise ranks: a person reads a few, and the search keeps its
// best pairs in a short list.
const MaxAdvice = 100

// AdviseSiamese is Advise for a holding, with a table whose dead tiles rule out hands (and
// pairs of hands) that need them; t may be nil. top is at most MaxAdvice.
func (c *Card) AdviseSiamese(s Siamese, top int, t *Table) []Advice {
	if top <= 0 {
		return nil
	}
	top = min(top, MaxAdvice)
	best := c.bestPairs(&s, top, t)
	out := make([]Advice, 0, len(best.list))
	for _, p := range best.sorted() {
		out = append(out, Advice{
			Rack1: c.awayOf(p.v1, &s.Concealed, s.Exposed[0], t),
			Rack2: c.awayOf(p.v2, &s.Concealed, s.Exposed[1], t),
			Away:  p.away,
			Value: p.value,
		})
	}
	return out
}

// bestPairs searches the pairs of variants, closest alone first, stopping where the sum of
// the two alone distances (a lower bound for the pair) can no longer enter the list.
func (c *Card) bestPairs(s *Siamese, top int, t *Table) *topPairs {
	best := newTopPairs(top)
	bufs := c.index.targetBufs.Get().(*[2]targetBuf)
	defer c.index.targetBufs.Put(bufs)
	t1 := c.targets(&bufs[0], &s.Concealed, s.Exposed[0], t)
	t2 := t1
	symmetric := len(s.Exposed[0]) == 0 && len(s.Exposed[1]) == 0
	if !symmetric {
		t2 = c.targets(&bufs[1], &s.Concealed, s.Exposed[1], t)
	}
	if len(t1) == 0 || len(t2) == 0 {
		return best
	}
	var caps tile.Counts
	if t != nil {
		caps = t.caps(append(append([]Exposure(nil), s.Exposed[0]...), s.Exposed[1]...))
	}
	var scratch pairScratch
	for i := range t1 {
		a := &t1[i]
		if a.alone+t2[0].alone > best.bound() {
			break
		}
		for j := range t2 {
			b := &t2[j]
			if a.alone+b.alone > best.bound() {
				break
			}
			if symmetric && b.v < a.v {
				continue
			}
			h1, h2 := c.variants[a.v].hand, c.variants[b.v].hand
			value := c.Hands[h1].Value + c.Hands[h2].Value
			if !best.wants(h1, h2, a.alone+b.alone, value) {
				continue
			}
			away, ok := scratch.pairAway(&s.Concealed, a.need, b.need, t, &caps)
			if ok {
				best.offer(pairResult{h1: h1, h2: h2, v1: a.v, v2: b.v, away: away, value: value})
			}
		}
	}
	return best
}

// awayOf describes one rack's target for the result.
func (c *Card) awayOf(vi int32, concealed *tile.Counts, exposed []Exposure, t *Table) Away {
	v := &c.variants[vi]
	var caps tile.Counts
	if t != nil {
		caps = t.caps(exposed)
	}
	a, _ := v.restAway(exposed, concealed, t, &caps)
	h := c.Hands[v.hand]
	return Away{Hand: h, HandID: h.ID, Value: h.Value, Limit: h.Limit, Away: a, Groups: v.faces}
}
