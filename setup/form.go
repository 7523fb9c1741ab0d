package setup

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/siamesetable/siamesed/configs"
	"github.com/siamesetable/siamesed/engine/card"
	"github.com/siamesetable/siamesed/engine/game"
	"gopkg.in/yaml.v3"
)

// Form is the table settings as the page sends them.
type Form struct {
	Rules   string   `json:"rules"`   // a built-in ruleset
	Options []string `json:"options"` // built-in options
	Names   []string `json:"names"`   // East first
	Card    CardForm `json:"card"`
}

// CardForm is the card: the one in use kept, the ruleset's built-in card, or a card file's
// text (pasted or uploaded).
type CardForm struct {
	Keep    bool   `json:"keep,omitempty"`
	Builtin bool   `json:"builtin,omitempty"`
	File    string `json:"file,omitempty"` // the uploaded file's name, for messages
	Text    string `json:"text,omitempty"`
}

// Problem is one thing wrong in a form: the field, and for a card its line and column.
type Problem struct {
	Field string `json:"field"`
	Line  int    `json:"line,omitempty"`
	Col   int    `json:"col,omitempty"`
	Msg   string `json:"msg"`
}

// FormError lists everything wrong in a form; nothing is saved.
type FormError struct{ Problems []Problem }

func (e *FormError) Error() string {
	var parts []string
	for _, p := range e.Problems {
		at := p.Field
		if p.Line > 0 {
			at += fmt.Sprintf(" line %d column %d", p.Line, p.Col)
		}
		parts = append(parts, at+": "+p.Msg)
	}
	return "setup: " + strings.Join(parts, "; ")
}

// InUse is the card the table plays now, which "keep" keeps.
type InUse struct {
	Data    []byte // nil for a built-in card
	Builtin bool
}

// Plan is a form checked: the settings to save, the card's bytes (nil: built-in) and what
// they build.
type Plan struct {
	Settings Settings
	CardData []byte
	Rules    *game.Ruleset
	Card     configs.Card
}

// MaxNameRunes bounds a player's name (it is drawn on the table display).
const MaxNameRunes = 24

// CheckForm checks a form, listing every problem at once; with none, it is the plan to save.
func CheckForm(f Form, inUse InUse) (Plan, error) {
	var probs []Problem
	bad := func(field, format string, a ...any) {
		probs = append(probs, Problem{Field: field, Msg: fmt.Sprintf(format, a...)})
	}
	infos, err := Rulesets()
	if err != nil {
		return Plan{}, err
	}
	kind := map[string]bool{} // name -> is an option
	for _, r := range infos {
		kind[r.Name] = r.Option
	}
	if opt, ok := kind[f.Rules]; !ok || opt {
		bad("rules", "%q is not a built-in ruleset (%s)", f.Rules, strings.Join(names(infos, false), ", "))
	}
	seen := map[string]bool{}
	for i, o := range f.Options {
		if opt, ok := kind[o]; !ok || !opt {
			bad(fmt.Sprintf("options[%d]", i), "%q is not a built-in option (%s)", o, strings.Join(names(infos, true), ", "))
		} else if seen[o] {
			bad(fmt.Sprintf("options[%d]", i), "%q is chosen twice", o)
		}
		seen[o] = true
	}
	var p Plan
	if len(probs) == 0 {
		spec := strings.Join(append([]string{f.Rules}, f.Options...), "+")
		if p.Rules, err = configs.LoadRuleset(spec); err != nil {
			bad("options", "%s", strings.TrimPrefix(err.Error(), "game: "))
		}
	}
	probs = append(probs, checkNames(f.Names, p.Rules)...)
	cardProbs := p.card(f.Card, inUse)
	probs = append(probs, cardProbs...)
	if len(cardProbs) == 0 && p.Rules != nil {
		if err := p.Rules.CheckCard(p.Card.Card); err != nil {
			bad("card", "%s", strings.TrimPrefix(err.Error(), "game: "))
		}
	}
	if len(probs) > 0 {
		return Plan{}, &FormError{Problems: probs}
	}
	p.Settings = Settings{Rules: p.Rules.Name, Names: trimmed(f.Names), CardName: p.Card.Name}
	return p, nil
}

// card reads the card the form names (p.Rules may be nil: the rules were wrong).
func (p *Plan) card(c CardForm, inUse InUse) []Problem {
	choices := 0
	for _, on := range []bool{c.Keep, c.Builtin, c.Text != ""} {
		if on {
			choices++
		}
	}
	if choices != 1 {
		return []Problem{{Field: "card", Msg: "choose one: keep the card in use, the ruleset's built-in card, or a card file's text"}}
	}
	if c.Keep && !inUse.Builtin {
		c.Text = string(inUse.Data)
	}
	if c.Text == "" { // built-in
		if p.Rules == nil {
			return nil
		}
		bc, err := configs.LoadCardFor("", p.Rules)
		if err != nil {
			return []Problem{{Field: "card", Msg: err.Error()}}
		}
		p.Card = bc
		return nil
	}
	if len(c.Text) > card.MaxCardBytes {
		return []Problem{{Field: "card", Msg: fmt.Sprintf("%d bytes: a card file is at most %d", len(c.Text), card.MaxCardBytes)}}
	}
	name := c.File
	if name == "" {
		name = "the card"
	}
	parsed, err := card.Parse(name, []byte(c.Text))
	var le *card.LoadError
	if errors.As(err, &le) {
		var out []Problem
		for _, pr := range le.Problems {
			out = append(out, Problem{Field: "card", Line: pr.Line, Col: pr.Col, Msg: pr.Msg})
		}
		return out
	}
	if err != nil {
		return []Problem{{Field: "card", Msg: err.Error()}}
	}
	p.CardData = []byte(c.Text)
	p.Card = configs.Card{Card: parsed, Data: p.CardData}
	return nil
}

func checkNames(ns []string, r *game.Ruleset) []Problem {
	var probs []Problem
	if r != nil && len(ns) != r.Players {
		probs = append(probs, Problem{Field: "names", Msg: fmt.Sprintf("%d names: %s is played by %d", len(ns), r.Name, r.Players)})
	}
	seen := map[string]int{}
	for i, n := range ns {
		field := fmt.Sprintf("names[%d]", i)
		n = strings.TrimSpace(n)
		switch {
		case n == "":
			probs = append(probs, Problem{Field: field, Msg: "empty: each seat needs a name"})
		case !utf8.ValidString(n) || strings.IndexFunc(n, unicode.IsControl) >= 0:
			probs = append(probs, Problem{Field: field, Msg: "a name is letters, digits, spaces and punctuation"})
		case utf8.RuneCountInString(n) > MaxNameRunes:
			probs = append(probs, Problem{Field: field, Msg: fmt.Sprintf("%d characters: at most %d", utf8.RuneCountInString(n), MaxNameRunes)})
		default:
			if j, ok := seen[strings.ToLower(n)]; ok {
				probs = append(probs, Problem{Field: field, Msg: fmt.Sprintf("%q is seat %d's name too: give each seat its own", n, j)})
			}
			seen[strings.ToLower(n)] = i
		}
	}
	return probs
}

func trimmed(ns []string) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = strings.TrimSpace(n)
	}
	return out
}

// RulesetInfo is a built-in ruleset or option, for the page's choices.
type RulesetInfo struct {
	Name    string `json:"name"`
	Option  bool   `json:"option"`
	Players int    `json:"players,omitempty"` // a ruleset's
	Limits  bool   `json:"limits,omitempty"`  // a ruleset that pays limits (its card is a limit list)
}

// Rulesets lists the built-in rulesets and options (configs.RulesetNames).
func Rulesets() ([]RulesetInfo, error) {
	var out []RulesetInfo
	for _, name := range configs.RulesetNames() {
		b, err := fs.ReadFile(configs.Files, "rules/"+name+".yaml")
		if err != nil {
			return nil, fmt.Errorf("setup: %w", err)
		}
		var head struct {
			Option bool `yaml:"option"`
		}
		if err := yaml.Unmarshal(b, &head); err != nil {
			return nil, fmt.Errorf("setup: rules/%s.yaml: %w", name, err)
		}
		info := RulesetInfo{Name: name, Option: head.Option}
		if !head.Option {
			r, err := configs.LoadRuleset(name)
			if err != nil {
				return nil, fmt.Errorf("setup: %w", err)
			}
			info.Players, info.Limits = r.Players, len(r.Scoring.LimitPoints) > 0
		}
		out = append(out, info)
	}
	return out, nil
}

func names(infos []RulesetInfo, options bool) []string {
	var out []string
	for _, r := range infos {
		if r.Option == options {
			out = append(out, r.Name)
		}
	}
	return slices.Clip(out)
}
