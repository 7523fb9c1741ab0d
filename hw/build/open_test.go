package build

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/hw/config"
	"github.com/siamesetable/siamesed/hw/loadcell"
	"github.com/siamesetable/siamesed/hw/rack"
	"github.com/siamesetable/siamesed/hw/simtable"
)

func load(t *testing.T, name string) *config.Profile {
	t.Helper()
	p, err := config.Load("../../configs/hw/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestOpenBuildsEveryRig: a simulated profile's table is read through its chips by the real
// drivers, or directly when asked; kind sim always directly; real hardware only on a host, and
// its absence is an error, not a simulated table.
func TestOpenBuildsEveryRig(t *testing.T) {
	wrapped := 0
	for _, tc := range []struct {
		name     string
		profile  string
		direct   bool
		firmware string
		wraps    int
	}{
		{"simulated, chips", "sim-pn532.yaml", false, "PN532 v1.6", 1},
		{"simulated, direct", "sim-pn532.yaml", true, "simulated", 0},
		{"kind sim", "sim.yaml", false, "simulated", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wrapped = 0
			r, err := Open(Setup{Profile: load(t, tc.profile), Wrap: func(h Host) Host { wrapped++; return h },
				Sim: Sim{Options: simtable.Options{Seed: 1}, Noise: simtable.Noise{TagDropout: 0.01}, Direct: tc.direct}})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if r.Table == nil || len(r.Sources) != 4 || len(r.Cells) != 8 || r.Readers[0].Firmware != tc.firmware || wrapped != tc.wraps {
				t.Fatalf("table %v, %d sources, %d cells, first reader %+v, host wrapped %d times", r.Table != nil, len(r.Sources), len(r.Cells), r.Readers[0], wrapped)
			}
			if err := r.Table.Put("p1a", rack.In, tile.Joker); err != nil {
				t.Fatal(err)
			}
			obs := r.Sources[0].Scan(t.Context())
			if obs[0].Tiles[tile.Joker] != 1 {
				t.Fatalf("the joker put on p1a is not read: %+v", obs[0].Tiles)
			}
			if m := r.Monitor(nil); m.Params.Delta != rack.DefaultDelta || m.Params.Settle != r.Profile.Settle {
				t.Fatalf("monitor params %+v", m.Params)
			}
		})
	}
	if _, err := Open(Setup{Profile: load(t, "sim-pn532.yaml"), Sim: Sim{Noise: simtable.Noise{TagDropout: 2}}}); err == nil {
		t.Error("noise of 2 accepted")
	}
	if _, err := Open(Setup{Profile: load(t, "pn532-rack.yaml")}); err == nil {
		t.Error("real racks built with no host")
	}
	boom := errors.New("no I2C here")
	if _, err := Open(Setup{Profile: load(t, "pn532-rack.yaml"), Host: func() (Host, error) { return nil, boom }}); !errors.Is(err, boom) {
		t.Errorf("the host's error: %v", err)
	}
}

// TestUserData: a profile's enrolment and calibration are read from the data directory (a
// file not made yet is empty), and a bad one is an error naming it.
func TestUserData(t *testing.T) {
	dir := t.TempDir()
	p := load(t, "pn532-rack.yaml")
	tags, cals, err := UserData(p, tile.American(), dir)
	if err != nil || tags == nil || len(cals) != 0 {
		t.Fatalf("nothing made yet: %v %v %v", tags, cals, err)
	}
	c := config.Calibrations{}
	c.Set("p1a", rack.In, loadcell.Calibration{Offset: 5, CountsPerGram: 400})
	if err := config.SaveCalibrations(filepath.Join(dir, p.Calibration), c); err != nil {
		t.Fatal(err)
	}
	if _, cals, err = UserData(p, tile.American(), dir); err != nil || len(cals) != 1 {
		t.Fatalf("calibrations %v, %v", cals, err)
	}
	if err := os.WriteFile(filepath.Join(dir, p.Enrolment), []byte("not: [yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := UserData(p, tile.American(), dir); err == nil {
		t.Error("a broken enrolment file accepted")
	}
}
