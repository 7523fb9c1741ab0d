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

// topPairs keeps the best n pairs of hands, one entry a pair of hands. n is small (the pairs a
// person reads), so a linear scan finds an entry faster than a map.
type topPairs struct {
	n       int
	list    []pairResult
	worstAt int // index of the worst entry once the list is full
}

func newTopPairs(n int) *topPairs {
	return &topPairs{n: n, list: make([]pairResult, 0, min(n, 64))}
}

// bound is the largest away a new pair may have and still enter the list.
func (t *topPairs) bound() int {
	if len(t.list) < t.n {
		return int(^uint(0) >> 1)
	}
	return t.list[t.worstAt].away
}

func (t *topPairs) find(h1, h2 int32) int {
	for i := range t.list {
		if t.list[i].h1 == h1 && t.list[i].h2 == h2 {
			return i
		}
	}
	return -1
}

// wants reports whether a pair of hands with at least this away could enter or improve the list.
func (t *topPairs) wants(h1, h2 int32, lower, value int) bool {
	if i := t.find(h1, h2); i >= 0 {
		return lower < t.list[i].away
	}
	if len(t.list) < t.n {
		return true
	}
	return better(pairResult{h1: h1, h2: h2, away: lower, value: value}, t.list[t.worstAt])
}

func (t *topPairs) offer(p pairResult) {
	switch i := t.find(p.h1, p.h2); {
	case i >= 0:
		if p.away >= t.list[i].away {
			return
		}
		t.list[i] = p
	case len(t.list) < t.n:
		t.list = append(t.list, p)
	case better(p, t.list[t.worstAt]):
		t.list[t.worstAt] = p
	default:
		return
	}
	t.worstAt = 0
	for i := range t.list {
		if better(t.list[t.worstAt], t.list[i]) {
			t.worstAt = i
		}
	}
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
