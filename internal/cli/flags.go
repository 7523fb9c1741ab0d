package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
)

// UsageError is a flag the command could not read (or --help); it carries the command's flags
// so that the message can list them.
type UsageError struct {
	Err   error
	Flags string // the flags, one a line, as FlagText prints them
}

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// Is makes every UsageError a usage mistake, for errors.Is(err, ErrUsage).
func (e *UsageError) Is(target error) bool { return target == ErrUsage }

// Help reports whether the user asked for the usage (-h, --help) rather than made a mistake.
func (e *UsageError) Help() bool { return errors.Is(e.Err, flag.ErrHelp) }

// flagSets remembers each command's latest flag set, so that a usage mistake the command finds
// itself (a missing --tiles) is answered with its flags too.
var flagSets sync.Map // command name -> *flag.FlagSet

// Flags returns a flag set for the named command that prints nothing itself: Parse's errors
// carry the message and the flags instead, for Dispatch to print once.
func Flags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	flagSets.Store(name, fs)
	return fs
}

// flagsOf lists the flags of the named command's latest flag set, or "".
func flagsOf(name string) string {
	if fs, ok := flagSets.Load(name); ok {
		return FlagText(fs.(*flag.FlagSet))
	}
	return ""
}

// Parse reads the flags wherever they stand among the arguments (card check a.yaml --json),
// up to a "--" after which everything is an argument. Afterwards fs.Args() holds the other
// arguments in order. A mistake, or -h, returns a *UsageError.
func Parse(fs *flag.FlagSet, args []string) error {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return &UsageError{Err: err, Flags: FlagText(fs)}
		}
		left := fs.Args()
		if len(left) == 0 {
			break
		}
		if used := len(args) - len(left); used > 0 && args[used-1] == "--" {
			rest = append(rest, left...)
			break
		}
		rest = append(rest, left[0])
		args = left[1:]
	}
	// Leave the arguments where fs.Args() finds them: "--" ends the flags at once.
	return fs.Parse(append([]string{"--"}, rest...))
}

// FlagText lists the flags, one a line: "  --card FILE   card file (default ...)".
func FlagText(fs *flag.FlagSet) string {
	type row struct{ left, usage string }
	var rows []row
	width := 0
	fs.VisitAll(func(f *flag.Flag) {
		arg, usage := flag.UnquoteUsage(f)
		left := "--" + f.Name
		if arg != "" {
			left += " " + strings.ToUpper(arg)
		}
		if !slices.Contains([]string{"", "0", "0s", "false", "[]"}, f.DefValue) {
			usage += fmt.Sprintf(" (default %s)", f.DefValue)
		}
		rows = append(rows, row{left, usage})
		width = max(width, len(left))
	})
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, r.left, r.usage)
	}
	return b.String()
}

// WriteJSON prints v as indented JSON: the --json document of every command.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
