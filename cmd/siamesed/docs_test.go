package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// shellWords splits a command line as the shell would for the examples: spaces separate
// words, double quotes keep spaces, and "$card" stands for the example card as in demo.sh.
func shellWords(line string) []string {
	line = strings.ReplaceAll(line, `"$card"`, "configs/cards/example.yaml")
	var words []string
	var b strings.Builder
	inWord, quoted := false, false
	for _, r := range line {
		switch {
		case r == '"':
			quoted, inWord = !quoted, true
		case (r == ' ' || r == '\t') && !quoted:
			if inWord {
				words = append(words, b.String())
				b.Reset()
				inWord = false
			}
		default:
			b.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		words = append(words, b.String())
	}
	return words
}

// consoleExamples returns each "$ siamesed ..." line of the ```console blocks in a Markdown
// file with the output shown under it.
func consoleExamples(t *testing.T, path string) [][2]string {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out [][2]string
	for _, block := range regexp.MustCompile("(?s)```console\n(.*?)```").FindAllStringSubmatch(string(data), -1) {
		for _, ex := range strings.Split("\n"+block[1], "\n$ ")[1:] {
			cmd, output, _ := strings.Cut(ex, "\n")
			out = append(out, [2]string{cmd, output})
		}
	}
	return out
}

// TestDocsExamples runs every example of docs/cli.md and README.md from the repository root:
// each must print exactly what the document shows (stdout, then stderr).
func TestDocsExamples(t *testing.T) {
	t.Chdir("../..")
	for _, doc := range []string{"docs/cli.md", "README.md"} {
		examples := consoleExamples(t, doc)
		if len(examples) == 0 {
			t.Errorf("%s shows no example", doc)
		}
		for _, ex := range examples {
			t.Run(doc+": "+ex[0], func(t *testing.T) {
				words := shellWords(ex[0])
				if words[0] != "siamesed" {
					t.Fatalf("example runs %q, not siamesed", words[0])
				}
				_, out, errs := run(t, words[1:]...)
				if got := out + errs; got != ex[1] {
					t.Errorf("%s prints:\n%s\nthe document shows:\n%s", doc, got, ex[1])
				}
			})
		}
	}
}

// TestRunScriptExamples runs the card and replay commands of scripts/demo.sh: each must succeed
// and show something (a match, a pair of hands), not an empty answer.
func TestRunScriptExamples(t *testing.T) {
	t.Chdir("../..")
	data, err := os.ReadFile("scripts/demo.sh")
	if err != nil {
		t.Fatal(err)
	}
	script := strings.ReplaceAll(string(data), "\\\n", " ")
	ran := 0
	for _, line := range strings.Split(script, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "bin/siamesed card ") && !strings.HasPrefix(line, "bin/siamesed replay ") {
			continue
		}
		ran++
		t.Run(line, func(t *testing.T) {
			code, out, errs := run(t, shellWords(line)[1:]...)
			if code != 0 {
				t.Fatalf("exit %d\n%s%s", code, out, errs)
			}
			for _, empty := range []string{"no hand on the card", "no pair of hands", `"matches": []`} {
				if strings.Contains(out, empty) {
					t.Errorf("the demo shows nothing: %q\n%s", empty, out)
				}
			}
		})
	}
	if ran < 3 {
		t.Errorf("ran %d commands of scripts/demo.sh, want the card check, match, advise and replay", ran)
	}
}
