package game

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/siamesetable/siamesed/engine/card"
)

var update = flag.Bool("update", false, "rewrite golden files")

func loadRules(t testing.TB, spec string) *Ruleset {
	t.Helper()
	r, err := LoadRuleset(spec, func(name string) ([]byte, error) {
		return os.ReadFile("../../configs/rules/" + name + ".yaml")
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func loadCard(t testing.TB) *card.Card {
	t.Helper()
	c, _ := loadCardData(t)
	return c
}

// loadCardData reads the test card and the bytes it came from (for its hash).
func loadCardData(t testing.TB) (*card.Card, []byte) {
	t.Helper()
	data, err := os.ReadFile("testdata/card.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c, err := card.Parse("testdata/card.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	return c, data
}

// cardFor is the test card a ruleset plays: the limit list where it pays limits.
func cardFor(t testing.TB, r *Ruleset) *card.Card {
	t.Helper()
	if len(r.Scoring.LimitPoints) > 0 {
		return loadLimitCard(t)
	}
	return loadCard(t)
}

// loadLimitCard reads the test limit list (for wright-patterson-siamese).
func loadLimitCard(t testing.TB) *card.Card {
	t.Helper()
	c, _ := loadCardFile(t, "testdata/limit-card.yaml")
	return c
}

// loadCardFile reads a test card and the bytes it came from.
func loadCardFile(t testing.TB, path string) (*card.Card, []byte) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c, err := card.Parse(path, data)
	if err != nil {
		t.Fatal(err)
	}
	return c, data
}

// scenario is a scenario file read: its log and the state its rules start from.
type scenario struct {
	spec  string
	log   *Log
	start State
}

// readScenario reads a scenario: a log with a header, or a version-1 log whose first line is
// "# rules: NAME".
func readScenario(t *testing.T, path string) scenario {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	l, err := ReadLog(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	c, cardData := loadCardData(t)
	if h := l.Header; h != nil {
		r := loadRules(t, h.RulesSpec())
		if len(r.Scoring.LimitPoints) > 0 { // a limit ruleset plays the test limit list
			c, cardData = loadCardFile(t, "testdata/limit-card.yaml")
		}
		if err := h.Check(r, c, cardData); err != nil {
			t.Fatal(err)
		}
		return scenario{spec: h.RulesSpec(), log: l, start: h.Start(r, c)}
	}
	first, _, _ := bufio.NewReader(bytes.NewReader(data)).ReadLine()
	spec, ok := strings.CutPrefix(string(first), "# rules: ")
	if !ok {
		t.Fatalf("a log without a header must start with '# rules: NAME', got %q", first)
	}
	return scenario{spec: spec, log: l, start: StartLegacy(loadRules(t, spec), c)}
}

// TestScenarios replays every testdata/scenarios/*.jsonl and compares the verdicts and result
// with the .golden.json beside it (-update rewrites them).
func TestScenarios(t *testing.T) {
	files, _ := filepath.Glob("testdata/scenarios/*.jsonl")
	if len(files) == 0 {
		t.Fatal("no scenarios")
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".jsonl"), func(t *testing.T) {
			sc := readScenario(t, f)
			s, vs, err := Replay(sc.start, sc.log.Actions)
			got, _ := json.MarshalIndent(struct {
				Error    string    `json:"error,omitempty"`
				Verdicts []Verdict `json:"verdicts"`
				Result   *Result   `json:"result"`
			}{errString(err), vs, s.Result}, "", "  ")
			golden := strings.TrimSuffix(f, ".jsonl") + ".golden.json"
			if *update {
				if err := os.WriteFile(golden, append(got, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test -update writes it)", err)
			}
			if string(append(got, '\n')) != string(want) {
				t.Errorf("verdicts differ from %s:\n%s", golden, got)
			}
		})
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
