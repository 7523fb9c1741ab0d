package journal

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckID(t *testing.T) {
	for _, c := range []struct {
		id string
		ok bool
	}{
		{"2026-11-23T19-04-11Z", true},
		{"g", true},
		{"a.b_c-d", true},
		{strings.Repeat("x", MaxIDLen), true},
		{"", false},
		{".", false},
		{"..", false},
		{"-rf", false},
		{"a b", false},
		{"a/b", false},
		{`a\b`, false},
		{"a:b", false},
		{"é", false},
		{strings.Repeat("x", MaxIDLen+1), false},
	} {
		if err := CheckID(c.id); (err == nil) != c.ok {
			t.Errorf("CheckID(%q) = %v, want ok %v", c.id, err, c.ok)
		}
	}
}

// FuzzCheckID: an accepted id is one plain file name in games/, never a way out of it.
func FuzzCheckID(f *testing.F) {
	for _, s := range []string{"2026-11-23T19-04-11Z", "..", "a/../b", "", "x.jsonl"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		if CheckID(id) != nil {
			return
		}
		p := filepath.Join("games", id+LogExt)
		if filepath.Dir(p) != "games" || filepath.Base(p) != id+LogExt || strings.HasPrefix(id, ".") || len(id) > MaxIDLen {
			t.Errorf("accepted %q, which escapes or hides: %s", id, p)
		}
	})
}
