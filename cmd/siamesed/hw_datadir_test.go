package main

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// treeSum lists every file under dir with its content hash: a repository tree that a command
// must leave alone.
func treeSum(t *testing.T, dir string) map[string]string {
	t.Helper()
	sums := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		h := sha256.Sum256(b)
		sums[p] = hex.EncodeToString(h[:])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return sums
}

// TestToolsWriteOnlyTheDataDirectory: enroll tags and calibrate load, given the repository's own
// profiles by path, write what the user made (enrolled tags, calibrations) into the data
// directory (--data, else $SIAMESED_DATA) and never beside the profile in configs/, where it
// used to land and then broke the test suite.
func TestToolsWriteOnlyTheDataDirectory(t *testing.T) {
	useStepClock(t)
	before := treeSum(t, "../../configs")
	t.Cleanup(func() {
		after := treeSum(t, "../../configs")
		for p, sum := range after {
			if before[p] != sum {
				t.Errorf("%s was written by a tool: user data belongs in the data directory", p)
				if before[p] == "" {
					os.Remove(p) // leave the repository as it was for the next test run
				}
			}
		}
	})

	flagData := t.TempDir()
	code, out, errs := hwRun(t, "enroll", "tags", "--profile", "../../configs/hw/sim.yaml", "--data", flagData, "--limit", "3")
	if code != 0 || !strings.Contains(out, filepath.Join(flagData, "tags.yaml")) {
		t.Fatalf("enroll tags --data: exit %d %s:\n%s", code, errs, out)
	}
	if _, err := os.Stat(filepath.Join(flagData, "tags.yaml")); err != nil {
		t.Errorf("enroll tags --data wrote no tags.yaml there: %v", err)
	}

	envData := t.TempDir()
	t.Setenv("SIAMESED_DATA", envData)
	code, _, errs = hwRun(t, "enroll", "tags", "--profile", "../../configs/hw/sim.yaml", "--limit", "2")
	if code != 0 {
		t.Fatalf("enroll tags with $SIAMESED_DATA: exit %d %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(envData, "tags.yaml")); err != nil {
		t.Errorf("enroll tags with $SIAMESED_DATA wrote no tags.yaml there: %v", err)
	}

	fakeCells(t, "../../configs/hw/loadcell-rack.yaml")
	code, out, errs = hwRun(t, "calibrate", "load", "--profile", "../../configs/hw/loadcell-rack.yaml")
	if code != 0 || !strings.Contains(out, "saved to "+filepath.Join(envData, "calibration.yaml")) {
		t.Fatalf("calibrate load: exit %d %s:\n%s", code, errs, out)
	}
}
