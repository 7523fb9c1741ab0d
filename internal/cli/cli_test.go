package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
)

type statusErr struct{ code int }

func (e statusErr) Error() string   { return "bad input" }
func (e statusErr) ExitStatus() int { return e.code }

// testSet has a group of two commands and a lone one; "grp echo" prints its flags and
// arguments so that the parsing shows.
func testSet() *Set {
	s := NewSet("prog")
	s.Register(Command{Name: "grp echo", Summary: "say it back: grp echo [--loud] WORD...", Run: func(_ context.Context, args []string, stdout, _ io.Writer) error {
		fs := Flags("grp echo")
		loud := fs.Bool("loud", false, "shout")
		n := fs.Int("n", 1, "how many `TIMES`")
		if err := Parse(fs, args); err != nil {
			return err
		}
		if fs.NArg() == 0 {
			return fmt.Errorf("%w: give a word", ErrUsage)
		}
		fmt.Fprintf(stdout, "loud=%v n=%d args=%q\n", *loud, *n, fs.Args())
		return nil
	}})
	s.Register(Command{Name: "grp fail", Summary: "fails with status 3", Run: func(context.Context, []string, io.Writer, io.Writer) error {
		return fmt.Errorf("wrapped: %w", statusErr{3})
	}})
	s.Register(Command{Name: "lone", Summary: "breaks", Run: func(context.Context, []string, io.Writer, io.Writer) error {
		return errors.New("broken")
	}})
	return s
}

func run(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := testSet().Dispatch(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestDispatch(t *testing.T) {
	tests := []struct {
		name         string
		args         []string
		code         int
		stdout       []string
		stderr       []string
		stdoutIsNone bool
	}{
		{"no command: the list on stderr, a usage mistake", nil, 2, nil, []string{"usage: prog COMMAND", "grp echo", "lone"}, true},
		{"help on stdout", []string{"help"}, 0, []string{"usage: prog COMMAND", "grp echo  say it back", "grp fail", "lone"}, nil, false},
		{"--help on stdout", []string{"--help"}, 0, []string{"grp echo"}, nil, false},
		{"a group lists its commands", []string{"grp"}, 0, []string{"usage: prog grp COMMAND", "grp echo", "grp fail"}, nil, false},
		{"help for a group", []string{"help", "grp"}, 0, []string{"grp echo", "grp fail"}, nil, false},
		{"help for a command shows its flags", []string{"help", "grp", "echo"}, 0, []string{"usage: prog grp echo [--loud] WORD...", "say it back", "--loud", "--n TIMES", "how many TIMES (default 1)"}, nil, false},
		{"--help after a command", []string{"grp", "echo", "--help"}, 0, []string{"usage: prog grp echo", "--loud"}, nil, false},
		{"unknown command", []string{"nope"}, 2, nil, []string{`prog: unknown command "nope"`, "lone"}, true},
		{"unknown command of a group lists the group", []string{"grp", "nope"}, 2, nil, []string{`unknown command "grp nope"`, "grp echo"}, true},
		{"unknown flag names the usage", []string{"grp", "echo", "--shout", "x"}, 2, nil, []string{"prog grp echo: flag provided but not defined: -shout", "usage: prog grp echo [--loud] WORD...", "--loud"}, true},
		{"a command's own usage mistake shows the flags too", []string{"grp", "echo"}, 2, nil, []string{"prog grp echo: give a word\n", "usage: prog grp echo", "--loud"}, true},
		{"flags after arguments are read", []string{"grp", "echo", "a", "--loud", "b", "-n", "3"}, 0, []string{`loud=true n=3 args=["a" "b"]`}, nil, false},
		{"after -- everything is an argument", []string{"grp", "echo", "a", "--", "--loud"}, 0, []string{`loud=false n=1 args=["a" "--loud"]`}, nil, false},
		{"a command chooses its status", []string{"grp", "fail"}, 3, nil, []string{"prog grp fail: wrapped: bad input"}, true},
		{"other errors exit 1", []string{"lone"}, 1, nil, []string{"prog lone: broken"}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := run(tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d\nstdout %q\nstderr %q", code, tc.code, out, errs)
			}
			for _, w := range tc.stdout {
				if !strings.Contains(out, w) {
					t.Errorf("stdout lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tc.stderr {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr lacks %q:\n%s", w, errs)
				}
			}
			if tc.stdoutIsNone && out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
		})
	}
}

func TestRegisterTwicePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	s := testSet()
	s.Register(Command{Name: "lone"})
}

func TestParseKeepsArgumentOrder(t *testing.T) {
	fs := Flags("x")
	v := fs.String("v", "", "")
	if err := Parse(fs, []string{"1", "-v", "a", "2", "3", "--v=b", "4"}); err != nil {
		t.Fatal(err)
	}
	if *v != "b" || !slices.Equal(fs.Args(), []string{"1", "2", "3", "4"}) {
		t.Errorf("v=%q args=%q", *v, fs.Args())
	}
	err := Parse(fs, []string{"-v"})
	var ue *UsageError
	if !errors.As(err, &ue) || !errors.Is(err, ErrUsage) || ue.Help() || !strings.Contains(ue.Flags, "--v STRING") {
		t.Errorf("missing value: %v (%+v)", err, ue)
	}
}
