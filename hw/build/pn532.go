package build

import (
	"errors"
	"fmt"

	"github.com/siamesetable/siamesed/hw/config"
	"github.com/siamesetable/siamesed/hw/mux"
	"github.com/siamesetable/siamesed/hw/pn532"
	"github.com/siamesetable/siamesed/hw/rack"
	"periph.io/x/conn/v3/physic"
)

func (r *Rig) buildPN532(h Host, en rack.Enrolment, cals config.Calibrations, o Options) error {
	buses := map[string]*busMuxes{}
	for _, cr := range r.Profile.Racks {
		bm := buses[cr.I2CBus]
		if bm == nil {
			b, err := h.OpenI2C(cr.I2CBus)
			if err != nil {
				return fmt.Errorf("build: rack %s: I2C bus %q: %w", cr.Name, cr.I2CBus, err)
			}
			r.closers = append(r.closers, b)
			if err := b.SetSpeed(physic.Frequency(r.Profile.I2CSpeedHz) * physic.Hertz); err != nil {
				// Some buses (the Pi's) fix the speed in the device tree; say so and go on.
				r.Warnings = append(r.Warnings, fmt.Sprintf("I2C bus %q: cannot set %d Hz: %v", cr.I2CBus, r.Profile.I2CSpeedHz, err))
			}
			bm = &busMuxes{group: mux.NewGroup(b), muxes: map[uint16]*mux.Mux{}}
			buses[cr.I2CBus] = bm
		}
		sc, err := r.cells(h, cr, cals)
		if err != nil {
			return err
		}
		sc.Enrolled = en
		counts := map[rack.Zone]int{}
		for _, rd := range cr.Readers {
			m := bm.muxes[rd.Mux]
			if m == nil {
				m, err = bm.group.Open(rd.Mux)
				if err != nil {
					return fmt.Errorf("build: rack %s: %w", cr.Name, err)
				}
				r.closers = append(r.closers, m)
				bm.muxes[rd.Mux] = m
			}
			for _, port := range rd.Ports {
				pb, err := m.Port(port)
				if err != nil {
					return fmt.Errorf("build: rack %s: %w", cr.Name, err)
				}
				dev, err := pn532.NewI2C(pb, rd.Addr, &pn532.Opts{NoWait: o.NoWait, Clock: o.Clock})
				if err != nil {
					return fmt.Errorf("build: rack %s: %w", cr.Name, err)
				}
				name := fmt.Sprintf("%s-%02d@mux%x.%d", rd.Zone, counts[rd.Zone], rd.Mux, port)
				counts[rd.Zone]++
				tr := &pn532Reader{dev: dev}
				info := ReaderInfo{Rack: cr.Name, Zone: string(rd.Zone), Slot: name}
				if fw, err := tr.init(); err != nil {
					info.Err = err
				} else {
					info.Firmware = fw.String()
				}
				r.Readers = append(r.Readers, info)
				sl := rack.Slot{Name: name, Zone: rd.Zone, Reader: tr}
				sc.Slots = append(sc.Slots, sl)
				r.TagReaders = append(r.TagReaders, Slot{Rack: cr.Name, Slot: sl})
			}
		}
		r.Sources = append(r.Sources, sc)
	}
	return nil
}

// busMuxes is one I2C bus's multiplexers: a Group keeps one channel of one of them connected.
type busMuxes struct {
	group *mux.Group
	muxes map[uint16]*mux.Mux
}

// pn532Reader adapts a PN532 to rack.TagReader. After any error it re-initialises the chip on
// the next scan, so a reader that was unplugged and comes back recovers by itself.
type pn532Reader struct {
	dev   *pn532.Dev
	ready bool
}

func (p *pn532Reader) init() (pn532.Firmware, error) {
	fw, err := p.dev.Init()
	p.ready = err == nil
	return fw, classify(err)
}

// ReadTags lists up to two tags: a second tag on one slot is reported, never merged.
func (p *pn532Reader) ReadTags() ([]string, error) {
	if !p.ready {
		if _, err := p.init(); err != nil {
			return nil, err
		}
	}
	ts, err := p.dev.Targets(2)
	if err != nil {
		p.ready = false
		return nil, classify(err)
	}
	uids := make([]string, len(ts))
	for i, t := range ts {
		uids[i] = t.UIDString()
	}
	return uids, nil
}

func classify(err error) error {
	if errors.Is(err, pn532.ErrNotReady) {
		return fmt.Errorf("%w: %w", rack.ErrSilent, err)
	}
	return err
}
