package main

import (
	"context"
	"fmt"
	"io"

	"github.com/siamesetable/siamesed/vision/labels"
)

func init() {
	register("vision split", "print the enrolment (or test) part of a crop folder's split as labels.csv: vision split --dir DIR --split 0.5 [--seed N] [--test]", visionSplit)
}

// visionSplit prints one side of the split `vision eval --split` makes, so the network's training
// script can be given exactly the enrolment half and never the test half.
func visionSplit(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("vision split", stderr)
	dir := fs.String("dir", "", "folder of crops (labels.csv, images/)")
	split := fs.Float64("split", 0.5, "share of each tile's crops in the enrolment part")
	seed := fs.Uint64("seed", 1, "seed of the split")
	test := fs.Bool("test", false, "print the test part instead")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *dir == "" || *split <= 0 || *split >= 1 || fs.NArg() > 0 {
		return fmt.Errorf("%w: want --dir DIR and --split F in (0,1)", errUsage)
	}
	items, err := labels.Read(*dir)
	if err != nil {
		return err
	}
	enrol, rest := labels.Split(items, *split, *seed)
	if *test {
		enrol = rest
	}
	return labels.Write(stdout, enrol)
}
