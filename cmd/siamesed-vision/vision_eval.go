package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/siamesetable/siamesed/vision/classify"
	"github.com/siamesetable/siamesed/vision/eval"
	"github.com/siamesetable/siamesed/vision/labels"
	"github.com/siamesetable/siamesed/vision/synth"
)

func init() {
	register("vision eval", "enrol on one crop folder, classify another: vision eval --enroll DIR --test DIR | --enroll DIR --split 0.5 [--seed N] | --sets DIR [--enroll DIR] [--open] [--json] | --synthetic ARTDIR; [--model FILE|features]", visionEval)
}

func visionEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("vision eval", stderr)
	enrolDir := fs.String("enroll", "", "folder of enrolment crops (labels.csv, images/)")
	testDir := fs.String("test", "", "folder of test crops; with --split, the enrolment folder is split instead")
	split := fs.Float64("split", 0, "enrol on this share of each tile's crops in --enroll and test on the rest")
	seed := fs.Uint64("seed", 1, "seed of the split")
	top := fs.Int("top", 10, "how many confused pairs to print")
	threshold := fs.Float64("threshold", -1, "confidence (margin over the runner-up face) below which the answer is unknown (default: the classifier's own)")
	minSim := fs.Float64("min-similarity", -1, "similarity to the nearest enrolled crop below which the answer is unknown (default: the classifier's own)")
	maxNone := fs.Float64("max-none", -1, `cosine to the network's "no tile" class at or above which the answer is unknown (default: the classifier's own; 0: not used)`)
	kindLead := fs.Float64("kind-lead", math.NaN(), `how much more like a face never enrolled than like its answer the network's face classes must hold a crop to answer it unknown (default: the classifier's own; below 0: not used)`)
	model := fs.String("model", "", `embedding network (ONNX file); "" for the built-in one, "features" for the hand-made features`)
	views := fs.String("views", "", `views each test crop is embedded through, averaged: "ZOOM[/DX/DY],..." ("1": as it is); "" for the classifier's own`)
	enrolViews := fs.String("enroll-views", "", `views each enrolment crop is kept through, same form; "" for the classifier's own`)
	artDir := fs.String("synthetic", "", "instead: detection and classification on synthetic frames rendered from this tile-art/png folder")
	exclude := fs.String("exclude", "", "labels.csv of crops in --enroll to leave out before splitting (the network's training photos)")
	within := fs.String("within", "", "labels.csv of crops in --enroll to keep, the rest left out before splitting (to choose thresholds on the training photos)")
	seeds := fs.String("seeds", "", `with --split: run each seed of this list ("1,2,3,4,5") and print the spread`)
	conditions := fs.Bool("conditions", false, "also classify the test crops loose, tight, off-centre, dim, unevenly lit and blurred")
	nontile := fs.Int("nontile", 0, "also classify this many non-tile crops of each kind (felt, wood, cloth, hand, tile back, ...); all should be unknown")
	others := fs.String("others", "", "with --nontile: a folder of photos of other things to cut tile-shaped patches from")
	setsDir := fs.String("sets", "", "instead: leave each tile set of this folder (labels.csv with a set column) out in turn; --enroll, if given, is always enrolled")
	open := fs.Bool("open", false, "with --sets: also leave each face out of the enrolment in turn (all its crops should be unknown)")
	asJSON := fs.Bool("json", false, "with --sets: print JSON instead of tables")
	oneFlower := fs.Bool("one-flower", false, "with --sets: a set's own enrolment takes one flower like any face, not each of its flowers")
	frames := fs.Int("frames", 20, "with --synthetic: frames to render")
	tiles := fs.Int("tiles", 12, "with --synthetic: tiles per frame")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	synthetic := *artDir != ""
	if *setsDir != "" {
		if synthetic || *testDir != "" || *split != 0 || *within != "" || fs.NArg() > 0 {
			return fmt.Errorf("%w: --sets takes --enroll, --exclude, --seeds, --open, --conditions, --nontile, --others, --json, --top, the model's flags and views only", errUsage)
		}
	} else if *open || *asJSON || *oneFlower {
		return fmt.Errorf("%w: --open, --one-flower and --json go with --sets", errUsage)
	}
	if synthetic && (*enrolDir != "" || *testDir != "" || *frames < 1 || *tiles < 1 || fs.NArg() > 0) {
		return fmt.Errorf("%w: --synthetic takes --frames, --tiles, --seed, --model, --threshold, --views and --enroll-views only", errUsage)
	}
	if !synthetic && *setsDir == "" && (*enrolDir == "" || (*testDir == "") == (*split == 0) || *split < 0 || *split >= 1 || fs.NArg() > 0) {
		return fmt.Errorf("%w: want --enroll DIR and either --test DIR or --split F in (0,1)", errUsage)
	}
	c, err := newClassifier(*model, *threshold, *minSim, *maxNone, *kindLead)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := setViews(c, *views, *enrolViews); err != nil {
		return err
	}
	if synthetic {
		return visionEvalSynthetic(stdout, c, *artDir, *frames, *tiles, *seed)
	}
	var enrolItems []labels.Item
	if *enrolDir != "" {
		if enrolItems, err = labels.Read(*enrolDir); err != nil {
			return err
		}
	}
	if enrolItems, err = excluding(enrolItems, *exclude, false); err != nil {
		return err
	}
	if enrolItems, err = excluding(enrolItems, *within, true); err != nil {
		return err
	}
	if *setsDir != "" {
		list, err := parseSeeds(cmp.Or(*seeds, "1,2,3,4,5"))
		if err != nil {
			return err
		}
		return visionEvalSets(stdout, c, setsRun{setsDir: *setsDir, enrolDir: *enrolDir, enrolItems: enrolItems,
			seeds: list, oneFlower: *oneFlower, open: *open, conditions: *conditions, nontile: *nontile, others: *others, top: *top, json: *asJSON})
	}
	if *seeds != "" {
		if *split == 0 {
			return fmt.Errorf("%w: --seeds needs --split", errUsage)
		}
		return visionEvalSeeds(ctx, stdout, c, *enrolDir, enrolItems, *split, *seeds)
	}
	dir, testItems := *testDir, []labels.Item(nil)
	if *split > 0 {
		dir = *enrolDir
		enrolItems, testItems = labels.Split(enrolItems, *split, *seed)
	} else if testItems, err = labels.Read(*testDir); err != nil {
		return err
	}
	if err := c.EnrolDir(*enrolDir, enrolItems); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	r, err := eval.Run(c, dir, testItems)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "enrolled %d crops, tested %d crops x %d rotations\n", r.Enrolled, r.Images, len(eval.Rotations))
	fmt.Fprintln(stdout, "most confused (true -> answered: count):")
	for _, p := range r.Confused[:min(*top, len(r.Confused))] {
		fmt.Fprintf(stdout, "  %-3v -> %-3v %d\n", p.Want, p.Got, p.Count)
	}
	r.Confused = nil // printed above; the JSON line stays short
	extra, err := visionEvalExtra(stdout, c, dir, testItems, *conditions, *nontile, *others, *seed)
	if err != nil {
		return err
	}
	line, err := json.Marshal(struct {
		eval.Report
		evalExtra
	}{r, extra})
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "%s\n", line)
	return err
}

// visionEvalSynthetic scores detection and classification together on synthetic frames through a
// tilted, unevenly lit, blurred and noisy camera.
func visionEvalSynthetic(stdout io.Writer, c *classify.Classifier, artDir string, frames, tiles int, seed uint64) error {
	art, err := synth.LoadArt(artDir)
	if err != nil {
		return err
	}
	defer art.Close()
	opts := synth.Options{Tilt: 0.08, Light: 0.3, Blur: 3, Noise: 4, Seed: seed}
	r, err := eval.Synthetic(c, art, opts, frames, tiles, seed)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "synthetic: %d frames, %d tiles placed, %d found, %d found where none was\n", r.Frames, r.N, r.Found, r.Extra)
	for _, x := range []struct {
		name string
		fc   eval.FaceCount
	}{{"jokers", r.Jokers}, {"flowers", r.Flowers}} {
		fmt.Fprintf(stdout, "%-8s %d placed, %d named right, %d known\n", x.name, x.fc.N, x.fc.Right, x.fc.Known)
	}
	line, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "%s\n", line)
	return err
}

// newClassifier returns an empty classifier on the network in model ("" for the built-in one) or
// on the hand-made features (model "features"), with threshold, minimum similarity and most
// "no tile" likeness unless they are negative, and kind lead unless it is NaN.
func newClassifier(model string, threshold, minSim, maxNone, kindLead float64) (*classify.Classifier, error) {
	c := classify.New()
	if model != "features" {
		var err error
		if c, err = classify.NewNet(model); err != nil {
			return nil, err
		}
	}
	if threshold >= 0 {
		c.Threshold = float32(threshold)
	}
	if minSim >= 0 {
		c.MinSimilarity = float32(minSim)
	}
	if maxNone >= 0 {
		c.MaxNone = float32(maxNone)
	}
	if !math.IsNaN(kindLead) {
		c.KindLead = float32(kindLead)
	}
	return c, nil
}

// setViews replaces c's test and enrolment views with those spelled out in test and enrol
// (parseViews), leaving the classifier's own where a spelling is "".
func setViews(c *classify.Classifier, test, enrol string) error {
	for _, x := range []struct {
		spec string
		to   *[]classify.View
	}{{test, &c.Views}, {enrol, &c.EnrolViews}} {
		if x.spec == "" {
			continue
		}
		v, err := parseViews(x.spec)
		if err != nil {
			return err
		}
		*x.to = v
	}
	return nil
}

// parseViews reads "ZOOM[/DX/DY],...", e.g. "1,0.9,1.1" or "1,1.08/0.03/-0.03".
func parseViews(spec string) ([]classify.View, error) {
	var out []classify.View
	for _, item := range strings.Split(spec, ",") {
		parts := strings.Split(strings.TrimSpace(item), "/")
		if len(parts) != 1 && len(parts) != 3 {
			return nil, fmt.Errorf("%w: view %q: want ZOOM or ZOOM/DX/DY", errUsage, item)
		}
		var nums [3]float64
		for i, p := range parts {
			x, err := strconv.ParseFloat(p, 64)
			if err != nil {
				return nil, fmt.Errorf("%w: view %q: %w", errUsage, item, err)
			}
			nums[i] = x
		}
		v := classify.View{Zoom: nums[0], DX: nums[1], DY: nums[2]}
		if err := v.Check(); err != nil {
			return nil, fmt.Errorf("%w: %w", errUsage, err)
		}
		out = append(out, v)
	}
	return out, nil
}
