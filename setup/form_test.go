package setup

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/siamesetable/siamesed/configs"
)

func exampleCard(t testing.TB) string {
	t.Helper()
	b, err := configs.Files.ReadFile(configs.ExampleCard)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// badCard is the example card with a tile that does not exist ("7Q") on line 19: the problem
// is named at its line and column.
func badCard(t testing.TB) (text string, line, col int) {
	card := exampleCard(t)
	lines := strings.Split(card, "\n")
	for i, l := range lines {
		if strings.Contains(l, `pattern: "FFF 2026a 2026b DDDa"`) {
			lines[i] = strings.Replace(l, "DDDa", "DDDq", 1)
			return strings.Join(lines, "\n"), i + 1, strings.Index(lines[i], "DDDq") + 1
		}
	}
	t.Fatal("the example card changed: find another line to spoil")
	return "", 0, 0
}

func problems(t *testing.T, err error) []Problem {
	t.Helper()
	var fe *FormError
	if !errors.As(err, &fe) {
		t.Fatalf("want a FormError, got %v", err)
	}
	return fe.Problems
}

func hasProblem(ps []Problem, field, words string) bool {
	for _, p := range ps {
		if p.Field == field && strings.Contains(p.Msg, words) {
			return true
		}
	}
	return false
}

// TestCheckForm: a good form is a plan; every problem of a bad one is listed, by field, a
// card's at its line and column.
func TestCheckForm(t *testing.T) {
	card := strings.Replace(exampleCard(t), "name: Siamese Table Example Card", "name: Club Card", 1)
	p, err := CheckForm(Form{Rules: "royale-4", Options: []string{"nmjl-tournament"}, Names: []string{" Ann ", "Bea", "Cy", "Di"}, Card: CardForm{Text: card}}, InUse{Builtin: true})
	if err != nil {
		t.Fatal(err)
	}
	if p.Settings.Rules != "royale-4+nmjl-tournament" || p.Settings.Names[0] != "Ann" || p.Card.Name != "Club Card" || p.Settings.CardName != "Club Card" || string(p.CardData) != card {
		t.Fatalf("plan: %+v", p.Settings)
	}

	bad, line, col := badCard(t)
	ps := problems(t, mustFail(CheckForm(Form{Rules: "siamese", Names: []string{"Ann", "Bea"}, Card: CardForm{Text: bad, File: "club.yaml"}}, InUse{Builtin: true})))
	found := false
	for _, p := range ps {
		found = found || p.Field == "card" && p.Line == line && p.Col >= col && p.Col <= col+4
	}
	if !found {
		t.Errorf("the card's mistake at line %d column %d is not named: %+v", line, col, ps)
	}

	ps = problems(t, mustFail(CheckForm(Form{Rules: "nmjl-tournament", Options: []string{"siamese", "nope"}, Names: []string{"", "Bea", "bea", strings.Repeat("x", 30), "a\x01"}, Card: CardForm{}}, InUse{})))
	for _, want := range [][2]string{{"rules", "not a built-in ruleset"}, {"options[0]", "not a built-in option"}, {"options[1]", "not a built-in option"},
		{"names[0]", "empty"}, {"names[2]", "seat 1's name"}, {"names[3]", "at most"}, {"names[4]", "letters"}, {"card", "choose one"}} {
		if !hasProblem(ps, want[0], want[1]) {
			t.Errorf("no problem %q naming %s: %+v", want[1], want[0], ps)
		}
	}

	ps = problems(t, mustFail(CheckForm(Form{Rules: "siamese", Names: []string{"Ann", "Bea", "Cy"}, Card: CardForm{Builtin: true}}, InUse{})))
	if !hasProblem(ps, "names", "played by 2") {
		t.Errorf("three names for two seats: %+v", ps)
	}
	limitList, _ := configs.Files.ReadFile(configs.ExampleLimitList)
	ps = problems(t, mustFail(CheckForm(Form{Rules: "siamese", Names: []string{"Ann", "Bea"}, Card: CardForm{Text: string(limitList)}}, InUse{})))
	if !hasProblem(ps, "card", "limits") {
		t.Errorf("a limit list under siamese: %+v", ps)
	}
	ps = problems(t, mustFail(CheckForm(Form{Rules: "siamese", Options: []string{"nmjl-tournament", "nmjl-tournament"}, Names: []string{"Ann", "Bea"}, Card: CardForm{Builtin: true}}, InUse{})))
	if !hasProblem(ps, "options[1]", "twice") {
		t.Errorf("an option twice: %+v", ps)
	}
}

func mustFail(_ Plan, err error) error { return err }

// TestKeepTheCardInUse: "keep" keeps the card the table plays, or the new ruleset's built-in
// card where the table plays a built-in one.
func TestKeepTheCardInUse(t *testing.T) {
	mine := strings.Replace(exampleCard(t), "name: Siamese Table Example Card", "name: Mine", 1)
	p, err := CheckForm(Form{Rules: "siamese", Names: []string{"A", "B"}, Card: CardForm{Keep: true}}, InUse{Data: []byte(mine)})
	if err != nil || p.Card.Name != "Mine" || string(p.CardData) != mine {
		t.Fatalf("keep a card file: %v, %+v", err, p.Settings)
	}
	p, err = CheckForm(Form{Rules: "wright-patterson-siamese", Names: []string{"A", "B"}, Card: CardForm{Keep: true}}, InUse{Builtin: true})
	if err != nil || p.CardData != nil || !p.Card.Limits {
		t.Fatalf("keep the built-in card under a ruleset that pays limits: %v, %+v", err, p.Settings)
	}
}

// TestSettingsSaved: saved and read back as saved; a card is kept under its contents' name and
// the one it replaced removed; forgetting removes both.
func TestSettingsSaved(t *testing.T) {
	dir := t.TempDir()
	if s, err := LoadSettings(dir); s != nil || err != nil {
		t.Fatalf("nothing saved yet: %+v, %v", s, err)
	}
	first, err := SaveSettings(dir, Settings{Rules: "siamese", Names: []string{"A", "B"}, CardName: "One"}, []byte("one"))
	if err != nil {
		t.Fatal(err)
	}
	second, err := SaveSettings(dir, Settings{Rules: "royale-3", Names: []string{"A", "B", "C"}, CardName: "Two"}, []byte("two"))
	if err != nil {
		t.Fatal(err)
	}
	if first.Card == second.Card || !strings.HasPrefix(second.Card, "card-") {
		t.Fatalf("card files %q, %q", first.Card, second.Card)
	}
	if _, err := os.Stat(first.CardPath(dir)); !os.IsNotExist(err) {
		t.Errorf("the replaced card is left: %v", err)
	}
	if b, err := os.ReadFile(second.CardPath(dir)); err != nil || string(b) != "two" {
		t.Errorf("the card: %q, %v", b, err)
	}
	back, err := LoadSettings(dir)
	if err != nil || back.Rules != "royale-3" || len(back.Names) != 3 || back.Card != second.Card || back.CardName != "Two" {
		t.Fatalf("read back: %+v, %v", back, err)
	}
	builtin, err := SaveSettings(dir, Settings{Rules: "siamese", Names: []string{"A", "B"}}, nil)
	if err != nil || builtin.Card != "" || builtin.CardPath(dir) != "" {
		t.Fatalf("a built-in card: %+v, %v", builtin, err)
	}
	if err := ForgetSettings(dir); err != nil {
		t.Fatal(err)
	}
	if s, err := LoadSettings(dir); s != nil || err != nil {
		t.Fatalf("forgotten: %+v, %v", s, err)
	}
	ents, _ := os.ReadDir(Dir(dir))
	if len(ents) != 0 {
		t.Errorf("left: %v", ents)
	}
}

// TestSettingsFileDamaged: a settings file edited into something else is named, with its line.
func TestSettingsFileDamaged(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(Dir(dir), 0o700)
	for body, words := range map[string]string{
		"rules: siamese\nnames: [A, B]\ncolour: red\n":            "line 3",
		"rules: siamese\nnames: [A, B]\ncard: ../../etc/passwd\n": "not a card file",
		"names: [A, B]\n": "rules: empty",
	} {
		os.WriteFile(SettingsFile(dir), []byte(body), 0o644)
		if _, err := LoadSettings(dir); err == nil || !strings.Contains(err.Error(), words) || !strings.Contains(err.Error(), filepath.Base(SettingsFile(dir))) {
			t.Errorf("%q: %v (want %q)", body, err, words)
		}
	}
}

// TestRulesets: the page's choices are the built-in rulesets (with their players) and options.
func TestRulesets(t *testing.T) {
	infos, err := Rulesets()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]RulesetInfo{}
	for _, r := range infos {
		got[r.Name] = r
	}
	if len(infos) != len(configs.RulesetNames()) || got["siamese"].Players != 2 || got["royale-4"].Players != 4 ||
		!got["nmjl-tournament"].Option || got["siamese"].Option || !got["wright-patterson-siamese"].Limits {
		t.Fatalf("rulesets: %+v", infos)
	}
}
