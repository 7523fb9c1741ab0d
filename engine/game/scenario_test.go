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
	parts := strings.Split(spec, "+")
	data, err := os.ReadFile("../../configs/rules/" + parts[0] + ".yaml")
	if err != nil {
		t.Fatal(err)
	}
	r, err := ParseRuleset(parts[0], data)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range parts[1:] {
		data, err := os.ReadFile("../../configs/rules/" + o + ".yaml")
		if err != nil {
			t.Fatal(err)
		}
		if r, err = r.WithOption(o, data); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

func loadCard(t testing.TB) *card.Card {
	t.Helper()
	data, err := os.ReadFile("testdata/card.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c, err := card.Parse("testdata/card.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestScenarios replays every testdata/scenarios/*.jsonl (first line "# rules: NAME") and
// compares the verdicts and result with the .golden.json beside it (-update rewrites them).
func TestScenarios(t *testing.T) {
	files, _ := filepath.Glob("testdata/scenarios/*.jsonl")
	if len(files) == 0 {
		t.Fatal("no scenarios")
	}
	c := loadCard(t)
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".jsonl"), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			first, _, _ := bufio.NewReader(bytes.NewReader(data)).ReadLine()
			spec, ok := strings.CutPrefix(string(first), "# rules: ")
			if !ok {
				t.Fatalf("first line must be '# rules: NAME', got %q", first)
			}
			acts, _, err := ReadLog(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			s, vs, err := Replay(New(loadRules(t, spec), c), acts)
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
