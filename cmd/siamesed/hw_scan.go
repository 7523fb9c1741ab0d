package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/siamesetable/siamesed/hw/build"
	"github.com/siamesetable/siamesed/hw/rack"
)

func init() {
	register("hw scan", "show what each rack zone sees now and each reader's health", runHWScan)
}

func runHWScan(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, profile, data := hwFlags("hw scan", stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	wait := fs.Duration("for", 0, "how long to scan (default: twice the settle window)")
	record := fs.String("record", "", "write every I2C transaction to this JSON file (for i2ctest.Playback tests)")
	seed := fs.Uint64("sim-seed", 1, "simulated profile: seed of the table's tags and of the tiles dealt")
	deal := fs.Bool("sim-deal", true, "simulated profile: deal a hand to every rack and lay a kong on the first")
	if err := hwParseFlags(fs, args); err != nil {
		return err
	}
	setup, err := hwOpenSetup(*profile, *data, "american")
	if err != nil {
		return err
	}
	setup.simSeed = *seed
	var rec *hwRecorder
	if *record != "" {
		setup.wrap = func(h build.Host) build.Host {
			rec = &hwRecorder{Host: h}
			return rec
		}
	}
	rig, err := setup.rig()
	if err != nil {
		return err
	}
	defer rig.Close()
	if setup.table != nil && setup.profile.Simulated && *deal {
		if err := hwDealDemo(setup.table, *seed); err != nil {
			return err
		}
	}
	p := setup.profile
	if *wait <= 0 {
		*wait = 2*p.Settle + p.Period
	}
	m := rig.Monitor(hwClock)
	latest := map[rack.Key]rack.Snapshot{}
	end := hwClock.Now().Add(*wait)
	var cycles []time.Duration
	for {
		start := hwClock.Now()
		for _, s := range m.Step(ctx) {
			latest[rack.Key{Rack: s.Rack, Zone: s.Zone}] = s
		}
		cycles = append(cycles, hwClock.Now().Sub(start))
		if !hwClock.Now().Before(end) {
			break
		}
		t, c := hwClock.NewTimer(p.Period)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-c:
		}
	}
	report := hwScanReport{Profile: setup.path, Kind: p.Kind, Health: m.Health(), Scans: len(cycles), Warnings: rig.Warnings}
	for _, c := range cycles {
		report.CycleMean += c / time.Duration(len(cycles))
		report.CycleMax = max(report.CycleMax, c)
	}
	if rec != nil {
		if err := rec.save(*record); err != nil {
			return err
		}
	}
	for _, r := range p.Racks {
		for _, z := range rack.Zones {
			z := hwZoneReport{Rack: r.Name, Zone: z}
			if s, ok := latest[rack.Key{Rack: r.Name, Zone: z.Zone}]; ok {
				z.Snapshot = &s
			}
			report.Zones = append(report.Zones, z)
		}
	}
	for _, ri := range rig.Readers {
		rr := hwReaderReport{Rack: ri.Rack, Zone: ri.Zone, Slot: ri.Slot, Firmware: ri.Firmware, OK: ri.Err == nil}
		if ri.Err != nil {
			rr.Error = ri.Err.Error()
		}
		report.Readers = append(report.Readers, rr)
	}
	if *asJSON {
		e := json.NewEncoder(stdout)
		e.SetIndent("", "  ")
		return e.Encode(report)
	}
	report.print(stdout, *wait)
	return nil
}

type hwScanReport struct {
	Profile string           `json:"profile"`
	Kind    string           `json:"kind"`
	Zones   []hwZoneReport   `json:"zones"`
	Readers []hwReaderReport `json:"readers"`
	Health  []rack.Health    `json:"health"`
	// Scans is how many scan cycles ran; CycleMean and CycleMax their measured duration (all
	// racks, wall clock): on real hardware, the rack scan time.
	Warnings  []string      `json:"warnings,omitempty"`
	Scans     int           `json:"scans"`
	CycleMean time.Duration `json:"cycle_mean_ns"`
	CycleMax  time.Duration `json:"cycle_max_ns"`
}

type hwZoneReport struct {
	Rack     string         `json:"rack"`
	Zone     rack.Zone      `json:"zone"`
	Snapshot *rack.Snapshot `json:"snapshot"` // nil: never settled during the scan
}

type hwReaderReport struct {
	Rack     string `json:"rack"`
	Zone     string `json:"zone"`
	Slot     string `json:"slot"`
	Firmware string `json:"firmware,omitempty"`
	OK       bool   `json:"ok"`
	Error    string `json:"error,omitempty"`
}

func (r *hwScanReport) print(w io.Writer, d time.Duration) {
	fmt.Fprintf(w, "profile %s (%s), scanned for %v: %d scan cycles, mean %v, max %v\n\nzones:\n",
		r.Profile, r.Kind, d, r.Scans, r.CycleMean.Round(time.Microsecond), r.CycleMax.Round(time.Microsecond))
	for _, z := range r.Zones {
		if z.Snapshot == nil {
			fmt.Fprintf(w, "  %s/%s  not settled\n", z.Rack, z.Zone)
			continue
		}
		fmt.Fprintf(w, "  %s\n", z.Snapshot)
	}
	if len(r.Readers) > 0 {
		fmt.Fprintln(w, "\nreaders:")
		for _, rr := range r.Readers {
			state := "ok " + rr.Firmware
			if !rr.OK {
				state = "FAULT " + rr.Error
			}
			fmt.Fprintf(w, "  %s/%s %s: %s\n", rr.Rack, rr.Zone, rr.Slot, state)
		}
	}
	for _, warn := range r.Warnings {
		fmt.Fprintf(w, "warning: %s\n", warn)
	}
	fmt.Fprintln(w, "\nhealth:")
	for _, h := range r.Health {
		if !h.Degraded {
			fmt.Fprintf(w, "  %s/%s ok\n", h.Rack, h.Zone)
		} else {
			fmt.Fprintf(w, "  %s/%s DEGRADED\n", h.Rack, h.Zone)
		}
		for _, f := range h.Faults {
			fmt.Fprintf(w, "    %s\n", f)
		}
		for _, rd := range h.Readers {
			if rd.Failing {
				fmt.Fprintf(w, "    reader %s failing: read rate %.0f%% over %d tag polls\n", rd.Reader, 100*rd.ReadRate, rd.Polls)
			}
		}
	}
}
