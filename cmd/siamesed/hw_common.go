package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/siamesetable/siamesed/daemon"
	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/hw/build"
	"github.com/siamesetable/siamesed/hw/config"
	"github.com/siamesetable/siamesed/hw/enroll"
	"github.com/siamesetable/siamesed/hw/simtable"
	"github.com/siamesetable/siamesed/internal/clock"
	"github.com/siamesetable/siamesed/internal/datadir"
)

// hwDefaultProfile is the hardware profile used when --profile is not given: simulated racks,
// built into the binary (configs/hw/sim.yaml), so the tools run anywhere, not only in the
// repository.
const hwDefaultProfile = "sim"

// hwClock is the clock the hw commands wait on; tests swap in a fake.
var hwClock clock.Clock = clock.Real{}

// hwSetup is what every hw command opens: the profile, the enrolment and the calibration.
type hwSetup struct {
	path    string // the profile as given: a built-in name or a path
	profile *config.Profile
	// tagPath and calPath are the enrolment and calibration files, in the data directory.
	tagPath string
	tags    *enroll.Store
	cals    config.Calibrations
	calPath string
	// simSeed seeds the simulated table of a simulated profile; table is that table once built.
	simSeed uint64
	table   *simtable.Table
	// wrap, if set, wraps the host the rig is built on (hw scan --record).
	wrap func(build.Host) build.Host
}

// hwFlags are the flags every hw command takes: the profile, and the data directory where the
// enrolled tags and load-cell calibrations live (as for `siamesed run`, so the tools write
// exactly the files the daemon reads).
func hwFlags(name string, stderr io.Writer) (*flag.FlagSet, *string, *string) {
	fs := newFlags(name, stderr)
	profile := fs.String("profile", hwDefaultProfile, "hardware profile: a built-in name (pn532-rack, mfrc522-rack, loadcell-rack, sim, ...) or a YAML path")
	data := fs.String("data", "", "data directory holding the enrolled tags and calibrations (default: $"+datadir.Env+", else $XDG_STATE_HOME/siamesed or ~/.local/state/siamesed)")
	return fs, profile, data
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

// hwOpenSetup loads the profile and opens its enrolment and calibration in the data directory
// (the default one when dataDir is "").
func hwOpenSetup(path, dataDir, setName string) (*hwSetup, error) {
	p, _, err := daemon.LoadProfile(path)
	if err != nil {
		return nil, err
	}
	set, err := tile.SetByName(setName)
	if err != nil {
		return nil, err
	}
	if dataDir == "" {
		if dataDir, err = datadir.Default(); err != nil {
			return nil, err
		}
	}
	s := &hwSetup{path: path, profile: p, tagPath: config.InData(dataDir, p.Enrolment), calPath: config.InData(dataDir, p.Calibration)}
	if s.tags, s.cals, err = build.UserData(p, set, dataDir); err != nil {
		return nil, err
	}
	return s, nil
}

// rig builds the racks (build.Open): on the Pi's buses and pins after periph's host.Init, or a
// simulated table's, on emulated chips for a simulated profile or read directly for kind sim.
func (s *hwSetup) rig() (*build.Rig, error) {
	setup := build.Setup{Profile: s.profile, Host: hwOpenHost, Wrap: s.wrap, Calibrations: s.cals,
		Sim: build.Sim{Options: simtable.Options{Seed: s.simSeed}}}
	if s.tags != nil {
		setup.Enrolment = s.tags
	}
	r, err := build.Open(setup)
	if err != nil {
		return nil, err
	}
	s.table = r.Table
	return r, nil
}

// hwRefuseSimulated explains why a command that needs a person at real hardware does not run
// on a simulated table.
func (s *hwSetup) hwRefuseSimulated(what string) error {
	if s.profile.Simulated {
		return fmt.Errorf("%s is a simulated table: it %s itself", s.path, what)
	}
	return nil
}

var errHWNoEnrolment = errors.New("the profile names no enrolment file")
