package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/siamesetable/siamesed/history"
)

// timeLayout shows a recorded time in the table's zone, as the daemon recorded it.
const timeLayout = "2006-01-02 15:04"

// printGameList prints one game a line: when it finished, its id, rules, seats, result, scores.
func printGameList(w io.Writer, games []history.Game) {
	if len(games) == 0 {
		fmt.Fprintln(w, "no games")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "finished\tid\trules\tseats\tresult\tscores")
	for _, g := range games {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", g.Finished.Format(timeLayout), g.ID, g.Rules,
			strings.Join(g.Seats, ", "), reasonText(g.Result.Reason), scoresText(g.Result.Scores))
	}
	tw.Flush()
}

// printRecord prints one game: its facts, the result table and how to replay it.
func printRecord(w io.Writer, g history.Game) {
	fmt.Fprintf(w, "game %s\n", g.ID)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  session\t%s\n", g.Session)
	fmt.Fprintf(tw, "  rules\t%s\n", g.Rules)
	fmt.Fprintf(tw, "  card\t%s (%d, sha256 %.12s...)\n", g.Card.Name, g.Card.Year, g.Card.SHA256)
	fmt.Fprintf(tw, "  seats\t%s\n", strings.Join(g.Seats, ", "))
	if !g.Started.IsZero() {
		fmt.Fprintf(tw, "  started\t%s\n", g.Started.Format(timeLayout+" -0700"))
	}
	fmt.Fprintf(tw, "  finished\t%s\n", g.Finished.Format(timeLayout+" -0700"))
	fmt.Fprintf(tw, "  actions\t%d, %d faulty (infractions, refused acts, Mah Jonggs in error, misdeals)\n", g.Actions, g.Faults)
	tw.Flush()
	printResult(w, &g.Result, g.Seats)
	fmt.Fprintf(w, "log: %s (every verdict: siamesed replay %s)\n", g.Path, g.Path)
}

// printTally prints each seat's score and net and, with a pot, its share.
func printTally(w io.Writer, t history.Tally, latest bool) {
	what := "session " + t.Session
	if t.Day != "" {
		what = "day " + t.Day
	} else if latest {
		what += " (the latest)"
	}
	fmt.Fprintf(w, "%s: %d games, %s\n", what, len(t.Games), strings.Join(t.Rules, ", "))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "  seat\tname\tscore\tnet\tfrom the pot\t")
	for _, s := range t.Seats {
		share := "-"
		if s.Seat < len(t.Shares) {
			share = centsText(t.Shares[s.Seat].Amount)
		}
		fmt.Fprintf(tw, "  %d\t%s\t%d\t%+d\t%s\t\n", s.Seat, strings.Join(s.Names, " / "), s.Total, s.Net, share)
	}
	tw.Flush()
	if t.Pot != nil {
		tripled := ""
		if t.Pot.Triple {
			tripled = ", scores tripled"
		}
		fmt.Fprintf(w, "pot %s%s (royale 16)\n", centsText(t.Pot.Cents), tripled)
	}
	if p := t.WallPot; p != nil {
		fmt.Fprintf(w, "wall pot (in the nets): each seat's share %v, %d left, refunded %v\n", p.Net, p.Left, p.Refund)
	}
}

func reasonText(r string) string { return strings.ReplaceAll(r, "_", " ") }

func scoresText(scores []int) string {
	parts := make([]string, len(scores))
	for i, s := range scores {
		parts[i] = fmt.Sprint(s)
	}
	return strings.Join(parts, " ")
}

func centsText(c int) string { return fmt.Sprintf("%d.%02d", c/100, c%100) }
