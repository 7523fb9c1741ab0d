package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/siamesetable/siamesed/engine/card"
)

// checkSummary is card check's report of one valid card.
type checkSummary struct {
	File     string `json:"file"`
	Name     string `json:"name"`
	Year     int    `json:"year"`
	Hands    int    `json:"hands"`
	Variants int    `json:"variants"`
	Lowest   int    `json:"lowest_value"`
	Limits   bool   `json:"limits,omitempty"` // values are limits (a Wright-Patterson list)
	lowest   string
}

func cardCheck(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fl := newFlags("card check", stderr)
	asJSON := fl.Bool("json", false, "print the summary as JSON")
	maxProblems := fl.Int("problems", 20, "list at most `N` problems of each file (0: all)")
	if err := parseFlags(fl, args); err != nil {
		return err
	}
	if fl.NArg() == 0 {
		return fmt.Errorf("%w: give one or more card files", errUsage)
	}
	if *maxProblems < 0 {
		return fmt.Errorf("%w: --problems %d: want 0 (all) or more", errUsage, *maxProblems)
	}
	out := []checkSummary{}
	bad := 0
	for _, path := range fl.Args() {
		c, err := loadCardFile(path)
		if err != nil {
			printProblems(stderr, err, *maxProblems)
			bad++
			continue
		}
		lowest := fmt.Sprint(c.Lowest())
		if c.Limits {
			lowest = card.LimitName(c.Lowest())
		}
		out = append(out, checkSummary{path, c.Name, c.Year, len(c.Hands), c.NumVariants(), c.Lowest(), c.Limits, lowest})
	}
	var err error
	if *asJSON {
		err = writeJSON(stdout, out)
	} else {
		for _, s := range out {
			_, err = fmt.Fprintf(stdout, "%s: %s (%d), %d hands (%d concrete), lowest value %s\n", s.File, s.Name, s.Year, s.Hands, s.Variants, s.lowest)
		}
	}
	if err != nil {
		return err
	}
	if bad > 0 {
		return exitCode{1, fmt.Errorf("%d of %d card files invalid", bad, fl.NArg())}
	}
	return nil
}

// printProblems lists a card's problems, one a line as file:line:col: what, at most max of
// them (0: all) and then how many more there are.
func printProblems(w io.Writer, err error, max int) {
	var le *card.LoadError
	if !errors.As(err, &le) {
		fmt.Fprintln(w, err)
		return
	}
	for i, p := range le.Problems {
		if max > 0 && i == max {
			fmt.Fprintf(w, "%s: %d more problems (--problems 0 lists them all)\n", le.File, len(le.Problems)-max)
			return
		}
		fmt.Fprintf(w, "%s:%d:%d: %s\n", le.File, p.Line, p.Col, p.Msg)
	}
}
