package cli

import (
	"slices"
	"strings"
	"testing"
)

// FuzzParse feeds Parse argument lists (words separated by spaces): it must never panic, and
// what it keeps as arguments must be the input's words that are not flags, in order.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"a --loud b -n 3", "-- -n 3", "--n=x", "-", "a -- b --loud", "--loud=false x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		fs := Flags("fuzz")
		fs.Bool("loud", false, "")
		fs.Int("n", 0, "")
		args := strings.Fields(line)
		if err := Parse(fs, args); err != nil {
			return
		}
		rest := fs.Args()
		// Every argument kept is one of the input's words, in the same order.
		i := 0
		for _, r := range rest {
			j := slices.Index(args[i:], r)
			if j < 0 {
				t.Fatalf("%q: argument %q not in the input after position %d (args %q)", line, r, i, rest)
			}
			i += j + 1
		}
	})
}
