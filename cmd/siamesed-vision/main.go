// Command siamesed-vision is the part of Siamese Table that links OpenCV: the camera's tools
// (vision eval, split, art, model; calibrate and enroll camera) and the camera worker the daemon
// runs (vision watch). `siamesed` runs it for those commands, so the rest of siamesed starts
// without loading OpenCV, and an OpenCV abort cannot take the daemon down.
package main

import (
	"context"
	"flag"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/siamesetable/siamesed/internal/cli"
	"github.com/siamesetable/siamesed/vision/classify"
)

// commands are siamesed-vision's subcommands; `siamesed` forwards the same names here.
var commands = cli.NewSet("siamesed-vision")

func register(name, summary string, run func(ctx context.Context, args []string, stdout, stderr io.Writer) error) {
	commands.Register(cli.Command{Name: name, Summary: summary, Run: run})
}

// errUsage marks an error that is the caller's mistake: exit status 2, with the usage.
var errUsage = cli.ErrUsage

func newFlags(name string, _ io.Writer) *flag.FlagSet  { return cli.Flags(name) }
func parseFlags(fs *flag.FlagSet, args []string) error { return cli.Parse(fs, args) }
func dispatch(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return commands.Dispatch(ctx, args, stdout, stderr)
}

func main() {
	classify.ServeProbe() // when started as a model probe (see classify.Probe), only that
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := dispatch(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
