package daemon

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/siamesetable/siamesed/configs"
	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/hw/build"
	"github.com/siamesetable/siamesed/hw/config"
	"github.com/siamesetable/siamesed/hw/enroll"
	"github.com/siamesetable/siamesed/hw/rack"
	"github.com/siamesetable/siamesed/hw/simtable"
	"github.com/siamesetable/siamesed/internal/clock"
)

// rig is the racks the daemon reads, and, on a simulated profile, the simulated table under them.
type rig struct {
	*build.Rig
	profile *config.Profile
	table   *simtable.Table // nil on real hardware
	// tags is the enrolment the racks name tiles by; store and tagFile, the data directory's,
	// which the set-up page walks (nil: the simulated table's own tags, or a profile naming no
	// enrolment file).
	tags    rack.Enrolment
	store   *enroll.Store
	tagFile string
	// cals and calFile are the load-cell calibrations made for these racks and their file in
	// the data directory ("": a real profile names none). A simulated table's zones that file
	// does not name keep the table's own.
	cals    config.Calibrations
	calFile string
}

// LoadProfile reads a hardware profile: a built-in name (configs/hw/NAME.yaml, so an installed
// binary needs no repository beside it) or a path. The path is "" for a built-in profile.
func LoadProfile(spec string) (*config.Profile, string, error) {
	if !strings.ContainsAny(spec, "/.") {
		data, err := configs.Files.ReadFile("hw/" + spec + ".yaml")
		if err != nil {
			return nil, "", fmt.Errorf("hardware: no built-in profile %q (sim-pn532, pn532-rack, mfrc522-rack, loadcell-rack, sim, or a path)", spec)
		}
		p, err := config.Parse(data)
		if err != nil {
			return nil, "", fmt.Errorf("hardware %s: %w", spec, err)
		}
		return p, "", nil
	}
	p, err := config.Load(spec)
	return p, spec, err
}

// buildRig opens the racks (build.Open). A simulated profile lays out a simulated table whose
// own tags and load cells need no enrolment or calibration, though a calibration made on the
// set-up page (and, with sim.tags: enrol, the tags enrolled there) is read back from the data
// directory as at real racks; real hardware reads both from the data directory (what a user
// makes lives there, never beside the program).
func buildRig(cfg Config, set tile.Set, dataDir string, clk clock.Clock, host func() (build.Host, error)) (*rig, error) {
	p, _, err := LoadProfile(cfg.Hardware)
	if err != nil {
		return nil, err
	}
	if p.Kind == config.KindSim {
		return nil, fmt.Errorf("hardware: %q is the fast simulation above the drivers, which the daemon does not play on: use sim-pn532", cfg.Hardware)
	}
	s := build.Setup{Profile: p, Host: host, Clock: clk}
	out := &rig{profile: p}
	if p.Simulated {
		s.Sim = build.Sim{Options: simtable.Options{Seed: cfg.Sim.Seed, Set: set}, Noise: cfg.Sim.Noise.Noise, Direct: cfg.Sim.Racks == "direct"}
		if cfg.Sim.Tags == "enrol" {
			if out.store, out.tagFile, err = simTags(p, set, dataDir); err != nil {
				return nil, err
			}
			s.Sim.Tags = out.store
		}
		out.calFile = config.InData(dataDir, cmp.Or(p.Calibration, "calibration.yaml"))
		if out.cals, err = config.LoadCalibrations(out.calFile); err != nil {
			return nil, err
		}
		s.Sim.Calibrations = out.cals
	} else {
		tags, cals, err := build.UserData(p, set, dataDir)
		if err != nil {
			return nil, err
		}
		s.Calibrations, out.cals, out.calFile = cals, cals, config.InData(dataDir, p.Calibration)
		if tags != nil {
			s.Enrolment, out.store, out.tagFile = tags, tags, config.InData(dataDir, p.Enrolment)
		}
	}
	r, err := build.Open(s)
	if err != nil {
		return nil, err
	}
	out.Rig, out.table = r, r.Table
	switch {
	case out.store != nil:
		out.tags = out.store
	case r.Table != nil:
		out.tags = r.Table.Enrolment()
	}
	return out, nil
}

// simTags opens the enrolment a simulated table's racks name tiles by with sim.tags: enrol: the
// profile's enrolment file in the data directory, or tags.yaml there, as for real racks.
func simTags(p *config.Profile, set tile.Set, dataDir string) (*enroll.Store, string, error) {
	name := p.Enrolment
	if name == "" {
		name = "tags.yaml"
	}
	file := config.InData(dataDir, name)
	s, err := enroll.Open(file, set)
	return s, file, err
}
