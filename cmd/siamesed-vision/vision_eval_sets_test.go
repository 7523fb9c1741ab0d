package main

import (
	"strings"
	"testing"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/vision/classify"
	"github.com/siamesetable/siamesed/vision/eval"
)

// The per-set tables end with what each set's enrolments asked about faces they named right,
// and why, so that a set's unknowns can be told from its confusions.
func TestPrintSetTrialsSaysWhatWasAsked(t *testing.T) {
	trial := eval.SetTrial{Set: "C", Enrolment: eval.OwnAndOthers, Seed: 1, Enrolled: 784,
		Tally: eval.Tally{N: 408, Top1: 1, Unknown: 0.1},
		Asked: []eval.Asked{{Face: tile.Dot2, Why: classify.TooFar, Count: 28}, {Face: tile.Bam4, Why: classify.TooClose, Count: 2}}}
	var out strings.Builder
	printSetTrials(&out, setsRun{setsDir: "sets", enrolDir: "dev", top: 10}, 318, []eval.SetTrial{trial})
	got := out.String()
	_, asked, ok := strings.Cut(got, "most often asked")
	if !ok || !strings.Contains(asked, "C    own+others  2D far 28, 4B close 2\n") {
		t.Errorf("the tables do not say what was asked:\n%s", got)
	}
}
