package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/siamesetable/siamesed/vision/classify"
	"github.com/siamesetable/siamesed/vision/eval"
	"github.com/siamesetable/siamesed/vision/labels"
)

// setsReport is `vision eval --sets`'s JSON (--json).
type setsReport struct {
	Sets       []eval.SetTrial      `json:"sets"`
	Faces      []eval.FaceTrial     `json:"faces,omitempty"`
	Conditions []eval.SetConditions `json:"conditions,omitempty"`
	NonTile    []eval.NonTileTrial  `json:"nontile,omitempty"`
}

// setsRun is what `vision eval --sets` was asked.
type setsRun struct {
	setsDir, enrolDir string
	enrolItems        []labels.Item // the pool always enrolled (--enroll), may be empty
	seeds             []uint64
	oneFlower         bool
	open              bool
	conditions        bool
	nontile           int
	others            string
	top               int
	json              bool
}

// visionEvalSets measures the recogniser set by set: each tile set of --sets left out in turn
// (eval.LeaveOneSetOut), and with --open each face left out in turn (eval.LeaveOneFaceOut).
func visionEvalSets(w io.Writer, c *classify.Classifier, a setsRun) error {
	setItems, err := labels.Read(a.setsDir)
	if err != nil {
		return err
	}
	for _, it := range setItems {
		if it.Set == "" {
			return fmt.Errorf("%w: --sets %s: labels.csv has no set column (image,tile,set)", errUsage, a.setsDir)
		}
	}
	pools := []eval.Pool{{Dir: a.setsDir, Items: setItems}}
	if a.enrolDir != "" {
		pools = append(pools, eval.Pool{Dir: a.enrolDir, Items: a.enrolItems})
	}
	bank, err := eval.NewBank(c, pools)
	if err != nil {
		return err
	}
	bank.OneFlower = a.oneFlower
	var r setsReport
	if r.Sets, err = bank.LeaveOneSetOut(a.seeds); err != nil {
		return err
	}
	if a.open {
		if r.Faces, err = bank.LeaveOneFaceOut(a.seeds); err != nil {
			return err
		}
	}
	if a.nontile > 0 {
		if r.NonTile, err = setsNonTiles(bank, a); err != nil {
			return err
		}
	}
	if a.conditions {
		if r.Conditions, err = bank.Conditions(a.seeds); err != nil {
			return err
		}
	}
	if a.json {
		b, err := json.Marshal(r)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "%s\n", b)
		return err
	}
	printSetTrials(w, a, len(a.enrolItems), r.Sets)
	if a.open {
		printFaceTrials(w, eval.SummariseFaces(r.Faces))
	}
	if a.conditions {
		printSetConditions(w, r.Conditions)
	}
	if a.nontile > 0 {
		fmt.Fprintf(w, "\nnon-tile crops, against every left-out set's enrolments and seeds:\n")
		fmt.Fprintf(w, "%-11s %-12s %7s %9s %9s\n", "enrolled as", "kind", "crops", "rejected", "worst")
		for _, t := range r.NonTile {
			fmt.Fprintf(w, "%-11v %-12s %7d %9.4f %9.4f\n", t.Enrolment, t.Kind, t.N, t.Rejected, t.Worst)
		}
	}
	return nil
}

// setsNonTiles draws the non-tile crops (tile patches from the sets' own crops) and answers them
// against each set's enrolments.
func setsNonTiles(bank *eval.Bank, a setsRun) ([]eval.NonTileTrial, error) {
	imgs, err := readImages(a.others)
	if err != nil {
		return nil, err
	}
	defer closeAll(imgs)
	items, err := labels.Read(a.setsDir)
	if err != nil {
		return nil, err
	}
	crops, err := eval.NonTiles(a.nontile, a.seeds[0], a.setsDir, items, imgs)
	if err != nil {
		return nil, err
	}
	defer func() {
		for _, ms := range crops {
			closeAll(ms)
		}
	}()
	return bank.RejectNonTiles(crops, a.seeds)
}

func printSetTrials(w io.Writer, a setsRun, base int, ts []eval.SetTrial) {
	fmt.Fprintf(w, "leave one set out: each set of %s left out in turn; always enrolled: %d crops of %s\n", a.setsDir, base, orNone(a.enrolDir))
	flowers := "and each of its flowers"
	if a.oneFlower {
		flowers = "flowers too"
	}
	fmt.Fprintf(w, "  own+others: the other sets, those crops and the set's own one crop a face (picked by seed; %s)\n", flowers)
	fmt.Fprintf(w, "  others: the same without the set's own; own: the set's own one crop a face alone\n")
	fmt.Fprintf(w, "  tested: the set's crops not picked, at 4 rotations; top-1 counts the nearest face, known or not\n\n")
	fmt.Fprintf(w, "%-4s %-11s %5s %8s %6s %7s %8s %11s\n", "set", "enrolled as", "seed", "enrolled", "n", "top-1", "unknown", "wrong-known")
	for _, t := range ts {
		seed := strconv.FormatUint(t.Seed, 10)
		if t.Enrolment == eval.Others {
			seed = "-"
		}
		fmt.Fprintf(w, "%-4s %-11v %5s %8d %6d %7.4f %8.4f %11.4f\n", t.Set, t.Enrolment, seed, t.Enrolled, t.N, t.Top1, t.Unknown, t.WrongKnown)
	}
	sums := eval.SummariseSets(ts)
	fmt.Fprintf(w, "\nper set, all seeds together (min top-1 of a seed):\n")
	fmt.Fprintf(w, "%-4s %-11s %6s %7s %7s %8s %11s\n", "set", "enrolled as", "n", "top-1", "min", "unknown", "wrong-known")
	for _, s := range sums {
		fmt.Fprintf(w, "%-4s %-11v %6d %7.4f %7.4f %8.4f %11.4f\n", s.Set, s.Enrolment, s.N, s.Top1, s.MinTop1, s.Unknown, s.WrongKnown)
	}
	printPerSet(w, "most confused, all seeds together (true -> answered count, of them known)", sums, func(s eval.SetSummary) []string {
		var ps []string
		for _, p := range s.Confused[:min(a.top, len(s.Confused))] {
			ps = append(ps, fmt.Sprintf("%v->%v %d (%d)", p.Want, p.Got, p.Count, p.Known))
		}
		return ps
	})
	printPerSet(w, "most often asked, all seeds together (named right but not known: face, why, count)", sums, func(s eval.SetSummary) []string {
		var as []string
		for _, x := range s.Asked[:min(a.top, len(s.Asked))] {
			why, err := x.Why.MarshalText()
			if err != nil {
				why = []byte(x.Why.String())
			}
			as = append(as, fmt.Sprintf("%v %s %d", x.Face, why, x.Count))
		}
		return as
	})
}

// printPerSet prints title, then a line for each set and enrolment with what items says of it
// (none for the sets added up, or where it says nothing).
func printPerSet(w io.Writer, title string, sums []eval.SetSummary, items func(eval.SetSummary) []string) {
	fmt.Fprintf(w, "\n%s:\n", title)
	for _, s := range sums {
		if s.Set == "all" {
			continue
		}
		if is := items(s); len(is) > 0 {
			fmt.Fprintf(w, "  %-4s %-11v %s\n", s.Set, s.Enrolment, strings.Join(is, ", "))
		}
	}
}

func printFaceTrials(w io.Writer, fs []eval.FaceTrial) {
	fmt.Fprintf(w, "\nleave one face out: each face of each set left out of the enrolment (every crop of it), the set's crops of it tested;\n")
	fmt.Fprintf(w, "all should be unknown. All sets and seeds together:\n")
	fmt.Fprintf(w, "%-11s %-4s %-8s %6s %8s %11s  %s\n", "enrolled as", "face", "sets", "n", "unknown", "wrong-known", "taken for (count, of them known)")
	worst := map[eval.Enrolment]eval.FaceTrial{}
	for _, f := range fs {
		var ps []string
		for _, p := range f.Taken[:min(4, len(f.Taken))] {
			ps = append(ps, fmt.Sprintf("%v %d (%d)", p.Got, p.Count, p.Known))
		}
		fmt.Fprintf(w, "%-11v %-4v %-8s %6d %8.4f %11.4f  %s\n", f.Enrolment, f.Face, strings.Join(f.Sets, ""), f.N, f.Unknown, f.WrongKnown, strings.Join(ps, ", "))
		if cur, ok := worst[f.Enrolment]; !ok || f.Unknown < cur.Unknown {
			worst[f.Enrolment] = f
		}
	}
	for _, e := range eval.Enrolments {
		if f, ok := worst[e]; ok {
			fmt.Fprintf(w, "%-11v least often unknown: %v, %.4f of %d\n", e, f.Face, f.Unknown, f.N)
		}
	}
}

func printSetConditions(w io.Writer, cs []eval.SetConditions) {
	fmt.Fprintf(w, "\ntable conditions, centred, each set enrolled on its own one crop a face alone (top-1, then known):\n%-4s %5s", "set", "seed")
	if len(cs) == 0 {
		return
	}
	for _, c := range cs[0].Conditions {
		fmt.Fprintf(w, " %15.15s", c.Condition)
	}
	fmt.Fprintln(w)
	for _, c := range cs {
		fmt.Fprintf(w, "%-4s %5d", c.Set, c.Seed)
		for _, r := range c.Conditions {
			fmt.Fprintf(w, "    %.3f %.3f", r.Accuracy, r.Known)
		}
		fmt.Fprintln(w)
	}
}

func orNone(s string) string {
	if s == "" {
		return "nothing else"
	}
	return s
}

// parseSeeds reads "1,2,3".
func parseSeeds(list string) ([]uint64, error) {
	var out []uint64
	for _, f := range strings.Split(list, ",") {
		seed, err := strconv.ParseUint(strings.TrimSpace(f), 10, 64)
		if err != nil || seed == 0 {
			return nil, fmt.Errorf("%w: seeds %q: want positive whole numbers, e.g. 1,2,3", errUsage, list)
		}
		out = append(out, seed)
	}
	return out, nil
}
