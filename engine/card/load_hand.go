package card

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

var handFields = map[string]bool{
	"section": true, "id": true, "patterns": true, "pattern": true,
	"value": true, "concealed": true, "x": true, "note": true,
}

// hand reads one hand and returns its parsed patterns, each knowing the bases X may take.
func (l *loader) hand(n *yaml.Node, perSection map[string]int) (*Hand, []pattern) {
	if n.Kind != yaml.MappingNode {
		l.at(n, "hand: want a mapping with section, patterns and value")
		return nil, nil
	}
	h := &Hand{}
	var pats []pattern
	var xs []int
	var patNodes []*yaml.Node
	before := len(l.err.Problems)
	seen := l.fields(n, "hand", handFields, func(key string, v *yaml.Node) {
		switch key {
		case "section":
			h.Section = l.str(v, "section")
		case "id":
			h.ID = l.str(v, "id")
		case "pattern":
			patNodes = append(patNodes, v)
		case "patterns":
			if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
				l.at(v, "patterns: want a list of one or more patterns")
				return
			}
			patNodes = append(patNodes, v.Content...)
		case "value":
			h.Value, h.Limit = l.value(v)
		case "concealed":
			h.Concealed = l.boolean(v, "concealed")
		case "note":
			h.Note = l.str(v, "note")
		case "x":
			xs = l.bases(v)
		}
	})
	for _, k := range []string{"section", "value"} {
		if !seen[k] {
			l.at(n, "hand: missing %s", k)
		}
	}
	if seen["pattern"] == seen["patterns"] {
		l.at(n, "hand: give either pattern (one) or patterns (a list)")
	}
	perSection[h.Section]++
	if h.ID == "" {
		h.ID = fmt.Sprintf("%s-%d", h.Section, perSection[h.Section])
	}
	for _, pn := range patNodes {
		if p, ok := l.pattern(pn, xs); ok {
			pats = append(pats, p)
			h.Patterns = append(h.Patterns, p.text)
		}
	}
	if xs != nil && !slices.ContainsFunc(pats, func(p pattern) bool { return p.usesX }) {
		l.at(n, "hand %s: x: given but no pattern uses X", h.ID)
	}
	combos := 0
	for i := range pats {
		combos += pats[i].combinations()
	}
	if combos > maxCombinations {
		l.at(n, "hand %s: its patterns stand for more than %d concrete hands; split it or use fewer Z, D and | choices", h.ID, maxCombinations)
	}
	if len(l.err.Problems) > before {
		return h, nil
	}
	return h, pats
}

// pattern reads one entry of patterns: a string, or a mapping {pattern: "...", x: odd} whose
// x: replaces the hand's for this pattern. ok is false when it has problems (recorded).
func (l *loader) pattern(pn *yaml.Node, handXs []int) (pattern, bool) {
	text, xs := pn, handXs
	if pn.Kind == yaml.MappingNode {
		text = nil
		var own []int
		var xNode *yaml.Node
		l.fields(pn, "pattern", map[string]bool{"pattern": true, "x": true}, func(key string, v *yaml.Node) {
			switch key {
			case "pattern":
				text = v
			case "x":
				xNode, own = v, l.bases(v)
			}
		})
		if text == nil {
			l.at(pn, "pattern: missing pattern (want {pattern: \"...\", x: odd})")
			return pattern{}, false
		}
		if xNode != nil {
			xs = own
		}
		p, ok := l.patternText(text, xs)
		if ok && xNode != nil && !p.usesX {
			l.at(xNode, "x: given but the pattern does not use X")
			return p, false
		}
		return p, ok
	}
	return l.patternText(text, xs)
}

// patternText parses one pattern string node, reporting problems at their columns.
func (l *loader) patternText(pn *yaml.Node, xs []int) (pattern, bool) {
	s := l.str(pn, "pattern")
	p, errs := parsePattern(s)
	for _, e := range errs {
		col := pn.Column + e.col - 1
		if pn.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
			col++
		}
		l.err.Problems = append(l.err.Problems, Problem{pn.Line, col, fmt.Sprintf("pattern %q: %s", s, e.msg)})
	}
	p.xs = xs
	return p, len(errs) == 0 && s != ""
}

// value reads a hand's value: a positive number of points, or a limit (single-limit,
// double-limit, triple-limit), whose value is then the number of limits.
func (l *loader) value(v *yaml.Node) (value, limit int) {
	if v.Kind == yaml.ScalarNode && strings.Contains(v.Value, "limit") {
		n, ok := ParseLimit(v.Value)
		if !ok {
			l.at(v, "value: want single-limit, double-limit or triple-limit, got %q", v.Value)
			return 0, 0
		}
		l.limitAt = append(l.limitAt, v)
		return n, n
	}
	n, ok := l.integer(v, "value")
	if ok && n <= 0 {
		l.at(v, "value: want a positive number of points, got %q", v.Value)
	}
	if ok {
		l.pointsAt = append(l.pointsAt, v)
	}
	return n, 0
}

// bases reads x: odd, even, or a list of numbers 1..9.
func (l *loader) bases(v *yaml.Node) []int {
	switch {
	case v.Kind == yaml.ScalarNode && v.Value == "odd":
		return []int{1, 3, 5, 7, 9}
	case v.Kind == yaml.ScalarNode && v.Value == "even":
		return []int{2, 4, 6, 8}
	case v.Kind == yaml.SequenceNode && len(v.Content) > 0:
		var xs []int
		for _, e := range v.Content {
			n, err := strconv.Atoi(e.Value)
			if err != nil || n < 1 || n > 9 {
				l.at(e, "x: want numbers 1..9, got %q", e.Value)
				continue
			}
			xs = append(xs, n)
		}
		return xs
	}
	l.at(v, "x: want odd, even or a list of numbers 1..9")
	return nil
}
