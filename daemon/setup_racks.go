package daemon

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/hw/config"
	"github.com/siamesetable/siamesed/hw/enroll"
	"github.com/siamesetable/siamesed/hw/loadcell"
	"github.com/siamesetable/siamesed/hw/rack"
	"github.com/siamesetable/siamesed/setup"
)

// The daemon's side of the set-up page's Racks section (setup.Racks): the monitor's live view
// of every reader and load cell, and the tag enrolment walked on one of the racks' own readers.
// The walk reads what the monitor judges in that reader's field (rack.Monitor.TagsAt) rather
// than the reader itself, whose bus the monitor keeps scanning: so the racks stay live on the
// page during the walk, and the walk sees a tile once it is surely there, not a stray read.

// setupRacks is setup.Racks.
type setupRacks struct {
	d    *daemon
	walk *enroll.Walk // nil: no enrolment walked here (why)
	why  string
	// held is each zone's latest snapshot while the walk runs, kept from the tracker (on the
	// table loop alone).
	held map[rack.Key]rack.Snapshot
}

// While the enrolment walk runs, the tracker does not follow the racks: a tile already
// enrolled set on the reader (a duplicate the walk refuses) would otherwise be read as a tile
// dealt to the rack, and begin a game. Each zone's latest snapshot is held, and handed to the
// table once the walk stops: the tracker then sees the racks as they are, in one step (empty
// again, as a rack is after the walk, is no move).

// hold keeps s from the table while the walk runs.
func (r *setupRacks) hold(s rack.Snapshot) bool {
	if r == nil || r.walk == nil || !r.walk.State().Running {
		return false
	}
	if r.held == nil {
		r.held = map[rack.Key]rack.Snapshot{}
	}
	r.held[rack.Key{Rack: s.Rack, Zone: s.Zone}] = s
	return true
}

// release hands the held snapshots to the table once the walk has stopped.
func (r *setupRacks) release(t *Table) error {
	if r == nil || len(r.held) == 0 || r.walk.State().Running {
		return nil
	}
	keys := make([]rack.Key, 0, len(r.held))
	for k := range r.held {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b rack.Key) int { return strings.Compare(a.String(), b.String()) })
	for _, k := range keys {
		s := r.held[k]
		delete(r.held, k)
		if err := t.Rack(s); err != nil {
			return err
		}
	}
	return nil
}

// newSetupRacks builds the Racks section's side, and hands a simulated table to the test
// hook. The walk stops with the daemon.
func (d *daemon) newSetupRacks() *setupRacks {
	r := &setupRacks{d: d}
	switch {
	case d.rig.store != nil:
		r.walk = enroll.NewWalk(d.rig.store, d.clk, d.rig.profile.Period)
		context.AfterFunc(d.ctx, r.walk.Stop)
	case d.rig.table != nil:
		r.why = "the simulated table's tags are its own, every one enrolled (sim.tags: enrol walks them here)"
	default:
		r.why = fmt.Sprintf("hardware %s names no enrolment file", d.cfg.Hardware)
	}
	if d.opt.SimTable != nil && d.rig.table != nil {
		d.opt.SimTable(d.rig.table)
	}
	return r
}

func (r *setupRacks) Live() []rack.LiveZone { return r.d.monitor.Live() }

// Face names a tag as the racks do; racks with no enrolment know none.
func (r *setupRacks) Face(uid string) (tile.Face, bool) {
	if r.d.rig.tags == nil {
		return tile.NoFace, false
	}
	return r.d.rig.tags.Face(uid)
}

func (r *setupRacks) Readers() []string {
	out := make([]string, len(r.d.rig.TagReaders))
	for i, s := range r.d.rig.TagReaders {
		out[i] = s.Rack + "/" + s.Name
	}
	return out
}

func (r *setupRacks) Reader(name string) (rack.TagReader, error) {
	for _, s := range r.d.rig.TagReaders {
		if s.Rack+"/"+s.Name == name {
			return judged{m: r.d.monitor, k: rack.Key{Rack: s.Rack, Zone: s.Zone}, reader: s.Name}, nil
		}
	}
	return nil, fmt.Errorf("daemon: no reader %q (the racks have %s)", name, strings.Join(r.Readers(), ", "))
}

func (r *setupRacks) Tags() setup.Tags {
	return setup.Tags{File: r.d.rig.tagFile, Walk: r.walk, Why: r.why}
}

// judged is a reader as the monitor judges its field.
type judged struct {
	m      *rack.Monitor
	k      rack.Key
	reader string
}

func (j judged) ReadTags() ([]string, error) { return j.m.TagsAt(j.k, j.reader) }

// ReadCell implements setup.Cells: n readings of a zone's load cell, taken between two scans
// of the racks (the monitor reads the cells otherwise).
func (r *setupRacks) ReadCell(zone string, n int) ([]int32, error) {
	cell, err := r.cell(zone)
	if err != nil {
		return nil, err
	}
	out := make([]int32, 0, n)
	err = r.d.monitor.Hold(func() error {
		for range n {
			v, err := cell.Raw()
			if err != nil {
				return err
			}
			out = append(out, v)
		}
		return nil
	})
	return out, err
}

// SaveCell implements setup.Cells: the calibration applies to the cell between two scans, and
// is saved to the profile's calibration file, which `siamesed calibrate load` writes too (a
// simulated table's: calibration.yaml in the data directory unless its profile names one).
func (r *setupRacks) SaveCell(zone string, cal loadcell.Calibration) (string, string, error) {
	cell, err := r.cell(zone)
	if err != nil {
		return "", "", err
	}
	rig := r.d.rig
	var file, why string
	err = r.d.monitor.Hold(func() error {
		switch {
		case rig.calFile == "":
			why = fmt.Sprintf("hardware %s names no calibration file", r.d.cfg.Hardware)
		default:
			k, _ := parseZone(zone)
			next := config.Calibrations{}
			for rk, zs := range rig.cals {
				for z, c := range zs {
					next.Set(rk, z, c)
				}
			}
			next.Set(k.Rack, k.Zone, cal)
			if err := config.SaveCalibrations(rig.calFile, next); err != nil {
				return err
			}
			rig.cals, file = next, rig.calFile
		}
		cell.SetCalibration(cal)
		return nil
	})
	return file, why, err
}

func (r *setupRacks) cell(zone string) (*loadcell.Cell, error) {
	k, ok := parseZone(zone)
	cell := r.d.rig.Cells[k]
	if !ok || cell == nil {
		return nil, fmt.Errorf("no load cell under %s", zone)
	}
	return cell, nil
}

// parseZone reads "rack/zone".
func parseZone(s string) (rack.Key, bool) {
	r, z, ok := strings.Cut(s, "/")
	k := rack.Key{Rack: r, Zone: rack.Zone(z)}
	return k, ok && k.Zone.Valid()
}
