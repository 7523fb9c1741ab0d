package main

import (
	"cmp"
	"slices"

	"github.com/siamesetable/siamesed/engine/card"
)

// sortAways orders hands closest first, then by higher value, then card order.
func sortAways(as []card.Away) {
	slices.SortStableFunc(as, func(a, b card.Away) int {
		if c := cmp.Compare(a.Away, b.Away); c != 0 {
			return c
		}
		return cmp.Compare(b.Value, a.Value)
	})
}
