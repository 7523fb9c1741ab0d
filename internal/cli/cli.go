// Package cli is the command-line plumbing the project's binaries share: a set of one- and
// two-word commands ("replay", "card match"), help on stdout, a usage message that names the
// command's flags when it is used wrongly, flags read wherever they stand among the arguments,
// and the exit statuses docs/cli.md promises: 0 done, 1 the input is invalid, 2 a usage mistake.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Command is one subcommand. Run gets the arguments after the command's words; a returned error
// is printed on stderr and sets the exit status.
type Command struct {
	Name string // one or two words: "replay", "card match"
	// Summary says what the command does, optionally followed by ": " and its synopsis
	// starting with the command's first word ("which hands ...: card match [flags] TILE...").
	Summary string
	Run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

// what is the summary without its synopsis.
func (c Command) what() string {
	if i := c.synopsisAt(); i >= 0 {
		return c.Summary[:i]
	}
	return c.Summary
}

// synopsis is how the command is called, from the summary, or "NAME [flags]".
func (c Command) synopsis() string {
	if i := c.synopsisAt(); i >= 0 {
		return c.Summary[i+2:]
	}
	return c.Name + " [flags]"
}

func (c Command) synopsisAt() int {
	first, _, _ := strings.Cut(c.Name, " ")
	return strings.LastIndex(c.Summary, ": "+first+" ")
}

// ErrUsage marks an error that is the caller's mistake: exit status 2, with the usage.
var ErrUsage = errors.New("usage")

// ExitStatuser is an error that chooses the exit status (card check: 1 for an invalid card).
type ExitStatuser interface {
	error
	ExitStatus() int
}

// Set is a program's commands.
type Set struct {
	Prog string
	cmds map[string]Command
}

// NewSet returns an empty set for the program named prog.
func NewSet(prog string) *Set { return &Set{Prog: prog, cmds: map[string]Command{}} }

// Register adds a command; a name registered twice is a programming error.
func (s *Set) Register(c Command) {
	if _, dup := s.cmds[c.Name]; dup {
		panic(s.Prog + ": command registered twice: " + c.Name)
	}
	s.cmds[c.Name] = c
}

// Lookup finds the command named by the first one or two arguments.
func (s *Set) Lookup(args []string) (c Command, rest []string, ok bool) {
	if len(args) >= 2 {
		if c, ok := s.cmds[args[0]+" "+args[1]]; ok {
			return c, args[2:], true
		}
	}
	if len(args) >= 1 {
		if c, ok := s.cmds[args[0]]; ok {
			return c, args[1:], true
		}
	}
	return Command{}, nil, false
}

// names lists the commands whose name starts with prefix (all for ""), sorted.
func (s *Set) names(prefix string) []string {
	var out []string
	for n := range s.cmds {
		if prefix == "" || n == prefix || strings.HasPrefix(n, prefix+" ") {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// Dispatch runs the command named by args and returns the exit status.
func (s *Set) Dispatch(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		s.list(stderr, "")
		return 2
	}
	if args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		return s.help(ctx, args[1:], stdout, stderr)
	}
	c, rest, ok := s.Lookup(args)
	if !ok {
		if len(args) == 1 && len(s.names(args[0])) > 0 { // a group word alone: its commands
			s.list(stdout, args[0])
			return 0
		}
		fmt.Fprintf(stderr, "%s: unknown command %q\n", s.Prog, strings.Join(args, " "))
		group := args[0]
		if len(s.names(group)) == 0 {
			group = ""
		}
		s.list(stderr, group)
		return 2
	}
	return s.finish(c, c.Run(ctx, rest, stdout, stderr), stdout, stderr)
}

// finish prints a command's error and turns it into the exit status.
func (s *Set) finish(c Command, err error, stdout, stderr io.Writer) int {
	var ue *UsageError
	var ec ExitStatuser
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ue) && ue.Help():
		s.usage(stdout, c, ue.Flags)
		return 0
	case errors.Is(err, ErrUsage):
		fmt.Fprintf(stderr, "%s %s: %s\n", s.Prog, c.Name, strings.TrimPrefix(err.Error(), ErrUsage.Error()+": "))
		flags := flagsOf(c.Name)
		if ue != nil {
			flags = ue.Flags
		}
		s.usage(stderr, c, flags)
		return 2
	case errors.As(err, &ec):
		if err.Error() != "" { // an empty message: the command has said it already
			fmt.Fprintf(stderr, "%s %s: %v\n", s.Prog, c.Name, err)
		}
		return ec.ExitStatus()
	}
	fmt.Fprintf(stderr, "%s %s: %v\n", s.Prog, c.Name, err)
	return 1
}

// help prints the list of commands, or one command's usage and flags, on stdout.
func (s *Set) help(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		s.list(stdout, "")
		return 0
	}
	c, _, ok := s.Lookup(args)
	if !ok {
		if len(s.names(args[0])) > 0 && len(args) == 1 {
			s.list(stdout, args[0])
			return 0
		}
		fmt.Fprintf(stderr, "%s help: unknown command %q\n", s.Prog, strings.Join(args, " "))
		return 2
	}
	// A command shows its flags when asked for --help; one without flags returns another error.
	err := c.Run(ctx, []string{"--help"}, io.Discard, io.Discard)
	var ue *UsageError
	if errors.As(err, &ue) && ue.Help() {
		s.usage(stdout, c, ue.Flags)
	} else {
		s.usage(stdout, c, "")
	}
	return 0
}

// list prints the commands (of one group, or all).
func (s *Set) list(w io.Writer, group string) {
	if group == "" {
		fmt.Fprintf(w, "usage: %s COMMAND [ARGS]   (%s help COMMAND: its flags)\n\ncommands:\n", s.Prog, s.Prog)
	} else {
		fmt.Fprintf(w, "usage: %s %s COMMAND [ARGS]   (%s help %s COMMAND: its flags)\n\ncommands:\n", s.Prog, group, s.Prog, group)
	}
	names := s.names(group)
	width := 0
	for _, n := range names {
		width = max(width, len(n))
	}
	for _, n := range names {
		fmt.Fprintf(w, "  %-*s  %s\n", width, n, s.cmds[n].what())
	}
}

// usage prints how a command is called and, when known, its flags.
func (s *Set) usage(w io.Writer, c Command, flags string) {
	fmt.Fprintf(w, "usage: %s %s\n  %s\n", s.Prog, c.synopsis(), c.what())
	if flags != "" {
		fmt.Fprintf(w, "flags:\n%s", flags)
	}
}
