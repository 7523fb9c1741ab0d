package daemon

import (
	"fmt"
	"os"
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

// buildRig opens the racks. A simulated profile lays out a simulated table whose own tags and
// load cells need no enrolment or calibration; real hardware reads both from the data
// directory (what a user makes lives there, never beside the program).
func buildRig(cfg Config, set tile.Set, dataDir string, clk clock.Clock, host func() (build.Host, error)) (*rig, error) {
	p, _, err := LoadProfile(cfg.Hardware)
	if err != nil {
		return nil, err
	}
	opts := build.Options{Clock: clk, Seed: cfg.Sim.Seed}
	if p.Simulated {
		t, err := simtable.New(p, simtable.Options{Seed: cfg.Sim.Seed, Set: set})
		if err != nil {
			return nil, err
		}
		n := cfg.Sim.Noise
		if err := t.SetNoise(simtable.Noise{TagDropout: n.TagDropout, BusError: n.BusError, GhostTag: n.GhostTag, WeightSpike: n.WeightSpike}); err != nil {
			return nil, err
		}
		opts.NoWait = true
		r, err := build.Build(p, t.Host(), t.Enrolment(), t.Calibrations(), opts)
		if err != nil {
			return nil, err
		}
		return &rig{Rig: r, profile: p, table: t}, nil
	}
	if p.Kind == config.KindSim {
		return nil, fmt.Errorf("hardware: %q is the fast simulation above the drivers, which the daemon does not play on: use sim-pn532", cfg.Hardware)
	}
	tags, cals, err := userData(p, set, dataDir)
	if err != nil {
		return nil, err
	}
	h, err := host()
	if err != nil {
		return nil, err
	}
	var en rack.Enrolment = noTags{}
	if tags != nil {
		en = tags
	}
	r, err := build.Build(p, h, en, cals, opts)
	if err != nil {
		return nil, err
	}
	return &rig{Rig: r, profile: p}, nil
}

// userData opens the tag enrolment and load-cell calibration: the profile's files, relative to
// the data directory unless absolute.
func userData(p *config.Profile, set tile.Set, dataDir string) (*enroll.Store, config.Calibrations, error) {
	at := func(name string) string { return config.InData(dataDir, name) }
	var tags *enroll.Store
	if p.Enrolment != "" {
		var err error
		if tags, err = enroll.Open(at(p.Enrolment), set); err != nil {
			return nil, nil, err
		}
	}
	cals := config.Calibrations{}
	if name := at(p.Calibration); name != "" {
		if _, err := os.Stat(name); err == nil {
			if cals, err = config.LoadCalibrations(name); err != nil {
				return nil, nil, err
			}
		}
	}
	return tags, cals, nil
}

// noTags is the enrolment of racks with no tags enrolled yet: every tag is unknown.
type noTags struct{}

func (noTags) Face(string) (tile.Face, bool) { return tile.NoFace, false }
