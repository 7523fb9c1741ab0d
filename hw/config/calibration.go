package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/siamesetable/siamesed/internal/userfile"

	"github.com/siamesetable/siamesed/internal/safefile"

	"github.com/siamesetable/siamesed/hw/loadcell"
	"github.com/siamesetable/siamesed/hw/rack"
	"gopkg.in/yaml.v3"
)

// Calibrations are the load cell calibrations of every rack zone: rack name -> zone -> values.
// They live in their own file (the profile's `calibration:`), written by `siamesed calibrate
// load`, so the hand-written profile and its comments are never rewritten by a program.
type Calibrations map[string]map[rack.Zone]loadcell.Calibration

// Get returns the calibration of a zone and whether there is one.
func (c Calibrations) Get(r string, z rack.Zone) (loadcell.Calibration, bool) {
	v, ok := c[r][z]
	return v, ok
}

// Set records the calibration of a zone.
func (c Calibrations) Set(r string, z rack.Zone, v loadcell.Calibration) {
	if c[r] == nil {
		c[r] = map[rack.Zone]loadcell.Calibration{}
	}
	c[r][z] = v
}

// LoadCalibrations reads a calibration file; a missing file is empty.
func LoadCalibrations(path string) (Calibrations, error) {
	c := Calibrations{}
	b, err := userfile.ReadFile(path, "a calibration", MaxFileBytes)
	if errors.Is(err, os.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	if err := yaml.Unmarshal(b, &c); err != nil {
		return nil, fmt.Errorf("config: %s: %w", path, err)
	}
	for r, zs := range c {
		for z := range zs {
			if !z.Valid() {
				return nil, fmt.Errorf("config: %s: rack %s: zone %q is not in or on", path, r, z)
			}
		}
	}
	return c, nil
}

// SaveCalibrations writes the file atomically.
func SaveCalibrations(path string, c Calibrations) error {
	b, err := yaml.Marshal(c)
	if err != nil {
		return fmt.Errorf("config: %w", err)
	}
	b = append([]byte("# Load cell calibration, written by `siamesed calibrate load`.\n"), b...)
	if err := safefile.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("config: saving calibration: %w", err)
	}
	return nil
}

// InData resolves a file the profile names (enrolment, calibration) in the data directory,
// unless it is absolute: what a user makes lives in the state directory, never beside the
// profile, which may sit in the repository or be built into the binary. The daemon and the
// hw tools both resolve through here, so they read and write the same files.
func InData(dataDir, name string) string {
	if name == "" || filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(dataDir, name)
}
