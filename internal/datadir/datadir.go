// Package datadir says where siamesed keeps what users make (journal, history, calibrations)
// when no --data flag is given: never inside the repository, always in the user's state.
package datadir

import (
	"fmt"
	"os"
	"path/filepath"
)

// Env names the environment variable that sets the data directory (a systemd unit sets it to
// /var/lib/siamesed).
const Env = "SIAMESED_DATA"

// Default is the data directory when --data is not given: $SIAMESED_DATA, else
// $XDG_STATE_HOME/siamesed, else ~/.local/state/siamesed (the XDG base directory default). An
// XDG_STATE_HOME that is not absolute is ignored, as the XDG specification says.
func Default() (string, error) {
	if d := os.Getenv(Env); d != "" {
		return d, nil
	}
	if x := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(x) {
		return filepath.Join(x, "siamesed"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("datadir: no home directory to keep data in (%w): give --data DIR or set %s", err, Env)
	}
	return filepath.Join(home, ".local", "state", "siamesed"), nil
}
