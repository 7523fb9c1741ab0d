package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/siamesetable/siamesed/internal/userfile"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/vision/classify"
	"github.com/siamesetable/siamesed/vision/eval"
	"github.com/siamesetable/siamesed/vision/labels"
	"github.com/siamesetable/siamesed/vision/source"
)

// excluding drops the items listed in the labels file at path ("" drops none), or with keep
// those not listed.
func excluding(items []labels.Item, path string, keep bool) ([]labels.Item, error) {
	if path == "" {
		return items, nil
	}
	f, err := userfile.Open(path, "a labels file", labels.MaxFileBytes)
	if err != nil {
		return nil, fmt.Errorf("vision eval: %w", err)
	}
	defer f.Close()
	drop, err := labels.Parse(path, f)
	if err != nil {
		return nil, err
	}
	gone := map[string]bool{}
	for _, it := range drop {
		gone[it.Image] = true
	}
	return slices.DeleteFunc(slices.Clone(items), func(it labels.Item) bool { return gone[it.Image] != keep }), nil
}

// evalExtra is what --conditions and --nontile add to the JSON line.
type evalExtra struct {
	Conditions        []eval.ConditionResult `json:"conditions,omitempty"`
	ConditionsCentred []eval.ConditionResult `json:"conditions_centred,omitempty"`
	NonTile           []eval.OpenSetResult   `json:"nontile,omitempty"`
}

// visionEvalExtra measures the test crops under the table's conditions (as cut, and centred as
// the extractor does) and the rejection of non-tile crops, printing a table of each.
func visionEvalExtra(w io.Writer, c *classify.Classifier, dir string, test []labels.Item, conditions bool, nontile int, others string, seed uint64) (evalExtra, error) {
	var x evalExtra
	if conditions {
		var err error
		if x.Conditions, err = eval.RunConditions(c, dir, test, false, seed); err != nil {
			return x, err
		}
		if x.ConditionsCentred, err = eval.RunConditions(c, dir, test, true, seed); err != nil {
			return x, err
		}
		fmt.Fprintf(w, "%-24s %8s %8s %8s %8s %8s\n", "condition", "top-1", "worst", "centred", "worst", "known")
		for i, r := range x.Conditions {
			cc := x.ConditionsCentred[i]
			fmt.Fprintf(w, "%-24s %8.4f %8.4f %8.4f %8.4f %8.4f\n", r.Condition, r.Accuracy, r.Worst, cc.Accuracy, cc.Worst, cc.Known)
		}
	}
	if nontile > 0 {
		imgs, err := readImages(others)
		if err != nil {
			return x, err
		}
		defer closeAll(imgs)
		crops, err := eval.NonTiles(nontile, seed, dir, test, imgs)
		if err != nil {
			return x, err
		}
		defer func() {
			for _, ms := range crops {
				closeAll(ms)
			}
		}()
		if x.NonTile, err = eval.RunOpenSet(c, crops); err != nil {
			return x, err
		}
		fmt.Fprintf(w, "%-12s %6s %9s %5s %6s\n", "non-tile", "crops", "rejected", "far", "close")
		for _, r := range x.NonTile {
			fmt.Fprintf(w, "%-12s %6d %9.4f %5d %6d\n", r.Kind, r.N, r.Rejected, r.Far, r.Close)
		}
	}
	return x, nil
}

// readImages reads every .png/.jpg image in dir ("" for none) as BGR.
func readImages(dir string) ([]gocv.Mat, error) {
	if dir == "" {
		return nil, nil
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("--others: %w", err)
	}
	var out []gocv.Mat
	for _, e := range ents {
		switch strings.ToLower(filepath.Ext(e.Name())) {
		case ".png", ".jpg", ".jpeg":
		default:
			continue
		}
		m, err := source.ReadImage(filepath.Join(dir, e.Name()))
		if err != nil {
			continue // not an image OpenCV reads
		}
		if m.Cols() < 64 || m.Rows() < 64 {
			m.Close()
			continue // too small to cut from
		}
		out = append(out, m)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--others: no images of at least 64x64 in %s", dir)
	}
	return out, nil
}

func closeAll(ms []gocv.Mat) {
	for _, m := range ms {
		m.Close()
	}
}

// visionEvalSeeds runs the split once per seed with the same classifier model and prints each
// seed's figures and their spread.
func visionEvalSeeds(ctx context.Context, w io.Writer, c *classify.Classifier, dir string, items []labels.Item, split float64, list string) error {
	type seedLine struct {
		Seed uint64 `json:"seed"`
		eval.Report
	}
	var lines []seedLine
	fmt.Fprintf(w, "%-5s %6s %8s %8s %8s %8s  %s\n", "seed", "tested", "top-1", "worst", "known", "k.acc", "errors (true->answered count)")
	for _, f := range strings.Split(list, ",") {
		seed, err := strconv.ParseUint(strings.TrimSpace(f), 10, 64)
		if err != nil {
			return fmt.Errorf("%w: --seeds %q: %w", errUsage, list, err)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		c.Reset()
		enrol, test := labels.Split(items, split, seed)
		if err := c.EnrolDir(dir, enrol); err != nil {
			return err
		}
		r, err := eval.Run(c, dir, test)
		if err != nil {
			return err
		}
		worst := 1.0
		for _, a := range r.ByRotation {
			worst = min(worst, a)
		}
		var errs []string
		for _, p := range r.Confused {
			errs = append(errs, fmt.Sprintf("%v->%v %d", p.Want, p.Got, p.Count))
		}
		fmt.Fprintf(w, "%-5d %6d %8.4f %8.4f %8.4f %8.4f  %s\n", seed, r.Images, r.Accuracy, worst, r.Known, r.KnownAcc, strings.Join(errs, ", "))
		r.Confused = nil
		lines = append(lines, seedLine{seed, r})
	}
	lo, hi, sum := 1.0, 0.0, 0.0
	for _, l := range lines {
		lo, hi, sum = min(lo, l.Accuracy), max(hi, l.Accuracy), sum+l.Accuracy
	}
	fmt.Fprintf(w, "top-1 over %d seeds: mean %.4f, min %.4f, max %.4f\n", len(lines), sum/float64(len(lines)), lo, hi)
	b, err := json.Marshal(lines)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}
