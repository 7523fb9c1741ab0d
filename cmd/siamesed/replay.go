package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/journal"
)

func init() {
	register("replay", "replay game logs: replay [--rules NAME[+OPTION]] [--card F] [--json] [--all] [--strict] [--pot C [--triple]] [--wall-pot P] [--wall-pot-left refund|carry] [--coin P] GAME.jsonl...", replay)
}

// gameOut is replay's report of one game (the --json document).
type gameOut struct {
	File     string           `json:"file,omitempty"`
	Rules    string           `json:"rules"`
	Header   *game.Header     `json:"header,omitempty"`
	Actions  int              `json:"actions"`
	Torn     string           `json:"torn,omitempty"` // a torn last line that was left out
	Verdicts []game.Verdict   `json:"verdicts"`
	Result   *game.Result     `json:"result"`
	State    *game.PublicView `json:"state,omitempty"`
	seats    []string
	acts     []game.Action
}

// sessionOut is a session of games: cumulative scores, each player's net and, with a pot, the
// payout.
type sessionOut struct {
	Rules  string    `json:"rules"`
	Games  []gameOut `json:"games"`
	Totals []int     `json:"totals"` // the games' scores added up (points)
	// Net is each player's money: the games' payouts and payments at once, and the wall pot's
	// moves (game.TallySession).
	Net []int           `json:"net"`
	Pot []game.PotShare `json:"pot,omitempty"`
	// WallPot follows a wall-game pot through the games (wright-patterson-siamese).
	WallPot *game.WallPotTally `json:"wall_pot,omitempty"`
	// Coins are the nets converted at --coin points a coin (Wright-Patterson end-of-day tally).
	Coins      []float64 `json:"coins,omitempty"`
	CoinPoints int       `json:"coin_points,omitempty"`
}

func replay(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fl := newFlags("replay", stderr)
	rulesName := fl.String("rules", "siamese", "ruleset, optionally with +options (a log with a header names its own)")
	cardPath := fl.String("card", "", "card file (default: the card the log names, or the built-in example card)")
	asJSON := fl.Bool("json", false, "print the full JSON document")
	all := fl.Bool("all", false, "print every verdict, legal ones too")
	strict := fl.Bool("strict", false, "exit 1 on any infraction")
	pot := fl.Int("pot", 0, "with several games: pay the cumulative scores out of a pot of this many cents (royale 16)")
	triple := fl.Bool("triple", false, "with --pot: triple each score first (royale 16a)")
	wallPot := fl.Int("wall-pot", 0, "a wall-game pot of `POINTS` waiting from before the session (wright-patterson-siamese)")
	potLeft := fl.String("wall-pot-left", string(game.RefundPot), "a wall pot no Mah Jongg took by the end: refund (to those who paid in) or carry")
	coin := fl.Int("coin", 0, "with several games: convert each player's net to coins at `POINTS` a coin (Wright-Patterson end-of-day tally)")
	if err := parseFlags(fl, args); err != nil {
		return err
	}
	if fl.NArg() == 0 {
		return fmt.Errorf("%w: replay needs one game log file, or several for a session", errUsage)
	}
	if *wallPot < 0 || *coin < 0 || (*potLeft != string(game.RefundPot) && *potLeft != string(game.CarryPot)) {
		return fmt.Errorf("%w: --wall-pot and --coin are not negative, --wall-pot-left is refund or carry", errUsage)
	}
	src := journal.Sources{CardPath: *cardPath, DefaultRules: *rulesName}
	if flagGiven(fl, "rules") {
		src.Rules = *rulesName
	}
	var games []gameOut
	var results []*game.Result
	var firstErr error
	for _, path := range fl.Args() {
		g, err := journal.Load(path, src)
		if g != nil {
			out := reportOf(g)
			games = append(games, out)
			results = append(results, out.Result)
			if g.Torn != nil {
				fmt.Fprintf(stderr, "siamesed replay: %s: %v: left out\n", path, g.Torn)
			}
		}
		if err != nil {
			firstErr = replayHint(err)
			break
		}
	}
	if len(games) > 0 {
		var err error
		if fl.NArg() > 1 || *pot > 0 || *wallPot > 0 || *coin > 0 {
			tally := game.TallySession(len(games[0].seats), *wallPot, results, game.PotLeft(*potLeft))
			s := sessionOut{Rules: games[0].Rules, Games: games, Totals: tally.Scores, Net: tally.Net, WallPot: tally.WallPot}
			for i := range s.Games {
				s.Games[i].State = nil // the per-game final state is long; a session reports results
			}
			if *pot > 0 {
				s.Pot = game.Pot(s.Totals, *pot, *triple)
			}
			if *coin > 0 {
				s.CoinPoints = *coin
				for _, n := range s.Net {
					s.Coins = append(s.Coins, float64(n)/float64(*coin))
				}
			}
			err = printReport(stdout, *asJSON, s, func(w io.Writer) { printSession(w, s, *all) })
		} else {
			err = printReport(stdout, *asJSON, games[0], func(w io.Writer) { printGame(w, games[0], *all) })
		}
		if err != nil {
			return err
		}
	}
	if firstErr != nil {
		return firstErr
	}
	if *strict {
		for _, g := range games {
			if game.HasFaults(g.Verdicts) {
				return exitCode{1, errors.New("infractions found (--strict)")}
			}
		}
	}
	return nil
}

// reportOf is the report of one replayed game.
func reportOf(g *journal.Game) gameOut {
	v := g.State.PublicView()
	out := gameOut{File: g.Path, Header: g.Header, Actions: g.State.Seq, Verdicts: g.Verdicts, Result: g.State.Result, State: &v, acts: g.Actions}
	if g.Rules != nil {
		out.Rules = g.Rules.Name
		for i := 0; i < g.Rules.Players; i++ {
			name := fmt.Sprintf("seat %d", i)
			if g.Header != nil && i < len(g.Header.Seats) {
				name = g.Header.Seats[i].Name
			}
			out.seats = append(out.seats, name)
		}
	}
	if g.Torn != nil {
		out.Torn = g.Torn.Error()
	}
	if out.Verdicts == nil {
		out.Verdicts = []game.Verdict{}
	}
	return out
}

func printReport(w io.Writer, asJSON bool, doc any, forPeople func(io.Writer)) error {
	if asJSON {
		return writeJSON(w, doc)
	}
	forPeople(w)
	return nil
}

// flagGiven reports whether the flag was set on the command line.
func flagGiven(fl *flag.FlagSet, name string) bool {
	given := false
	fl.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// replayHint says which of replay's flags answers a log that cannot be replayed as it is.
func replayHint(err error) error {
	var missing *journal.CardMissingError
	switch {
	case errors.As(err, &missing):
		return fmt.Errorf("%w: give it with --card FILE", err)
	case errors.Is(err, journal.ErrNoHeader):
		return fmt.Errorf("%w: name its rules with --rules", err)
	}
	return err
}
