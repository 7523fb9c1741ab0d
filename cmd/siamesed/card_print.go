package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/siamesetable/siamesed/engine/card"
	"github.com/siamesetable/siamesed/engine/tile"
)

// newTable starts a table for people: columns aligned, the header first.
func newTable(w io.Writer, header string) *tabwriter.Writer {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, header)
	return tw
}

// groupsText prints a concrete hand's groups as tiles: "F F F F | 2C WD 2C 6C | 3B 3B 3B".
func groupsText(groups [][]tile.Face) string {
	parts := make([]string, len(groups))
	for i, g := range groups {
		parts[i] = tile.Format(g)
	}
	return strings.Join(parts, " | ")
}

// holdingLine describes a Siamese player's tiles, exposures with their rack.
func holdingLine(s *card.Siamese) string {
	n := s.Concealed.Total()
	exp := ""
	for i, es := range s.Exposed {
		for _, e := range es {
			n += len(e)
			exp += fmt.Sprintf(" + exposed [%s] on rack %d", tile.Format(e), i+1)
		}
	}
	return fmt.Sprintf("%d tiles: %v%s", n, s.Concealed, exp)
}

// printAdvice prints each pair of hands as a line, then one line for each rack's hand.
func printAdvice(w io.Writer, c *card.Card, s *card.Siamese, advice []card.Advice) error {
	fmt.Fprintln(w, holdingLine(s))
	if len(advice) == 0 {
		_, err := fmt.Fprintln(w, "no pair of hands is possible")
		return err
	}
	width := 0
	for _, a := range advice {
		width = max(width, len(a.Rack1.HandID), len(a.Rack2.HandID))
	}
	for i, a := range advice {
		fmt.Fprintf(w, "#%d  %d away, %s\n", i+1, a.Away, pairValue(c, a.Value))
		for r, h := range []card.Away{a.Rack1, a.Rack2} {
			fmt.Fprintf(w, "    rack %d  %-*s  %2s  %2d away  %s\n", r+1, width, h.HandID, h.Hand.ValueText(), h.Away, groupsText(h.Groups))
		}
	}
	return nil
}

// pairValue is two hands' value together: "55 points", or "3 limits" on a limit list.
func pairValue(c *card.Card, v int) string {
	if c.Limits {
		return c.ValueText(v)
	}
	return fmt.Sprintf("%d points", v)
}

// printDiscards prints one line for each tile the player could throw, best first.
func printDiscards(w io.Writer, c *card.Card, s *card.Siamese, ds []card.Discard) error {
	fmt.Fprintln(w, holdingLine(s))
	tw := newTable(w, "throw\taway\tvalue\track 1\track 2")
	for _, d := range ds {
		if d.Best == nil {
			fmt.Fprintf(tw, "%v\t-\t-\tno pair of hands left\t\n", d.Tile)
			continue
		}
		b := d.Best
		fmt.Fprintf(tw, "%v\t%d\t%s\t%s (%d away)\t%s (%d away)\n", d.Tile, b.Away, c.ValueText(b.Value), b.Rack1.HandID, b.Rack1.Away, b.Rack2.HandID, b.Rack2.Away)
	}
	return tw.Flush()
}
