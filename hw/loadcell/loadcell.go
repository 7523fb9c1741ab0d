// Package loadcell turns HX711 readings under a rack zone into grams and a tile count: median
// filtering of spikes, tare, calibration against a known weight.
package loadcell

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"
)

// Sampler is one raw 24-bit conversion; periph's *hx711.Dev satisfies it.
type Sampler interface {
	ReadTimeout(timeout time.Duration) (int32, error)
}

// Calibration maps raw counts to grams: grams = (raw - Offset) / CountsPerGram.
type Calibration struct {
	Offset        int32   `yaml:"offset" json:"offset"`
	CountsPerGram float64 `yaml:"counts_per_gram" json:"counts_per_gram"`
}

// Opts tunes a Cell; zero fields take the defaults.
type Opts struct {
	Samples   int           // readings per Tare/Calibrate measurement, median taken (default 5, made odd)
	Window    int           // conversions in Count's rolling median (default 3, made odd)
	Timeout   time.Duration // per reading (default 200ms: the HX711 converts at 10 Hz)
	TileGrams float64       // weight of one tile (default 14 g, measure yours)
	Tolerance float64       // largest distance from a whole count, in tiles (default 0.3)
}

func (o *Opts) fill() {
	if o.Samples <= 0 {
		o.Samples = 5
	}
	if o.Samples%2 == 0 {
		o.Samples++
	}
	if o.Window <= 0 {
		o.Window = 3
	}
	if o.Window%2 == 0 {
		o.Window++
	}
	if o.Timeout <= 0 {
		o.Timeout = 200 * time.Millisecond
	}
	if o.TileGrams <= 0 {
		o.TileGrams = 14
	}
	if o.Tolerance <= 0 || o.Tolerance >= 0.5 {
		o.Tolerance = 0.3
	}
}

// ErrUncalibrated is returned by Grams before a calibration is set.
var ErrUncalibrated = errors.New("loadcell: not calibrated")

// Cell is one load cell (or a bridge of cells) under one rack zone.
type Cell struct {
	s    Sampler
	cal  Calibration
	opts Opts
	buf  []int32
	ring []int32 // the last Window conversions, for Count
	n    int     // how many of ring are filled
	next int
	tmp  []int32
}

// New returns a cell reading s with calibration cal.
func New(s Sampler, cal Calibration, opts *Opts) *Cell {
	o := Opts{}
	if opts != nil {
		o = *opts
	}
	o.fill()
	return &Cell{s: s, cal: cal, opts: o, buf: make([]int32, o.Samples),
		ring: make([]int32, o.Window), tmp: make([]int32, o.Window)}
}

// Calibration returns the current calibration (to save after Tare and Calibrate).
func (c *Cell) Calibration() Calibration { return c.cal }

// Raw returns the median of Samples readings, so a single spike (a knock on the table) is ignored.
func (c *Cell) Raw() (int32, error) {
	for i := range c.buf {
		v, err := c.s.ReadTimeout(c.opts.Timeout)
		if err != nil {
			return 0, fmt.Errorf("loadcell: reading %d of %d: %w", i+1, len(c.buf), err)
		}
		c.buf[i] = v
	}
	return Median(c.buf), nil
}

// Median returns the median of v, reordering v.
func Median(v []int32) int32 {
	slices.Sort(v)
	return v[len(v)/2]
}

// Tare records the empty zone's reading as zero.
func (c *Cell) Tare() error {
	raw, err := c.Raw()
	if err != nil {
		return err
	}
	c.cal.Offset = raw
	return nil
}

// Calibrate sets the scale from a known weight (grams) lying on the tared zone.
func (c *Cell) Calibrate(knownGrams float64) error {
	if knownGrams <= 0 {
		return fmt.Errorf("loadcell: known weight %g g must be positive", knownGrams)
	}
	raw, err := c.Raw()
	if err != nil {
		return err
	}
	d := float64(raw - c.cal.Offset)
	if math.Abs(d) < 100 {
		return fmt.Errorf("loadcell: %g g moved the reading by %d counts only: check wiring", knownGrams, raw-c.cal.Offset)
	}
	c.cal.CountsPerGram = d / knownGrams
	return nil
}

// Grams returns the weight on the zone.
func (c *Cell) Grams() (float64, error) {
	if c.cal.CountsPerGram == 0 {
		return 0, ErrUncalibrated
	}
	raw, err := c.Raw()
	if err != nil {
		return 0, err
	}
	return float64(raw-c.cal.Offset) / c.cal.CountsPerGram, nil
}

// Count is a tile count from weight.
type Count struct {
	Tiles int
	Grams float64
	// Sure is false when the weight is not near a whole number of tiles (a hand resting on the
	// rack, a tile half on, an object that is not a tile).
	Sure bool
}

// Count reads one new conversion and converts the median of the last Window conversions to
// tiles: one conversion per scan keeps the scan short (the HX711 converts at 10 or 80 Hz), and
// the rolling median drops a single spike (a knock on the table).
func (c *Cell) Count() (Count, error) {
	if c.cal.CountsPerGram == 0 {
		return Count{}, ErrUncalibrated
	}
	v, err := c.s.ReadTimeout(c.opts.Timeout)
	if err != nil {
		return Count{}, fmt.Errorf("loadcell: %w", err)
	}
	c.ring[c.next] = v
	c.next = (c.next + 1) % len(c.ring)
	if c.n < len(c.ring) {
		c.n++
	}
	copy(c.tmp, c.ring[:c.n])
	raw := Median(c.tmp[:c.n])
	g := float64(raw-c.cal.Offset) / c.cal.CountsPerGram
	return TilesFromGrams(g, c.opts.TileGrams, c.opts.Tolerance), nil
}

// TilesFromGrams rounds a weight to a whole number of tiles; Sure says it was within tolerance
// (a fraction of one tile) and not negative.
func TilesFromGrams(grams, tileGrams, tolerance float64) Count {
	x := grams / tileGrams
	n := math.Round(x)
	if n < 0 {
		return Count{Tiles: 0, Grams: grams, Sure: x > -tolerance}
	}
	return Count{Tiles: int(n), Grams: grams, Sure: math.Abs(x-n) <= tolerance}
}
