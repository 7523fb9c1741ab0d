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

// rig builds the racks; the periph host is initialised only for real hardware.
func (s *hwSetup) rig() (*build.Rig, error) {
	var h build.Host
	if s.profile.Kind != config.KindSim {
		var err error
		if h, err = hwOpenHost(); err != nil {
			return nil, err
		}
	}
	var en interface {
		Face(string) (tile.Face, bool)
	} = hwNoTags{}
	if s.tags != nil {
		en = s.tags
	}
	return build.Build(s.profile, h, en, s.cals, build.Options{})
}

type hwNoTags struct{}

func (hwNoTags) Face(string) (tile.Face, bool) { return tile.NoFace, false }

var errHWNoEnrolment = errors.New("the profile names no enrolment file")
