// Command siamesed is the Siamese Table daemon and its tools: one binary, one subcommand each.
// Each subcommand lives in its own file and registers itself in init; internal/cli dispatches,
// prints help and usage, and sets the exit status.
package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/siamesetable/siamesed/internal/cli"
)

// commands are siamesed's subcommands.
var commands = cli.NewSet("siamesed")

// register adds a subcommand named by one or two words ("card check", "replay"). The summary
// may end with ": " and the synopsis ("...: card match [flags] TILE...").
func register(name, summary string, run func(ctx context.Context, args []string, stdout, stderr io.Writer) error) {
	commands.Register(cli.Command{Name: name, Summary: summary, Run: run})
}

// errUsage marks an error that is the caller's mistake: exit status 2, with the usage.
var errUsage = cli.ErrUsage

// exitCode lets a command choose its exit status (card check: 1 for an invalid card).
type exitCode struct {
	code int
	err  error
}

func (e exitCode) Error() string   { return e.err.Error() }
func (e exitCode) Unwrap() error   { return e.err }
func (e exitCode) ExitStatus() int { return e.code }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := dispatch(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// dispatch runs the command named by args and returns the exit status.
func dispatch(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return commands.Dispatch(ctx, args, stdout, stderr)
}
