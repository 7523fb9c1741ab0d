package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/hw/build"
	"github.com/siamesetable/siamesed/hw/config"
	"github.com/siamesetable/siamesed/hw/enroll"
	"github.com/siamesetable/siamesed/hw/rack"
	"github.com/siamesetable/siamesed/hw/simtable"
	"github.com/siamesetable/siamesed/internal/clock"
)

// hwDefaultProfile is the hardware profile used when --profile is not given: simulated racks.
const hwDefaultProfile = "configs/hw/sim.yaml"

// hwClock is the clock the hw commands wait on; tests swap in a fake.
var hwClock clock.Clock = clock.Real{}

// hwSetup is what every hw command opens: the profile, the enrolment and the calibration.
type hwSetup struct {
	path    string
	profile *config.Profile
	tags    *enroll.Store
	cals    config.Calibrations
	calPath string
	// simSeed seeds the simulated table of a simulated profile; table is that table once built.
	simSeed uint64
	table   *simtable.Table
	// wrap, if set, wraps the host the rig is built on (hw scan --record).
	wrap func(build.Host) build.Host
}

func hwFlags(name string, stderr io.Writer) (*flag.FlagSet, *string) {
	fs := newFlags(name, stderr)
	profile := fs.String("profile", hwDefaultProfile, "hardware profile (YAML)")
	return fs, profile
}

func hwParseFlags(fs *flag.FlagSet, args []string) error {
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	return nil
}

func hwOpenSetup(path, setName string) (*hwSetup, error) {
	p, err := config.Load(path)
	if err != nil {
		return nil, err
	}
	set, err := tile.SetByName(setName)
	if err != nil {
		return nil, err
	}
	s := &hwSetup{path: path, profile: p, calPath: config.Path(path, p.Calibration)}
	if p.Enrolment != "" {
		if s.tags, err = enroll.Open(config.Path(path, p.Enrolment), set); err != nil {
			return nil, err
		}
	}
	s.cals = config.Calibrations{}
	if s.calPath != "" {
		if s.cals, err = config.LoadCalibrations(s.calPath); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// rig builds the racks: on the Pi's buses and pins after periph's host.Init, on a simulated
// table's emulated chips for a simulated profile, or as simulated racks for kind sim.
func (s *hwSetup) rig() (*build.Rig, error) {
	var h build.Host
	var en rack.Enrolment = hwNoTags{}
	if s.tags != nil {
		en = s.tags
	}
	cals, opts := s.cals, build.Options{}
	switch {
	case s.profile.Simulated:
		t, err := simtable.New(s.profile, simtable.Options{Seed: s.simSeed})
		if err != nil {
			return nil, err
		}
		s.table, h, en, cals = t, t.Host(), t.Enrolment(), t.Calibrations()
		opts.NoWait = true // the emulated chips answer at once: no pause between status polls
	case s.profile.Kind != config.KindSim:
		var err error
		if h, err = hwOpenHost(); err != nil {
			return nil, err
		}
	}
	if s.wrap != nil && h != nil {
		h = s.wrap(h)
	}
	return build.Build(s.profile, h, en, cals, opts)
}

// hwRefuseSimulated explains why a command that needs a person at real hardware does not run
// on a simulated table.
func (s *hwSetup) hwRefuseSimulated(what string) error {
	if s.profile.Simulated {
		return fmt.Errorf("%s is a simulated table: it %s itself", s.path, what)
	}
	return nil
}

type hwNoTags struct{}

func (hwNoTags) Face(string) (tile.Face, bool) { return tile.NoFace, false }

var errHWNoEnrolment = errors.New("the profile names no enrolment file")
