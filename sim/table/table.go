// Package table is the simulated table as one physical model: the racks (hw/simtable: every
// tile of the set its own tag, the readers and load cells laid out as a hardware profile says)
// and the discard area in front of the camera, with pluggable sensor outputs: the racks read
// through emulated chips by the real drivers, or directly (hw/build.Open makes either); the
// camera's reports made at once with a chance of an unknown face (DirectCamera), or frames of
// the area drawn and watched by the real vision pipeline in the camera worker (vision/simcam,
// behind any Camera). The virtual players (sim/players) move tiles on it; the daemon sees it
// only through those outputs.
package table

import (
	"slices"
	"sync"
	"time"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/hw/rack"
	"github.com/siamesetable/siamesed/hw/simtable"
)

// Camera is what the camera's output is shown of the discard area: a tile laid there or taken.
type Camera interface {
	Show(seen bool, f tile.Face, at time.Time)
}

// Sweeper is a camera output that also draws the sweeps between games and the tiles lying when
// the players sit down again (the worker's frames); a direct one has nothing to draw.
type Sweeper interface {
	Clear(at time.Time)
	Lay(fs []tile.Face, at time.Time)
}

// Table is the simulated table. It is safe for concurrent use.
type Table struct {
	racks  *simtable.Table
	camera Camera

	mu    sync.Mutex
	lying []tile.Face // the discard area, in the order laid
}

// New puts a discard area and a camera beside the racks. camera may be nil: nobody watches.
func New(racks *simtable.Table, camera Camera) *Table {
	return &Table{racks: racks, camera: camera}
}

// Racks is the racks' model (what the readers and load cells are given to read).
func (t *Table) Racks() *simtable.Table { return t.racks }

// Put places tiles from off the table on a rack zone (simtable.Table.Put).
func (t *Table) Put(rackName string, z rack.Zone, fs ...tile.Face) error {
	return t.racks.Put(rackName, z, fs...)
}

// Take lifts tiles off a rack zone (simtable.Table.Take).
func (t *Table) Take(rackName string, z rack.Zone, fs ...tile.Face) error {
	return t.racks.Take(rackName, z, fs...)
}

// Discard lays a tile in the discard area at at, in the camera's view.
func (t *Table) Discard(f tile.Face, at time.Time) {
	t.mu.Lock()
	t.lying = append(t.lying, f)
	t.mu.Unlock()
	if t.camera != nil {
		t.camera.Show(true, f, at)
	}
}

// TakeDiscard takes the tile of face f laid last from the discard area (a call).
func (t *Table) TakeDiscard(f tile.Face, at time.Time) {
	t.mu.Lock()
	for i, g := range slices.Backward(t.lying) {
		if g == f {
			t.lying = slices.Delete(t.lying, i, i+1)
			break
		}
	}
	t.mu.Unlock()
	if t.camera != nil {
		t.camera.Show(false, f, at)
	}
}

// Clear pushes every tile back to the wall: off the racks, out of the discard area.
func (t *Table) Clear(at time.Time) {
	t.racks.Clear()
	t.mu.Lock()
	t.lying = nil
	t.mu.Unlock()
	if sw, ok := t.camera.(Sweeper); ok {
		sw.Clear(at)
	}
}

// SitDown makes the table as the players find it sitting down again after a restart in a game:
// the racks empty (the players lay their tiles back), these discards lying in the area.
func (t *Table) SitDown(discards []tile.Face) {
	t.racks.Clear()
	t.mu.Lock()
	t.lying = slices.Clone(discards)
	t.mu.Unlock()
	if sw, ok := t.camera.(Sweeper); ok {
		sw.Lay(discards, time.Time{})
	}
}

// Lying lists the tiles in the discard area, in the order laid.
func (t *Table) Lying() []tile.Face {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clone(t.lying)
}
