package main

import (
	"flag"
	"path/filepath"

	"github.com/siamesetable/siamesed/internal/datadir"
)

// The camera's files in the data directory, where `siamesed run` looks for them by default
// (daemon.Defaults: vision.calibration and vision.enrolment). A test keeps the two in step.
const (
	defaultCalibration = "camera/calibration.yaml"
	defaultEnrolled    = "camera/enrolled"
)

// dataFlag adds --data: the data directory the camera's calibration and enrolment go to
// unless --out names another place, so a user's work never lands in the repository.
func dataFlag(fs *flag.FlagSet) *string {
	return fs.String("data", "", "data directory that --out defaults into (default: $"+datadir.Env+", else $XDG_STATE_HOME/siamesed or ~/.local/state/siamesed)")
}

// outPath is --out when given, else name inside the data directory (--data or the default).
func outPath(out, data, name string) (string, error) {
	if out != "" {
		return out, nil
	}
	if data == "" {
		var err error
		if data, err = datadir.Default(); err != nil {
			return "", err
		}
	}
	return filepath.Join(data, name), nil
}
