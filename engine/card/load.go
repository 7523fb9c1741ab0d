package card

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Problem is one thing wrong in a card file, at a line and column (1-based).
type Problem struct {
	Line, Col int
	Msg       string
}

// LoadError lists every problem found in one card file.
type LoadError struct {
	File     string
	Problems []Problem
}

// ErrInvalidCard is wrapped by every LoadError, for errors.Is.
var ErrInvalidCard = errors.New("invalid card")

func (e *LoadError) Error() string {
	var b strings.Builder
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%s:%d:%d: %s", e.File, p.Line, p.Col, p.Msg)
	}
	return b.String()
}

func (e *LoadError) Unwrap() error { return ErrInvalidCard }

// MaxCardBytes is the largest card file Parse reads; a real card is a few kilobytes.
const MaxCardBytes = 1 << 20

// maxCardCombinations bounds the concrete hands a whole card may stand for before duplicates
// are removed (the example card: about 1,500), so a pathological file is refused quickly.
const maxCardCombinations = 200_000

// Parse compiles a card from YAML; name is used in error messages. On failure the error is a
// *LoadError with every problem found.
func Parse(name string, data []byte) (*Card, error) {
	l := loader{err: &LoadError{File: name}}
	if len(data) > MaxCardBytes {
		l.err.Problems = append(l.err.Problems, Problem{1, 1, fmt.Sprintf("file is over %d bytes, the most a card may have", MaxCardBytes)})
		return nil, l.err
	}
	c := l.card(data)
	if len(l.err.Problems) > 0 {
		slices.SortStableFunc(l.err.Problems, func(a, b Problem) int {
			return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
		})
		return nil, l.err
	}
	c.buildIndex()
	return c, nil
}

type loader struct {
	err               *LoadError
	limitAt, pointsAt []*yaml.Node // the values given in limits and in points
}

func (l *loader) at(n *yaml.Node, format string, args ...any) {
	l.err.Problems = append(l.err.Problems, Problem{n.Line, n.Column, fmt.Sprintf(format, args...)})
}

func (l *loader) card(data []byte) *Card {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		l.err.Problems = append(l.err.Problems, yamlProblem(err))
		return nil
	}
	if len(doc.Content) == 0 {
		l.err.Problems = append(l.err.Problems, Problem{1, 1, "empty file: want name, year and hands"})
		return nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		l.at(root, "want a mapping with name, year and hands")
		return nil
	}
	c := &Card{FlowerJokers: true, Jokers: true}
	var hands *yaml.Node
	seen := l.fields(root, "card", map[string]bool{"name": true, "year": true, "flower_jokers": true, "jokers": true, "hands": true},
		func(key string, v *yaml.Node) {
			switch key {
			case "name":
				c.Name = l.str(v, "name")
			case "year":
				c.Year, _ = l.integer(v, "year")
			case "flower_jokers":
				c.FlowerJokers = l.boolean(v, "flower_jokers")
			case "jokers":
				c.Jokers = l.boolean(v, "jokers")
			case "hands":
				hands = v
			}
		})
	for _, k := range []string{"name", "year", "hands"} {
		if !seen[k] {
			l.at(root, "card: missing %s", k)
		}
	}
	if hands == nil {
		return c
	}
	if hands.Kind != yaml.SequenceNode || len(hands.Content) == 0 {
		l.at(hands, "hands: want a list of one or more hands")
		return c
	}
	ids := map[string]int{}
	combos := 0
	perSection := map[string]int{}
	for _, hn := range hands.Content {
		h, pats := l.hand(hn, perSection)
		if h == nil {
			continue
		}
		if line, dup := ids[h.ID]; dup {
			l.at(hn, "hand id %q already used at line %d", h.ID, line)
		}
		ids[h.ID] = hn.Line
		if len(pats) == 0 {
			continue
		}
		for i := range pats {
			combos += pats[i].combinations()
		}
		if combos > maxCardCombinations {
			l.at(hn, "hand %s: the card's patterns stand for more than %d concrete hands", h.ID, maxCardCombinations)
			return c
		}
		h.index = len(c.Hands)
		h.first = len(c.variants)
		vs := expand(h.index, pats, c.jokerRule())
		if len(vs) == 0 {
			l.at(hn, "hand %s: no base X fits both its patterns and x:", h.ID)
		}
		if len(c.variants)+len(vs) > maxVariants {
			l.at(hn, "hand %s: the card stands for more than %d concrete hands", h.ID, maxVariants)
			return c
		}
		c.variants = append(c.variants, vs...)
		h.end = len(c.variants)
		h.describe(vs)
		c.Hands = append(c.Hands, h)
		if c.lowest == 0 || h.Value < c.lowest {
			c.lowest = h.Value
		}
	}
	l.oneKindOfValue()
	c.Limits = len(l.limitAt) > 0 && len(l.pointsAt) == 0
	return c
}

// oneKindOfValue refuses a card that values some hands in limits and others in points: the
// rules pay either a limit card (Wright-Patterson) or a points card, never a mix.
func (l *loader) oneKindOfValue() {
	if len(l.limitAt) == 0 || len(l.pointsAt) == 0 {
		return
	}
	first, other := l.limitAt[0], l.pointsAt[0]
	if other.Line < first.Line {
		first, other = other, first
	}
	l.at(other, "value: this card values a hand in %s at line %d; a card values every hand in points or every hand in limits", kindOfValue(first), first.Line)
}

func kindOfValue(v *yaml.Node) string {
	if _, ok := ParseLimit(v.Value); ok {
		return "limits"
	}
	return "points"
}

// fields walks a mapping, reporting unknown and repeated keys, and returns the keys seen.
func (l *loader) fields(m *yaml.Node, what string, known map[string]bool, f func(string, *yaml.Node)) map[string]bool {
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		switch {
		case !known[k.Value]:
			l.at(k, "%s: unknown field %q", what, k.Value)
		case seen[k.Value]:
			l.at(k, "%s: field %q given twice", what, k.Value)
		default:
			seen[k.Value] = true
			f(k.Value, v)
		}
	}
	return seen
}

func (l *loader) str(v *yaml.Node, what string) string {
	if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
		l.at(v, "%s: want a string", what)
		return ""
	}
	return v.Value
}

// integer reads a whole number; ok is false (and the problem recorded) otherwise.
func (l *loader) integer(v *yaml.Node, what string) (n int, ok bool) {
	n, err := strconv.Atoi(v.Value)
	if v.Kind != yaml.ScalarNode || err != nil {
		l.at(v, "%s: want a whole number, got %q", what, v.Value)
		return 0, false
	}
	return n, true
}

func (l *loader) boolean(v *yaml.Node, what string) bool {
	var b bool
	if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" || v.Decode(&b) != nil {
		l.at(v, "%s: want true or false, got %q", what, v.Value)
	}
	return b
}

// yamlProblem turns a yaml.v3 syntax error ("yaml: line 3: ...") into a Problem.
func yamlProblem(err error) Problem {
	msg := err.Error()
	p := Problem{Line: 1, Col: 1, Msg: msg}
	var line int
	if _, scanErr := fmt.Sscanf(msg, "yaml: line %d:", &line); scanErr == nil {
		p.Line = line
		p.Msg = strings.TrimSpace(msg[strings.Index(msg, ":")+1:])
		p.Msg = strings.TrimSpace(p.Msg[strings.Index(p.Msg, ":")+1:])
	}
	return p
}
