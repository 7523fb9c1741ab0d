package event

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"gopkg.in/yaml.v3"

	"github.com/siamesetable/siamesed/internal/yamlline"
	"github.com/siamesetable/siamesed/tournament/movement"
)

// Limits on what an event file may ask for.
const (
	MaxTables     = 1000
	MaxRounds     = 50
	MaxGames      = 50
	MaxNameLength = 64
)

// Problems is every mistake found in an event file, each naming its line and field.
type Problems struct {
	File string
	List []Problem
}

// Problem is one mistake.
type Problem struct {
	Line  int
	Field string
	Msg   string
}

func (p *Problems) Error() string {
	var b strings.Builder
	for i, q := range p.List {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "event: %s:%d: %s: %s", p.File, q.Line, q.Field, q.Msg)
	}
	return b.String()
}

func (p *Problems) add(n *yaml.Node, field, format string, args ...any) {
	line := 1
	if n != nil {
		line = n.Line
	}
	p.List = append(p.List, Problem{Line: line, Field: field, Msg: fmt.Sprintf(format, args...)})
}

// Parse reads an event file's bytes; file names it in errors. rules tells how many seats the
// ruleset has. Every problem is listed at once.
func Parse(file string, data []byte, rules RulesPlayers) (*Event, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("event: %s: %w", file, yamlline.Explain(data, err))
	}
	ps := &Problems{File: file}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		ps.add(&doc, "event", "not a mapping of fields (name, rules, rounds, games_per_round, movement, scoring, tables)")
		return nil, ps
	}
	e := &Event{File: file, Hash: hashOf(data), Scoring: ScorePoints}
	fields := fieldsOf(doc.Content[0], "", ps)
	var moveNode, tablesNode *yaml.Node
	for _, f := range fields {
		switch f.key {
		case "name":
			e.Name = text(f.val, "name", ps)
		case "rules":
			e.Rules = text(f.val, "rules", ps)
		case "card":
			e.Card = text(f.val, "card", ps)
		case "rounds":
			e.Rounds = number(f.val, "rounds", 1, MaxRounds, ps)
		case "games_per_round":
			e.GamesPerRound = number(f.val, "games_per_round", 1, MaxGames, ps)
		case "scoring":
			e.Scoring = text(f.val, "scoring", ps)
			if e.Scoring != ScorePoints && e.Scoring != ScoreMahJongs {
				ps.add(f.val, "scoring", "%q is not a scoring (%s or %s)", e.Scoring, ScorePoints, ScoreMahJongs)
			}
		case "movement":
			moveNode = f.val
		case "tables":
			tablesNode = f.val
		default:
			ps.add(f.keyNode, f.key, "unknown field (name, rules, card, rounds, games_per_round, movement, scoring, tables)")
		}
	}
	top := doc.Content[0]
	for _, req := range []struct {
		name string
		ok   bool
	}{{"name", e.Name != ""}, {"rules", e.Rules != ""}, {"rounds", e.Rounds > 0}, {"games_per_round", e.GamesPerRound > 0}, {"movement", moveNode != nil}, {"tables", tablesNode != nil}} {
		if !req.ok && !hasKey(fields, req.name) {
			ps.add(top, req.name, "missing")
		}
	}
	if e.Rules != "" {
		n, err := rules(e.Rules)
		if err != nil {
			ps.add(valueOf(fields, "rules"), "rules", "%v", err)
		} else {
			e.Seats = n
		}
	}
	if e.Seats > 0 && moveNode != nil {
		e.Movement = movementOf(moveNode, e.Seats, ps)
	}
	if e.Seats > 0 && tablesNode != nil {
		e.First = tablesOf(tablesNode, e.Seats, ps)
	}
	if len(ps.List) > 0 {
		return nil, ps
	}
	return e, nil
}

type field struct {
	key     string
	keyNode *yaml.Node
	val     *yaml.Node
}

// fieldsOf lists a mapping's fields, naming a repeated key.
func fieldsOf(m *yaml.Node, prefix string, ps *Problems) []field {
	var out []field
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if seen[k.Value] {
			ps.add(k, prefix+k.Value, "given twice")
			continue
		}
		seen[k.Value] = true
		out = append(out, field{key: k.Value, keyNode: k, val: v})
	}
	return out
}

func hasKey(fs []field, key string) bool { return valueOf(fs, key) != nil }

func valueOf(fs []field, key string) *yaml.Node {
	for _, f := range fs {
		if f.key == key {
			return f.val
		}
	}
	return nil
}

func text(n *yaml.Node, name string, ps *Problems) string {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		ps.add(n, name, "want text")
		return ""
	}
	return n.Value
}

func number(n *yaml.Node, name string, lo, hi int, ps *Problems) int {
	v, err := strconv.Atoi(n.Value)
	if n.Kind != yaml.ScalarNode || err != nil {
		ps.add(n, name, "want a whole number, not %q", n.Value)
		return 0
	}
	if v < lo || v > hi {
		ps.add(n, name, "%d is out of range (%d to %d)", v, lo, hi)
		return 0
	}
	return v
}

// movementOf reads `movement: nmjl` or `movement: {east: 0, west: 1}`.
func movementOf(n *yaml.Node, seats int, ps *Problems) movement.Movement {
	if n.Kind == yaml.ScalarNode {
		m, err := movement.Builtin(n.Value, seats)
		if err != nil {
			ps.add(n, "movement", "%v", err)
		}
		return m
	}
	if n.Kind != yaml.MappingNode {
		ps.add(n, "movement", "want a built-in name (%s, %s) or each seat's move", movement.NMJL, movement.Siamese2)
		return movement.Movement{}
	}
	moves := map[string]int{}
	for _, f := range fieldsOf(n, "movement.", ps) {
		v, err := strconv.Atoi(f.val.Value)
		if f.val.Kind != yaml.ScalarNode || err != nil {
			ps.add(f.val, "movement."+f.key, "want a number of tables (up positive, down negative), not %q", f.val.Value)
			continue
		}
		moves[f.key] = v
	}
	m, err := movement.Custom(moves, seats)
	if err != nil {
		ps.add(n, "movement", "%v", err)
	}
	return m
}

// tablesOf reads the tables: each `{table: N, east: NAME, ...}`, numbered 1 to n.
func tablesOf(n *yaml.Node, seats int, ps *Problems) movement.Seating {
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		ps.add(n, "tables", "want a list of tables ({table: 1, east: NAME, ...})")
		return nil
	}
	if len(n.Content) > MaxTables {
		ps.add(n, "tables", "%d tables, more than %d", len(n.Content), MaxTables)
		return nil
	}
	pos := movement.Positions(seats)
	out := make(movement.Seating, len(n.Content))
	where := map[string]int{} // player -> line first seen
	for i, tn := range n.Content {
		at := fmt.Sprintf("tables[%d]", i)
		if tn.Kind != yaml.MappingNode {
			ps.add(tn, at, "want a table: {table: N, %s: NAME, ...}", strings.Join(pos, ": NAME, "))
			continue
		}
		row := make([]string, seats)
		given := make([]bool, seats)
		number := 0
		for _, f := range fieldsOf(tn, at+".", ps) {
			if f.key == "table" {
				number = atoiOr0(f.val.Value)
				if number < 1 || number > len(n.Content) {
					ps.add(f.val, at+".table", "%q is not a table number from 1 to %d", f.val.Value, len(n.Content))
					number = 0
				}
				continue
			}
			s := slices.Index(pos, f.key)
			if s < 0 {
				ps.add(f.keyNode, at+"."+f.key, "not a seat of a %d-seat table (%s)", seats, strings.Join(pos, ", "))
				continue
			}
			given[s] = true
			name := text(f.val, at+"."+f.key, ps)
			if err := checkName(name); name != "" && err != nil {
				ps.add(f.val, at+"."+f.key, "%v", err)
				continue
			}
			if line, dup := where[name]; dup && name != "" {
				ps.add(f.val, at+"."+f.key, "%s already sits at the table on line %d", name, line)
				continue
			}
			where[name] = f.val.Line
			row[s] = name
		}
		if number == 0 {
			if !hasKey(fieldsOf(tn, at+".", &Problems{}), "table") {
				ps.add(tn, at+".table", "missing")
			}
			continue
		}
		if out[number-1] != nil {
			ps.add(tn, at+".table", "table %d is listed twice", number)
			continue
		}
		for s, p := range row {
			if p == "" && !given[s] {
				ps.add(tn, at+"."+pos[s], "missing")
			}
		}
		out[number-1] = row
	}
	return out
}

func atoiOr0(s string) int {
	v, err := strconv.Atoi(s)
	if err != nil {
		return 0
	}
	return v
}

// checkName accepts a player's name: printable text of 1 to MaxNameLength characters.
func checkName(s string) error {
	switch {
	case len([]rune(s)) > MaxNameLength:
		return fmt.Errorf("a name longer than %d characters", MaxNameLength)
	case strings.TrimSpace(s) != s:
		return errors.New("a name with spaces around it")
	case strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0:
		return fmt.Errorf("name %q has a control character", s)
	}
	return nil
}
