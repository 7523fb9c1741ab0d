package loadcell

import (
	"errors"
	"strings"
	"testing"
)

// TestStepByStepCalibration: steady readings give their median, unsteady ones an error saying
// so; a known weight gives the scale; no weight, a weight of nothing, or a weight that did not
// move the reading are refused with what to do.
func TestStepByStepCalibration(t *testing.T) {
	zero, err := Steady([]int32{50_010, 49_990, 50_000, 50_020, 49_995}, 300)
	if err != nil || zero != 50_000 {
		t.Fatalf("steady: %d %v", zero, err)
	}
	if _, err := Steady([]int32{50_000, 50_100, 90_000}, 300); !errors.Is(err, ErrUnsteady) || !strings.Contains(err.Error(), "keep hands off the rack") {
		t.Fatalf("unsteady: %v", err)
	}
	if _, err := Steady(nil, 300); err == nil {
		t.Fatal("no reading was steady")
	}
	cal, err := FromKnownWeight(zero, 50_000+42_000, 100)
	if err != nil || cal.Offset != 50_000 || cal.CountsPerGram != 420 {
		t.Fatalf("calibration %+v %v", cal, err)
	}
	for _, g := range []float64{0, -5} {
		if _, err := FromKnownWeight(zero, 92_000, g); err == nil || !strings.Contains(err.Error(), "in grams") {
			t.Errorf("%g g: %v", g, err)
		}
	}
	if _, err := FromKnownWeight(zero, zero+40, 100); err == nil || !strings.Contains(err.Error(), "put the weight on the zone") {
		t.Errorf("a weight that moved nothing: %v", err)
	}
}
