package loadcell

import (
	"errors"
	"fmt"
	"slices"
)

// Calibrating a zone step by step, as the set-up page does it (Cell.Tare and Cell.Calibrate do
// the same at once, for the terminal): readings of the empty zone, then of a known weight on
// it, each checked steady before it is taken.

// ErrUnsteady marks readings that do not agree: a hand on the rack, a weight still swinging.
var ErrUnsteady = errors.New("loadcell: the reading is not steady")

// MinCounts is the least a known weight must move the reading by: less, and the weight is not
// on the zone or the cell is not wired.
const MinCounts = 100

// Steady returns the median of readings (each already a median of a few conversions, Raw)
// when they lie within spread counts of each other.
func Steady(readings []int32, spread int32) (int32, error) {
	if len(readings) == 0 {
		return 0, errors.New("loadcell: no reading")
	}
	lo, hi := slices.Min(readings), slices.Max(readings)
	if int64(hi)-int64(lo) > int64(spread) {
		return 0, fmt.Errorf("%w: %d readings spread over %d counts (at most %d): keep hands off the rack and let it settle, then try again",
			ErrUnsteady, len(readings), int64(hi)-int64(lo), spread)
	}
	return Median(slices.Clone(readings)), nil
}

// FromKnownWeight is the calibration of a zone that read zero empty and loaded with a known
// weight of grams on it.
func FromKnownWeight(zero, loaded int32, grams float64) (Calibration, error) {
	if !(grams > 0) || grams > 100_000 {
		return Calibration{}, fmt.Errorf("loadcell: known weight %g g: give the weight put on the zone, in grams (more than 0)", grams)
	}
	d := int64(loaded) - int64(zero)
	if d > -MinCounts && d < MinCounts {
		return Calibration{}, fmt.Errorf("loadcell: %g g moved the reading by %d counts only: put the weight on the zone (and check the cell's wiring)", grams, d)
	}
	return Calibration{Offset: zero, CountsPerGram: float64(d) / grams}, nil
}

// SetCalibration replaces the cell's calibration (one measured step by step); the counts it
// gives from then on use it.
func (c *Cell) SetCalibration(cal Calibration) { c.cal = cal }
