package daemon

import (
	"fmt"
	"strings"

	"github.com/siamesetable/siamesed/configs"
	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/hw/build"
	"github.com/siamesetable/siamesed/hw/config"
	"github.com/siamesetable/siamesed/hw/simtable"
	"github.com/siamesetable/siamesed/internal/clock"
)

// rig is the racks the daemon reads, and, on a simulated profile, the simulated table under them.
type rig struct {
	*build.Rig
	profile *config.Profile
	table   *simtable.Table // nil on real hardware
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
// own tags and load cells need no enrolment or calibration; real hardware reads both from the
// data directory (what a user makes lives there, never beside the program).
func buildRig(cfg Config, set tile.Set, dataDir string, clk clock.Clock, host func() (build.Host, error)) (*rig, error) {
	p, _, err := LoadProfile(cfg.Hardware)
	if err != nil {
		return nil, err
	}
	if p.Kind == config.KindSim {
		return nil, fmt.Errorf("hardware: %q is the fast simulation above the drivers, which the daemon does not play on: use sim-pn532", cfg.Hardware)
	}
	s := build.Setup{Profile: p, Host: host, Clock: clk}
	if p.Simulated {
		s.Sim = build.Sim{Options: simtable.Options{Seed: cfg.Sim.Seed, Set: set}, Noise: cfg.Sim.Noise.Noise, Direct: cfg.Sim.Racks == "direct"}
	} else {
		tags, cals, err := build.UserData(p, set, dataDir)
		if err != nil {
			return nil, err
		}
		s.Calibrations = cals
		if tags != nil {
			s.Enrolment = tags
		}
	}
	r, err := build.Open(s)
	if err != nil {
		return nil, err
	}
	return &rig{Rig: r, profile: p, table: r.Table}, nil
}
