package loadcell

import (
	"testing"
	"time"

	"github.com/siamesetable/siamesed/hw/hwtest"
	"periph.io/x/devices/v3/hx711"
)

func TestTareCalibrateCountThroughHX711(t *testing.T) {
	// Recorded raw values, 5 per measurement, each with one spike the median must drop.
	const off, cpg = 84_000, 420.0 // counts, counts per gram
	g := func(grams float64) int32 { return int32(off + grams*cpg) }
	samples := []int32{
		off, off + 3, 8_000_000, off - 2, off + 1, // tare, one spike
		g(100), g(100), g(100) + 2, -5_000_000, g(100) - 1, // 100 g calibration weight
		// Count: one conversion each, rolling median of 3.
		g(14 * 13), g(14*13) + 50, 9, g(14*13) - 40, // 13 tiles of 14 g, one spike
		g(14 * 6.5), g(14 * 6.5), // a hand: 6.5 tiles, unsure as soon as it is the median
	}
	fake := hwtest.NewHX711(samples...)
	dev, err := hx711.New(fake.Clk, fake.Data)
	if err != nil {
		t.Fatal(err)
	}
	c := New(dev, Calibration{}, &Opts{Timeout: time.Millisecond})
	if _, err := c.Grams(); err != ErrUncalibrated {
		t.Fatalf("Grams before calibration: %v", err)
	}
	if err := c.Tare(); err != nil {
		t.Fatal(err)
	}
	if err := c.Calibrate(100); err != nil {
		t.Fatal(err)
	}
	if cal := c.Calibration(); cal.Offset < off-2 || cal.Offset > off+2 || cal.CountsPerGram < 419 || cal.CountsPerGram > 421 {
		t.Fatalf("calibration %+v", cal)
	}
	for i, want := range []struct {
		tiles int
		sure  bool
	}{{13, true}, {13, true}, {13, true}, {13, true}, {6, false}, {6, false}} {
		n, err := c.Count()
		if err != nil || n.Sure != want.sure || (n.Sure && n.Tiles != want.tiles) {
			t.Fatalf("Count %d = %+v, %v; want %d sure=%v", i, n, err, want.tiles, want.sure)
		}
	}
	if _, err := c.Count(); err == nil {
		t.Fatal("no more samples: want a timeout error")
	}
}

func TestTilesFromGrams(t *testing.T) {
	for _, tc := range []struct {
		g    float64
		n    int
		sure bool
	}{{0, 0, true}, {14, 1, true}, {14 * 4.2, 4, true}, {14 * 4.5, 5, false}, {-3, 0, true}, {-14, 0, false}} {
		if got := TilesFromGrams(tc.g, 14, 0.3); got.Tiles != tc.n || got.Sure != tc.sure {
			t.Errorf("TilesFromGrams(%g) = %+v, want %d sure=%v", tc.g, got, tc.n, tc.sure)
		}
	}
}
