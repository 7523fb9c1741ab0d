package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/tile"
)

// printGame prints one replayed game for people: what went wrong, one line each with its rule
// and quote, the Mah Jonggs, dead racks and why, then the score table and payouts.
func printGame(w io.Writer, g gameOut, all bool) {
	fmt.Fprintf(w, "%s: %s, %d actions\n", g.File, g.Rules, g.Actions)
	shown := 0
	for _, v := range g.Verdicts {
		if line := verdictLine(v, g.seats, g.acts, all); line != "" {
			fmt.Fprintln(w, "  "+line)
			shown++
		}
	}
	if shown == 0 {
		fmt.Fprintln(w, "  no infractions, penalties, dead racks or Mah Jonggs")
	}
	printResult(w, g.Result, g.seats)
}

// verdictLine is one verdict on one line; legal verdicts and the game-over marker only with all.
func verdictLine(v game.Verdict, seats []string, acts []game.Action, all bool) string {
	who := seatName(seats, v.Seat)
	if v.Rack != 0 {
		who += fmt.Sprintf(" rack %d", v.Rack)
	}
	rule := ""
	if v.Rule != "" {
		rule = "  [" + v.Rule + "]"
		if v.Quote != "" {
			rule += " " + quoted(v.Quote)
		}
	}
	var what string
	switch v.Kind {
	case game.Legal:
		if !all {
			return ""
		}
		what = "legal"
		if v.Seq >= 1 && v.Seq <= len(acts) {
			what = actText(acts[v.Seq-1])
		}
	case game.GameOver:
		if !all {
			return ""
		}
		who, what = "", "game over: "+v.Detail
	case game.MahJonggOK:
		what = fmt.Sprintf("Mah Jongg %s (%d): %s", v.Hand, v.Points, v.Detail)
	case game.MahJonggBad:
		what = "Mah Jongg in error: " + v.Detail
	case game.Infraction:
		what = "infraction: " + v.Detail
	case game.Refused:
		what = "refused (undo it at the table): " + v.Detail
	case game.DeadHand:
		what = "dead: " + v.Detail
	case game.Penalty:
		what = fmt.Sprintf("penalty %+d", v.Points)
	case game.Bouquet:
		what = fmt.Sprintf("bouquet %+d: %s", v.Points, v.Detail)
	case game.Misdeal:
		what = "misdeal: " + v.Detail
	case game.TakenBack:
		what = "taken back (it never happened): " + strings.TrimSuffix(v.Detail, " taken back")
	default:
		what = string(v.Kind) + ": " + v.Detail
	}
	return strings.TrimSpace(fmt.Sprintf("seq %-4d %-14s %s%s", v.Seq, who, what, rule))
}

// actText is an action in words: "draw 5C to rack 1", "call N N N N for an exposure on rack 1".
func actText(a game.Action) string {
	switch a.Act {
	case game.ActRoll:
		return fmt.Sprintf("roll for %s: %d", a.For, a.Dice[0])
	case game.ActFlower:
		return fmt.Sprintf("flower laid on rack %d, replaced by %s", a.Rack, tile.Format(a.Tiles))
	}
	var b strings.Builder
	b.WriteString(string(a.Act))
	if len(a.Tiles) > 0 {
		b.WriteString(" " + tile.Format(a.Tiles))
	}
	switch {
	case a.Act == game.ActMove:
		fmt.Fprintf(&b, " from rack %d to rack %d", a.Rack, a.To)
	case a.Act == game.ActCall && a.For == "mahjong":
		fmt.Fprintf(&b, " for Mah Jongg on rack %d", a.Rack)
	case a.Act == game.ActMahJongg && a.Rack == 0:
		b.WriteString(" on both racks")
	case a.Rack != 0:
		fmt.Fprintf(&b, " rack %d", a.Rack)
	}
	if a.Target != nil {
		fmt.Fprintf(&b, " (seat %d rack %d exposure %d)", a.Target.Seat, a.Target.Rack, a.Target.Exposure)
	}
	return b.String()
}

// printResult prints the score table and payouts, or that the game is not over.
func printResult(w io.Writer, r *game.Result, seats []string) {
	if r == nil {
		fmt.Fprintln(w, "not over yet")
		return
	}
	fmt.Fprintf(w, "result: %s\n", strings.ReplaceAll(r.Reason, "_", " "))
	for _, d := range r.Dead {
		fmt.Fprintf(w, "  dead: %s rack %d: %s\n", seatName(seats, d.Seat), d.Rack, d.Cause)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "  seat\tname\tscore\t")
	for i, sc := range r.Scores {
		fmt.Fprintf(tw, "  %d\t%s\t%d\t\n", i, nameOf(seats, i), sc)
	}
	tw.Flush()
	for _, p := range r.Payouts {
		fmt.Fprintf(w, "  %s pays %s %d\n", seatName(seats, p.From), seatName(seats, p.To), p.Points)
	}
	for _, p := range r.PaidAtOnce {
		fmt.Fprintf(w, "  paid at once (a bouquet): %s paid %s %d\n", seatName(seats, p.From), seatName(seats, p.To), p.Points)
	}
	switch mv := r.WallPot; {
	case mv == nil:
	case mv.Taker != nil:
		fmt.Fprintf(w, "  wall pot: %s takes what it holds (the first Mah Jongg)\n", seatName(seats, *mv.Taker))
	case mv.PaidIn > 0:
		fmt.Fprintf(w, "  wall pot: each player pays %d into it\n", mv.PaidIn)
	}
}

// printSession prints each game briefly, then each seat's score and net, and the pots.
func printSession(w io.Writer, s sessionOut, all bool) {
	for _, g := range s.Games {
		printGame(w, g, all)
		fmt.Fprintln(w)
	}
	var seats []string
	if len(s.Games) > 0 {
		seats = s.Games[0].seats
	}
	fmt.Fprintf(w, "session: %d games, %s\n", len(s.Games), s.Rules)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "  seat\tname\tscore\tnet\tfrom the pot\t"
	if s.WallPot != nil {
		head += "wall pot\t"
	}
	if s.Coins != nil {
		head += "coins\t"
	}
	fmt.Fprintln(tw, head)
	for i, t := range s.Totals {
		share := "-"
		for _, p := range s.Pot {
			if p.Seat == i {
				share = fmt.Sprintf("%d.%02d", p.Amount/100, p.Amount%100)
			}
		}
		fmt.Fprintf(tw, "  %d\t%s\t%d\t%+d\t%s\t", i, nameOf(seats, i), t, s.Net[i], share)
		if s.WallPot != nil {
			fmt.Fprintf(tw, "%+d\t", s.WallPot.Net[i])
		}
		if s.Coins != nil {
			fmt.Fprintf(tw, "%.2f\t", s.Coins[i])
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	if p := s.WallPot; p != nil {
		fmt.Fprintf(w, "wall pot (in the nets): %d waiting before, %d moves, %d left for the next Mah Jongg", p.Carried, len(p.Games), p.Left)
		if p.Refund != nil {
			fmt.Fprintf(w, " (refunded at the end: %v)", p.Refund)
		}
		fmt.Fprintln(w)
	}
	if s.Coins != nil {
		fmt.Fprintf(w, "coins: the nets at %d points a coin (the end-of-day tally)\n", s.CoinPoints)
	}
}

func seatName(seats []string, i int) string {
	if i < 0 {
		return ""
	}
	if i < len(seats) && seats[i] != fmt.Sprintf("seat %d", i) {
		return fmt.Sprintf("seat %d (%s)", i, seats[i])
	}
	return fmt.Sprintf("seat %d", i)
}

// nameOf is a seat's player name for a table column, "-" when the log names none.
func nameOf(seats []string, i int) string {
	if i < len(seats) && seats[i] != fmt.Sprintf("seat %d", i) {
		return seats[i]
	}
	return "-"
}

func quoted(s string) string { return `"` + s + `"` }
