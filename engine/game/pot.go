package game

import (
	"cmp"
	"slices"
)

// PotShare is what one seat takes from the pot.
type PotShare struct {
	Seat   int `json:"seat"`
	Amount int `json:"amount"` // in the pot's smallest unit (cents)
}

// Pot pays Royale Siamese cumulative scores out of a pot (royale rule 16): optionally triple
// every score, subtract the lowest score from all, pay from the largest score to the smallest
// until the pot is empty, and share what remains equally (the remainder of the division stays
// with the lowest seats in order, so no cent is lost).
func Pot(scores []int, pot int, triple bool) []PotShare {
	n := len(scores)
	out := make([]PotShare, n)
	if n == 0 {
		return out
	}
	adj := slices.Clone(scores)
	if triple {
		for i := range adj {
			adj[i] *= 3
		}
	}
	low := slices.Min(adj)
	order := make([]int, n)
	for i := range order {
		order[i] = i
		out[i].Seat = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(adj[b], adj[a]) })
	left := pot
	for _, i := range order {
		pay := min(adj[i]-low, left)
		out[i].Amount += pay
		left -= pay
	}
	share, extra := left/n, left%n
	for i := range out {
		out[i].Amount += share
		if i < extra {
			out[i].Amount++
		}
	}
	return out
}

// Tally adds up a session's games: each seat's cumulative score. A game without a result (not
// finished) adds nothing.
func Tally(players int, results []*Result) []int {
	out := make([]int, players)
	for _, r := range results {
		if r == nil {
			continue
		}
		for i, sc := range r.Scores {
			if i < players {
				out[i] += sc
			}
		}
	}
	return out
}
