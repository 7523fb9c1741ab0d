package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/siamesetable/siamesed/history"
	"github.com/siamesetable/siamesed/internal/datadir"
)

func init() {
	register("history", "finished games: history [--data DIR] [--json] [--session NAME | --day YYYY-MM-DD]", historyList)
	register("history show", "one finished game: history show [--data DIR] [--json] ID", historyShow)
	register("history tally", "session totals: history tally [--data DIR] [--json] [--session NAME | --day YYYY-MM-DD] [--pot CENTS [--triple]]", historyTally)
}

// historyTimeout is how long the history command waits for the daemon's lock.
var historyTimeout = time.Second

// historyFlags are the flags every history command takes.
type historyFlags struct {
	fl      *flag.FlagSet
	data    *string
	asJSON  *bool
	session *string
	day     *string
}

func newHistoryFlags(name string, stderr io.Writer, scoped bool) historyFlags {
	fl := newFlags(name, stderr)
	h := historyFlags{
		fl:     fl,
		data:   fl.String("data", "", "data directory (default: $"+datadir.Env+", else $XDG_STATE_HOME/siamesed or ~/.local/state/siamesed)"),
		asJSON: fl.Bool("json", false, "print JSON"),
	}
	if scoped {
		h.session = fl.String("session", "", "only this session's games")
		h.day = fl.String("day", "", "only the games finished on this day, YYYY-MM-DD")
	}
	return h
}

// parse reads the flags and checks that a session and a day are not both given.
func (h historyFlags) parse(args []string) error {
	if err := parseFlags(h.fl, args); err != nil {
		return err
	}
	if h.session != nil && *h.session != "" && *h.day != "" {
		return fmt.Errorf("%w: --session or --day, not both", errUsage)
	}
	if h.day != nil && *h.day != "" {
		if err := history.CheckDay(*h.day); err != nil {
			return fmt.Errorf("%w: --day: %v", errUsage, err)
		}
	}
	return nil
}

// open opens the history for reading; a missing one is history.ErrNoHistory.
func (h historyFlags) open() (*history.DB, error) {
	dir := *h.data
	if dir == "" {
		var err error
		if dir, err = datadir.Default(); err != nil {
			return nil, err
		}
	}
	return history.Open(history.Path(dir), history.Options{ReadOnly: true, Timeout: historyTimeout})
}

func historyList(_ context.Context, args []string, stdout, stderr io.Writer) error {
	h := newHistoryFlags("history", stderr, true)
	if err := h.parse(args); err != nil {
		return err
	}
	if h.fl.NArg() > 0 {
		return fmt.Errorf("%w: history takes no arguments (did you mean history show %s?)", errUsage, h.fl.Arg(0))
	}
	db, err := h.open()
	if errors.Is(err, history.ErrNoHistory) {
		return printReport(stdout, *h.asJSON, []history.Game{}, func(w io.Writer) { fmt.Fprintln(w, err) })
	}
	if err != nil {
		return err
	}
	defer db.Close()
	games, err := db.List(history.Filter{Session: *h.session, Day: *h.day})
	if err != nil {
		return err
	}
	if games == nil {
		games = []history.Game{}
	}
	return printReport(stdout, *h.asJSON, games, func(w io.Writer) { printGameList(w, games) })
}

func historyShow(_ context.Context, args []string, stdout, stderr io.Writer) error {
	h := newHistoryFlags("history show", stderr, false)
	if err := h.parse(args); err != nil {
		return err
	}
	if h.fl.NArg() != 1 {
		return fmt.Errorf("%w: history show needs one game id (history lists them)", errUsage)
	}
	db, err := h.open()
	if err != nil {
		return err
	}
	defer db.Close()
	g, err := db.Get(h.fl.Arg(0))
	if err != nil {
		return err
	}
	return printReport(stdout, *h.asJSON, g, func(w io.Writer) { printRecord(w, g) })
}

func historyTally(_ context.Context, args []string, stdout, stderr io.Writer) error {
	h := newHistoryFlags("history tally", stderr, true)
	pot := h.fl.Int("pot", 0, "pay the totals out of a pot of this many cents (royale 16; default: the pot set for the session)")
	triple := h.fl.Bool("triple", false, "with --pot: triple each score first (royale 16a)")
	if err := h.parse(args); err != nil {
		return err
	}
	switch {
	case h.fl.NArg() > 0:
		return fmt.Errorf("%w: history tally takes no arguments", errUsage)
	case *pot < 0:
		return fmt.Errorf("%w: --pot %d: a pot is not negative", errUsage, *pot)
	case *triple && *pot == 0:
		return fmt.Errorf("%w: --triple goes with --pot", errUsage)
	}
	db, err := h.open()
	if errors.Is(err, history.ErrNoHistory) {
		return printReport(stdout, *h.asJSON, history.TallyOf(nil), func(w io.Writer) { fmt.Fprintln(w, err) })
	}
	if err != nil {
		return err
	}
	defer db.Close()
	t, latest, err := tallyOf(db, *h.session, *h.day)
	if err != nil {
		return err
	}
	if *pot > 0 {
		t = t.WithPot(history.Pot{Cents: *pot, Triple: *triple})
	}
	return printReport(stdout, *h.asJSON, t, func(w io.Writer) { printTally(w, t, latest) })
}

// tallyOf is the tally of a day, a session, or else the session of the latest game (latest
// true); a session or day without games is an error, as a name mistyped is the likely cause.
func tallyOf(db *history.DB, session, day string) (t history.Tally, latest bool, err error) {
	switch {
	case day != "":
		t, err = db.TallyDay(day)
	case session != "":
		t, err = db.Tally(session)
	default:
		g, lerr := db.Latest()
		if lerr != nil {
			return t, false, lerr
		}
		latest = true
		t, err = db.Tally(g.Session)
	}
	if err == nil && len(t.Games) == 0 {
		what := "session " + session
		if day != "" {
			what = "day " + day
		}
		err = fmt.Errorf("no games recorded for the %s in %s", what, db.File())
	}
	return t, latest, err
}
