package game

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCoverageNamesEveryScenario keeps docs/rules-coverage.md and the scenarios together: every
// scenario (a game log, or a session of them) is named there (a Wright-Patterson one without its ruleset's prefix), and every
// Wright-Patterson scenario the document names exists.
func TestCoverageNamesEveryScenario(t *testing.T) {
	data, err := os.ReadFile("../../docs/rules-coverage.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	files, _ := filepath.Glob("testdata/scenarios/*.jsonl")
	sessions, _ := filepath.Glob("testdata/scenarios/*.session.json")
	have := map[string]bool{}
	for _, f := range append(files, sessions...) {
		name := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(f), ".jsonl"), ".session.json")
		have[name] = true
		if !strings.Contains(doc, strings.TrimPrefix(name, "wright-patterson-siamese-")) {
			t.Errorf("docs/rules-coverage.md does not name the scenario %s", name)
		}
	}
	i := strings.Index(doc, "ruleset `wright-patterson-siamese`)")
	j := strings.Index(doc, "## Engine disagreements")
	if i < 0 || j < i {
		t.Fatal("docs/rules-coverage.md has no Wright-Patterson section")
	}
	named := regexp.MustCompile(`\b((?:payout|play|setup|racks|flowers|chows|tally)-[a-z0-9-]+)`).FindAllStringSubmatch(doc[i:j], -1)
	if len(named) < 20 {
		t.Fatalf("the Wright-Patterson section names %d scenarios", len(named))
	}
	for _, m := range named {
		if !have["wright-patterson-siamese-"+m[1]] {
			t.Errorf("docs/rules-coverage.md names %s, which is no scenario", m[1])
		}
	}
}
