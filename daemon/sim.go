package daemon

import (
	"errors"
	"time"

	"github.com/siamesetable/siamesed/engine/card"
	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/track"
	"github.com/siamesetable/siamesed/hw/rack"
	"github.com/siamesetable/siamesed/sim/players"
	"github.com/siamesetable/siamesed/sim/table"
)

// seatPlayers seats the virtual players (sim/players) at the simulated table: its racks, under
// the rig's sensors, and its discard area, in front of the camera. They play; the daemon only
// reads the sensors.
func (d *daemon) seatPlayers(rules *game.Ruleset, c *card.Card, l layout) error {
	if d.cfg.Camera != "sim" && d.cfg.Camera != "direct" {
		return errors.New("daemon: virtual players need the simulated camera on the discards: camera: sim (or direct)")
	}
	t := table.New(d.rig.table, d.camera)
	if e, ok := d.camera.(*visionEyes); ok {
		e.mu.Lock()
		e.area = t.Lying // a worker started again is shown the tiles lying there
		e.mu.Unlock()
	}
	sc := d.cfg.Sim
	cfg := players.Config{Seed: sc.Seed, Games: sc.Games, Pace: sc.Pace.D(), Faults: sc.Faults, Overlap: sc.Noise.Overlap, Soak: sc.Fast}
	d.players = players.New(cfg, c, rules, l.racks, t)
	d.players.OnCheck = func(id string, err error) {
		if err != nil {
			d.log.Warn("simulated game tracked otherwise than played", "game", id, "err", err)
		}
	}
	d.players.OnAct = func(now time.Time, act string) {
		d.log.Debug("players: "+act, "table_time", now.Format("15:04:05.000"))
	}
	if d.table.resumed || d.table.Game().Seq > 0 {
		return d.players.SitDown(d.table)
	}
	return nil
}

// playersMayDeal says whether the virtual players may play on. Once they have dealt, always.
// Before, with sim.tags: enrol, they wait as people would: until the enrolment walked on the
// set-up page has ended with every tag enrolled (they would otherwise deal tiles the racks
// cannot name), and no tile lies on a rack any more (the last one walked, still to be lifted:
// dealt around, it would be read as one of a hand's).
func (d *daemon) playersMayDeal() bool {
	if d.players.Dealt() || d.rig.store == nil {
		return true
	}
	if d.racks != nil && d.racks.walk != nil && d.racks.walk.State().Running {
		return false
	}
	if done, total := d.rig.store.Progress(); done != total {
		return false
	}
	for _, r := range d.rig.table.Racks() {
		for _, z := range rack.Zones {
			if c, err := d.rig.table.Contents(r, z); err != nil || c.Total() > 0 {
				return false
			}
		}
	}
	return true
}

// simStats are the virtual players' figures so far (none without them).
func (d *daemon) simStats() players.Stats {
	if d.players == nil {
		return players.Stats{}
	}
	return d.players.Stats()
}

// Questions are the tracker's open questions (what the players see asked).
func (t *Table) Questions() []track.Question { return t.tracker.Questions() }

var _ players.Referee = (*Table)(nil)
