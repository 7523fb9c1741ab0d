// Package build turns a hardware profile into rack sources: the real drivers for pn532,
// mfrc522 and loadcell profiles, on the Pi's buses or a simulated table's emulated chips, or a
// simulated table read directly. It is the one place that knows how the packages fit together
// (Open); the buses and pins come from a Host, so tests pass fakes and the daemon passes
// periph's registries after host.Init.
package build

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/siamesetable/siamesed/hw/config"
	"github.com/siamesetable/siamesed/hw/loadcell"
	"github.com/siamesetable/siamesed/hw/rack"
	"github.com/siamesetable/siamesed/hw/simtable"
	"github.com/siamesetable/siamesed/internal/clock"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/devices/v3/hx711"
)

// Host opens buses and pins by the names the profile uses.
type Host interface {
	OpenI2C(name string) (i2c.BusCloser, error)
	OpenSPI(name string) (spi.PortCloser, error)
	Pin(name string) (gpio.PinIO, error)
}

// Options tune the build.
type Options struct {
	// NoWait drops the pause between PN532 status polls; tests of the build set it.
	NoWait bool
	// Clock times the PN532 polls (nil: the wall clock).
	Clock clock.Clock
}

// ReaderInfo is what `hw scan` shows about a reader at start-up.
type ReaderInfo struct {
	Rack, Zone, Slot string
	Firmware         string // empty when the reader did not answer
	Err              error
}

// Rig is a built set of racks.
type Rig struct {
	Profile *config.Profile
	Sources []rack.Source
	// Cells are the load cells by rack zone (for calibration).
	Cells map[rack.Key]*loadcell.Cell
	// Readers lists every reader with its start-up state.
	Readers []ReaderInfo
	// Table is the simulated table the racks are on (nil on real hardware).
	Table *simtable.Table
	// TagReaders are every slot's reader, for enrolment.
	TagReaders []Slot
	// Warnings are problems that do not stop the rig (e.g. a bus whose speed is fixed).
	Warnings []string

	closers []io.Closer
}

// Slot is one reader with where it sits.
type Slot struct {
	Rack string
	rack.Slot
}

// Build opens everything the profile names. A reader that does not answer at start is listed
// with its error and stays in the rack, so it degrades that rack instead of stopping the daemon;
// a bus or mux that cannot be opened at all is an error.
func Build(p *config.Profile, h Host, en rack.Enrolment, cals config.Calibrations, o Options) (*Rig, error) {
	rig := &Rig{Profile: p, Cells: map[rack.Key]*loadcell.Cell{}}
	var err error
	switch p.Kind {
	case config.KindSim:
		err = errors.New("build: kind sim is a simulated table read without drivers: build it with Open")
	case config.KindPN532:
		err = rig.buildPN532(h, en, cals, o)
	case config.KindMFRC522:
		err = rig.buildMFRC522(h, en, cals)
	case config.KindLoadCell:
		err = rig.buildLoadCells(h, cals)
	default:
		err = fmt.Errorf("build: unknown profile kind %q", p.Kind)
	}
	if err != nil {
		return nil, errors.Join(err, rig.Close())
	}
	return rig, nil
}

// Close releases buses and muxes, last opened first.
func (r *Rig) Close() error {
	var errs []error
	for _, c := range slices.Backward(r.closers) {
		errs = append(errs, c.Close())
	}
	r.closers = nil
	return errors.Join(errs...)
}

func (r *Rig) buildLoadCells(h Host, cals config.Calibrations) error {
	for _, cr := range r.Profile.Racks {
		sc, err := r.cells(h, cr, cals)
		if err != nil {
			return err
		}
		r.Sources = append(r.Sources, sc)
	}
	return nil
}

// cells builds a Scanner with the rack's load cells (readers are added by the caller).
func (r *Rig) cells(h Host, cr config.Rack, cals config.Calibrations) (*rack.Scanner, error) {
	sc := &rack.Scanner{Name: cr.Name, Cells: map[rack.Zone]rack.Weigher{}}
	for _, c := range cr.Cells {
		clk, err := h.Pin(c.Clk)
		if err != nil {
			return nil, fmt.Errorf("build: rack %s zone %s clk: %w", cr.Name, c.Zone, err)
		}
		data, err := h.Pin(c.Data)
		if err != nil {
			return nil, fmt.Errorf("build: rack %s zone %s data: %w", cr.Name, c.Zone, err)
		}
		dev, err := hx711.New(clk, data)
		if err != nil {
			return nil, fmt.Errorf("build: rack %s zone %s hx711: %w", cr.Name, c.Zone, err)
		}
		cal, _ := cals.Get(cr.Name, c.Zone)
		cell := loadcell.New(dev, cal, &loadcell.Opts{TileGrams: r.Profile.TileGrams, Timeout: 150 * time.Millisecond})
		r.Cells[rack.Key{Rack: cr.Name, Zone: c.Zone}] = cell
		sc.Cells[c.Zone] = cell
	}
	return sc, nil
}
