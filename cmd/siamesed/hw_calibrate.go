package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/siamesetable/siamesed/hw/config"
	"github.com/siamesetable/siamesed/hw/rack"
)

// hwStdin is where calibrate load reads the operator's Enter presses; tests replace it.
var hwStdin io.Reader = os.Stdin

func init() {
	register("calibrate load", "tare and known-weight calibration of each zone's load cell", runCalibrateLoad)
}

func runCalibrateLoad(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, profile, data := hwFlags("calibrate load", stderr)
	grams := fs.Float64("grams", 100, "the known weight used for calibration, in grams")
	only := fs.String("zone", "", "calibrate only this rack/zone (e.g. p1a/in)")
	if err := hwParseFlags(fs, args); err != nil {
		return err
	}
	setup, err := hwOpenSetup(*profile, *data, "american")
	if err != nil {
		return err
	}
	if err := setup.hwRefuseSimulated("calibrates its load cells"); err != nil {
		return err
	}
	if setup.profile.Kind == config.KindSim {
		return fmt.Errorf("%s is simulated: there are no load cells to calibrate", *profile)
	}
	if setup.calPath == "" {
		return fmt.Errorf("%s names no calibration file", *profile)
	}
	rig, err := setup.rig()
	if err != nil {
		return err
	}
	defer rig.Close()
	keys := make([]rack.Key, 0, len(rig.Cells))
	for k := range rig.Cells {
		if *only == "" || k.String() == *only {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return fmt.Errorf("%w: no load cell %q in %s", errUsage, *only, *profile)
	}
	slices.SortFunc(keys, func(a, b rack.Key) int { return strings.Compare(a.String(), b.String()) })
	in := bufio.NewScanner(hwStdin)
	wait := func(prompt string) error {
		fmt.Fprint(stdout, prompt)
		if !in.Scan() {
			if err := in.Err(); err != nil {
				return err
			}
			return fmt.Errorf("stopped: end of input")
		}
		return ctx.Err()
	}
	for _, k := range keys {
		cell := rig.Cells[k]
		if err := wait(fmt.Sprintf("%s: clear the zone, then press Enter ", k)); err != nil {
			return err
		}
		if err := cell.Tare(); err != nil {
			return fmt.Errorf("%s: tare: %w", k, err)
		}
		if err := wait(fmt.Sprintf("%s: put %g g on the zone, then press Enter ", k, *grams)); err != nil {
			return err
		}
		if err := cell.Calibrate(*grams); err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
		cal := cell.Calibration()
		setup.cals.Set(k.Rack, k.Zone, cal)
		if err := config.SaveCalibrations(setup.calPath, setup.cals); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: offset %d, %.2f counts/g, saved to %s\n", k, cal.Offset, cal.CountsPerGram, setup.calPath)
	}
	return nil
}
