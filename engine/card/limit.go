package card

import "strconv"

// limitNames are the values of a limit hand as a card file and people write them.
var limitNames = [...]string{"single-limit", "double-limit", "triple-limit"}

// ParseLimit reads single-limit, double-limit or triple-limit as 1, 2 or 3.
func ParseLimit(s string) (int, bool) {
	for i, n := range limitNames {
		if s == n {
			return i + 1, true
		}
	}
	return 0, false
}

// LimitName is the name of n limits: "single-limit", "double-limit", "triple-limit", or
// "N-limit" beyond those (two limit hands together in advice).
func LimitName(n int) string {
	if n >= 1 && n <= len(limitNames) {
		return limitNames[n-1]
	}
	return strconv.Itoa(n) + "-limit"
}

// ValueText is a hand's value as people read it: "30" or "double-limit".
func (h *Hand) ValueText() string {
	if h.Limit > 0 {
		return LimitName(h.Limit)
	}
	return strconv.Itoa(h.Value)
}

// ValueText is a value on this card as people read it: points, or limits on a limit card
// ("3 limits" for a pair of hands, "single-limit" for one).
func (c *Card) ValueText(v int) string {
	switch {
	case !c.Limits:
		return strconv.Itoa(v)
	case v == 1:
		return "1 limit"
	}
	return strconv.Itoa(v) + " limits"
}
