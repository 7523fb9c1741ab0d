package build

import (
	"errors"
	"fmt"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/hw/config"
	"github.com/siamesetable/siamesed/hw/enroll"
	"github.com/siamesetable/siamesed/hw/loadcell"
	"github.com/siamesetable/siamesed/hw/rack"
	"github.com/siamesetable/siamesed/hw/simtable"
	"github.com/siamesetable/siamesed/internal/clock"
)

// Setup is what Open needs to build a profile's racks, real or simulated.
type Setup struct {
	Profile *config.Profile
	// Host opens the real buses and pins (periph after host.Init); Open calls it only for a
	// profile that is not simulated.
	Host func() (Host, error)
	// Wrap, if set, wraps the host the racks are built on, emulated or real (hw scan --record).
	Wrap func(Host) Host
	// Enrolment and Calibrations are real racks' tags and load cells, as the user made them
	// (UserData reads them); nil Enrolment: no tag is known. A simulated table has its own.
	Enrolment    rack.Enrolment
	Calibrations config.Calibrations
	// Clock times the PN532 polls (nil: the wall clock).
	Clock clock.Clock
	// Sim shapes the simulated table of a simulated profile.
	Sim Sim
}

// Sim shapes a simulated table: its seed and set, its noise, and how its sensors are read.
type Sim struct {
	simtable.Options
	Noise simtable.Noise
	// Direct reads a simulated pn532, mfrc522 or loadcell profile's table without chips or
	// drivers (simtable.Table.Sources): the same table and noise, faster. Kind sim always is.
	Direct bool
	// Tags, when set, is the enrolment the racks name the tiles by, instead of the table's own
	// (every tag enrolled from the start): a data directory's enrolment, walked tile by tile on
	// the set-up page as at real racks.
	Tags rack.Enrolment
	// Calibrations, when set, are a data directory's load-cell calibrations, made on the set-up
	// page as at real racks: each zone they name is read with its calibration there instead of
	// the table's own.
	Calibrations config.Calibrations
}

// Open builds the racks of a profile: a simulated table's (simulated: true, on emulated chips
// read by the real drivers, or read directly; kind sim, read directly), else the real racks on
// the host's buses and pins.
func Open(s Setup) (*Rig, error) {
	p := s.Profile
	if p.Simulated || p.Kind == config.KindSim {
		return openSim(s)
	}
	if s.Host == nil {
		return nil, errors.New("build: no host opens the buses and pins on this machine")
	}
	h, err := s.Host()
	if err != nil {
		return nil, err
	}
	if s.Wrap != nil {
		h = s.Wrap(h)
	}
	en := s.Enrolment
	if en == nil {
		en = noTags{}
	}
	return Build(p, h, en, s.Calibrations, Options{Clock: s.Clock})
}

// openSim lays out the simulated table and reads it.
func openSim(s Setup) (*Rig, error) {
	p := s.Profile
	t, err := simtable.New(p, s.Sim.Options)
	if err != nil {
		return nil, err
	}
	if err := t.SetNoise(s.Sim.Noise); err != nil {
		return nil, err
	}
	if !s.Sim.Direct && p.Kind != config.KindSim {
		var h Host = t.Host()
		if s.Wrap != nil {
			h = s.Wrap(h)
		}
		// The emulated chips answer at once: no pause between status polls.
		var en rack.Enrolment = t.Enrolment()
		if s.Sim.Tags != nil {
			en = s.Sim.Tags
		}
		r, err := Build(p, h, en, t.Calibrations(), Options{NoWait: true, Clock: s.Clock})
		if err != nil {
			return nil, err
		}
		r.Table = t
		r.calibrate(s.Sim.Calibrations)
		return r, nil
	}
	r := &Rig{Profile: p, Cells: map[rack.Key]*loadcell.Cell{}, Table: t, Sources: t.Sources()}
	for _, src := range r.Sources {
		sc := src.(*rack.Scanner)
		if s.Sim.Tags != nil {
			sc.Enrolled = s.Sim.Tags
		}
		for z, c := range sc.Cells {
			r.Cells[rack.Key{Rack: sc.Name, Zone: z}] = c.(*loadcell.Cell)
		}
		for _, sl := range sc.Slots {
			r.Readers = append(r.Readers, ReaderInfo{Rack: sc.Name, Zone: string(sl.Zone), Slot: sl.Name, Firmware: "simulated"})
			r.TagReaders = append(r.TagReaders, Slot{Rack: sc.Name, Slot: sl})
		}
	}
	r.calibrate(s.Sim.Calibrations)
	return r, nil
}

// calibrate reads each zone cals names with its calibration there.
func (r *Rig) calibrate(cals config.Calibrations) {
	for k, cell := range r.Cells {
		if c, ok := cals.Get(k.Rack, k.Zone); ok {
			cell.SetCalibration(c)
		}
	}
}

// Monitor watches the rig's racks on clk, with the profile's settle window, scan period and
// presence parameters.
func (r *Rig) Monitor(clk clock.Clock) *rack.Monitor {
	m := rack.NewMonitor(clk, r.Profile.Settle, r.Profile.Period, r.Sources...)
	m.Params = r.Profile.Params()
	return m
}

// UserData opens what a user made for real racks: the profile's tag enrolment and load-cell
// calibration, in the data directory unless absolute. A profile naming no enrolment gives a
// nil store; a file not made yet, an empty one.
func UserData(p *config.Profile, set tile.Set, dataDir string) (*enroll.Store, config.Calibrations, error) {
	var tags *enroll.Store
	if name := config.InData(dataDir, p.Enrolment); name != "" {
		var err error
		if tags, err = enroll.Open(name, set); err != nil {
			return nil, nil, err
		}
	}
	cals := config.Calibrations{}
	if name := config.InData(dataDir, p.Calibration); name != "" {
		var err error
		if cals, err = config.LoadCalibrations(name); err != nil {
			return nil, nil, fmt.Errorf("build: %w", err)
		}
	}
	return tags, cals, nil
}

// noTags is the enrolment of racks with no tags enrolled yet: every tag is unknown.
type noTags struct{}

func (noTags) Face(string) (tile.Face, bool) { return tile.NoFace, false }
