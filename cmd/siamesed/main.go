// Command siamesed is the Siamese Table daemon and its tools: one binary, one subcommand each.
// Each subcommand lives in its own file and registers itself in init.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/siamesetable/siamesed/vision/classify"
)

// command is one subcommand. run gets the arguments after the command's words and writes its
// output to stdout; a returned error is printed to stderr and sets a non-zero exit.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

var commands = map[string]command{}

// register adds a subcommand named by one or two words ("card check", "replay").
func register(name, summary string, run func(ctx context.Context, args []string, stdout, stderr io.Writer) error) {
	if _, dup := commands[name]; dup {
		panic("siamesed: command registered twice: " + name)
	}
	commands[name] = command{summary: summary, run: run}
}

// errUsage marks an error that is the caller's mistake; main prints usage with it.
var errUsage = errors.New("usage")

// exitCode lets a command choose its exit status (card check: 1 for an invalid card).
type exitCode struct {
	code int
	err  error
}

func (e exitCode) Error() string { return e.err.Error() }
func (e exitCode) Unwrap() error { return e.err }

func main() {
	classify.ServeProbe() // when started as a model probe (see classify.Probe), only that
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := dispatch(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// dispatch runs the command named by args and returns the exit status.
func dispatch(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	name, rest, ok := lookup(args)
	if !ok {
		usage(stderr)
		if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
			return 0
		}
		fmt.Fprintf(stderr, "siamesed: unknown command %q\n", strings.Join(args, " "))
		return 2
	}
	err := commands[name].run(ctx, rest, stdout, stderr)
	if err == nil {
		return 0
	}
	fmt.Fprintf(stderr, "siamesed %s: %v\n", name, err)
	var ec exitCode
	switch {
	case errors.As(err, &ec):
		return ec.code
	case errors.Is(err, errUsage):
		return 2
	}
	return 1
}

func lookup(args []string) (name string, rest []string, ok bool) {
	if len(args) >= 2 {
		if _, ok := commands[args[0]+" "+args[1]]; ok {
			return args[0] + " " + args[1], args[2:], true
		}
	}
	if len(args) >= 1 {
		if _, ok := commands[args[0]]; ok {
			return args[0], args[1:], true
		}
	}
	return "", nil, false
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: siamesed COMMAND [ARGS]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-18s %s\n", n, commands[n].summary)
	}
}
