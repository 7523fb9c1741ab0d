package track

import (
	"strings"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/sim"
)

// TestOneQuestionPerThingAsked: three tiles of one face gone from a rack are one thing to ask
// about, asked once: the display lists each question, and the same id three times over is
// three copies of one question.
func TestOneQuestionPerThingAsked(t *testing.T) {
	ft, tr := dealtTable(t, loadRules(t, "siamese"), loadCard(t), [4]string{
		"1B 1B 1B 2B 2B 2B 3B 3B 3B 4B 4B 4B 5B 5B",
		"1C 1C 1C 2C 2C 2C 3C 3C 3C 4C 4C 4C 5C 5C",
		"2D 2D 2D 3D 3D 3D 4D 4D 4D 5D 5D 5D 6D",
		"E E E S S S W W W N N N RD 5D",
	})
	hands(ft, tr, 10*time.Second, take(1, 2, sim.In, "E"), take(1, 2, sim.In, "E"), take(1, 2, sim.In, "E"))
	qs := tr.Questions()
	seen := map[int]bool{}
	asked := 0
	for _, q := range qs {
		if seen[q.ID] {
			t.Errorf("question %d listed twice: %+v", q.ID, qs)
		}
		seen[q.ID] = true
		if strings.Contains(q.Text, "E is missing from seat 1 rack 2") {
			asked++
		}
	}
	if asked != 1 {
		t.Errorf("asked %d times about the Es gone from seat 1 rack 2, want once: %+v", asked, qs)
	}
}
