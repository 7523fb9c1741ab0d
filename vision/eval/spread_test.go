package eval

import (
	"math"
	"testing"
)

// TestSpreadOf: the spread leaves out NaNs (crops an embedder had no measure for), and is nil
// when nothing is left.
func TestSpreadOf(t *testing.T) {
	nan := math.NaN()
	xs := []float64{nan, 0.9}
	for i := range 99 {
		xs = append(xs, float64(i)/100)
	}
	s := spreadOf(xs)
	if s == nil || s.Min != 0 || s.Max != 0.98 || s.P50 != 0.5 || s.P1 != 0.01 || s.P99 != 0.98 {
		t.Errorf("spread %+v, want min 0, p1 0.01, p50 0.5, p99 0.98, max 0.98", s)
	}
	if s := spreadOf([]float64{nan, nan}); s != nil {
		t.Errorf("only NaNs: %+v, want nil", s)
	}
}
