package card

import (
	"cmp"
	"slices"
)

// pairResult is the best pair of variants found so far for one pair of hands.
type pairResult struct {
	h1, h2      int32
	v1, v2      int32
	away, value int
}

func better(a, b pairResult) bool {
	if a.away != b.away {
		return a.away < b.away
	}
	if a.value != b.value {
		return a.value > b.value
	}
	if a.h1 != b.h1 {
		return a.h1 < b.h1
	}
	return a.h2 < b.h2
}

// topPairs keeps the best n pairs of hands, one entry a pair of hands.
type topPairs struct {
	n     int
	list  []pairResult
	index map[[2]int32]int
}

func newTopPairs(n int) *topPairs {
	return &topPairs{n: n, index: map[[2]int32]int{}}
}

// bound is the largest away a new pair may have and still enter the list.
func (t *topPairs) bound() int {
	if len(t.list) < t.n {
		return int(^uint(0) >> 1)
	}
	return t.worst().away
}

func (t *topPairs) worst() pairResult {
	w := t.list[0]
	for _, p := range t.list[1:] {
		if better(w, p) {
			w = p
		}
	}
	return w
}

// wants reports whether a pair of hands with at least this away could enter or improve the list.
func (t *topPairs) wants(h1, h2 int32, lower, value int) bool {
	if i, ok := t.index[[2]int32{h1, h2}]; ok {
		return lower < t.list[i].away
	}
	if len(t.list) < t.n {
		return true
	}
	return better(pairResult{h1: h1, h2: h2, away: lower, value: value}, t.worst())
}

func (t *topPairs) offer(p pairResult) {
	key := [2]int32{p.h1, p.h2}
	if i, ok := t.index[key]; ok {
		if p.away < t.list[i].away {
			t.list[i] = p
		}
		return
	}
	if len(t.list) < t.n {
		t.index[key] = len(t.list)
		t.list = append(t.list, p)
		return
	}
	w := t.worst()
	if !better(p, w) {
		return
	}
	i := t.index[[2]int32{w.h1, w.h2}]
	delete(t.index, [2]int32{w.h1, w.h2})
	t.list[i] = p
	t.index[key] = i
}

func (t *topPairs) sorted() []pairResult {
	out := slices.Clone(t.list)
	slices.SortFunc(out, func(a, b pairResult) int {
		if better(a, b) {
			return -1
		}
		if better(b, a) {
			return 1
		}
		return cmp.Compare(a.v1, b.v1)
	})
	return out
}
