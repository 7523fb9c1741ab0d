package card

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestDocsExamplesLoad keeps docs/card-language.md true: every YAML example in it loads, a
// whole card as it stands, a hand or two inside a card of its own.
func TestDocsExamplesLoad(t *testing.T) {
	data, err := os.ReadFile("../../docs/card-language.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(string(data), -1)
	if len(blocks) < 2 {
		t.Fatalf("found %d YAML examples, want at least 2", len(blocks))
	}
	for i, b := range blocks {
		src := b[1]
		if !strings.HasPrefix(src, "name:") {
			src = "name: Docs\nyear: 2026\nhands:\n" + src
		}
		c, err := Parse("docs example", []byte(src))
		if err != nil {
			t.Errorf("example %d does not load:\n%s\n%v", i+1, b[1], err)
			continue
		}
		if len(c.Hands) == 0 {
			t.Errorf("example %d has no hands", i+1)
		}
	}
}
