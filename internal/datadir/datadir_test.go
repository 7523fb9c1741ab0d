package datadir

import (
	"strings"
	"testing"
)

func TestDefault(t *testing.T) {
	for _, c := range []struct {
		name, data, xdg, home, want, err string
	}{
		{"the variable first", "/srv/siamesed", "/x/state", "/home/ann", "/srv/siamesed", ""},
		{"then XDG_STATE_HOME", "", "/x/state", "/home/ann", "/x/state/siamesed", ""},
		{"a relative XDG_STATE_HOME is ignored", "", "state", "/home/ann", "/home/ann/.local/state/siamesed", ""},
		{"then the home directory", "", "", "/home/ann", "/home/ann/.local/state/siamesed", ""},
		{"no home", "", "", "", "", "give --data DIR or set SIAMESED_DATA"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(Env, c.data)
			t.Setenv("XDG_STATE_HOME", c.xdg)
			t.Setenv("HOME", c.home)
			got, err := Default()
			if got != c.want || (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
				t.Errorf("Default() = %q, %v; want %q, %q", got, err, c.want, c.err)
			}
		})
	}
}
