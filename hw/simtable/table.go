// Package simtable is a simulated Mah Jongg table under the real rack code: every physical tile
// of the set has its own NTAG sticker, the racks are laid out as a hardware profile says (slots,
// exposure positions, load cells). Players (people, or the virtual players of sim/players) Put
// and Take tiles. Its sensors have two outputs: the chips under the racks are hw/simhw's
// emulators, read through the table's Host by the real PN532, PCA9548 and HX711 drivers
// (build.Build); or Sources reads the table directly, without chips or drivers (kind sim
// profiles, and soaks). build.Open builds either.
//
// What the hardware can read is what the table shows it: a tile standing in an "in" slot is in
// its reader's field; on an "on" position only the two tiles nearest the antenna are (so a kong
// shows two tags while its load cell weighs four); a PN532 lists at most two tags.
//
// Noise (dropped tags, weak readers, hands passing over a rack, tiles off centre, bus errors,
// ghost tags, weight spikes, a hand resting on a rack, a silent or unplugged reader) is seeded
// and repeatable.
package simtable

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/hw/config"
	"github.com/siamesetable/siamesed/hw/rack"
	"github.com/siamesetable/siamesed/hw/simhw"
)

// Errors for errors.Is.
var (
	ErrNoRack   = errors.New("simtable: no such rack")
	ErrNoTile   = errors.New("simtable: no such tile left off the racks")
	ErrNotThere = errors.New("simtable: tile not in that zone")
	ErrNoSlot   = errors.New("simtable: no such reader")
)

// Options configure a table; zero fields take the defaults.
type Options struct {
	// Seed makes the tags, calibrations and noise repeatable.
	Seed uint64
	// Set is the tile set on the table (default American, 152 tiles).
	Set tile.Set
	// Busy is how many status polls each emulated PN532 answers "not ready" before a response
	// (default 1, so the driver's polling runs; -1 for none).
	Busy int
	// GramsSpread is how far one tile's weight strays from the profile's tile_grams, as a
	// fraction (default 0.015: ±1.5 %).
	GramsSpread float64
}

// Table is the simulated table. It is safe for concurrent use: players move tiles while the
// rack monitor scans.
type Table struct {
	profile *config.Profile
	log     *simhw.Log
	tiles   []physTile
	byFace  [tile.NumFaces][]int
	enrol   Enrolment
	cals    config.Calibrations

	mu      sync.Mutex // guards where, the tiles' placing, the zones' slots, noise and hands
	where   []place
	racks   []*rackState
	noise   Noise
	placing *rand.Rand // draws which tiles are set down off centre

	buses map[string]*simhw.Bus
	pins  map[string]*pinRef
	spis  map[string]*spiReader
}

// physTile is one tile of the set.
type physTile struct {
	face  tile.Face
	tag   simhw.Tag
	uid   string
	grams float64
	off   bool // set down off its antenna (Noise.OffCentre)
}

// place is where a tile is: off the racks (zone nil), or in a slot of a zone.
type place struct {
	zone *zoneState
	slot int
}

// New lays out the racks of p and makes the tiles of the set, each with its own tag.
func New(p *config.Profile, o Options) (*Table, error) {
	if o.Set.Count.Total() == 0 {
		o.Set = tile.American()
	}
	if o.Busy == 0 {
		o.Busy = 1
	}
	o.Busy = max(o.Busy, 0)
	if o.GramsSpread == 0 {
		o.GramsSpread = 0.015
	}
	t := &Table{profile: p, log: &simhw.Log{}, enrol: Enrolment{}, cals: config.Calibrations{},
		buses: map[string]*simhw.Bus{}, pins: map[string]*pinRef{}, spis: map[string]*spiReader{}}
	t.placing = rand.New(rand.NewPCG(o.Seed, 0x0ff))
	rng := rand.New(rand.NewPCG(o.Seed, 0x7a61))
	t.makeTiles(rng, o)
	if err := t.layout(rng, o); err != nil {
		return nil, err
	}
	return t, nil
}

// makeTiles gives every tile of the set a unique 7-byte UID and a weight.
func (t *Table) makeTiles(rng *rand.Rand, o Options) {
	for f := tile.Face(0); f < tile.NumFaces; f++ {
		for range o.Set.Count[f] {
			var uid [7]byte
			for {
				for i := 1; i < 7; i++ {
					uid[i] = byte(rng.Uint32())
				}
				if uid[3] == 0x88 { // would read as a cascade tag at level 2 (ISO/IEC 14443-3)
					continue
				}
				tg := simhw.NTAG213(uid)
				s := simhw.UIDString(tg.UID)
				if _, dup := t.enrol[s]; dup {
					continue
				}
				g := t.profile.TileGrams * (1 + o.GramsSpread*(2*rng.Float64()-1))
				t.byFace[f] = append(t.byFace[f], len(t.tiles))
				t.tiles = append(t.tiles, physTile{face: f, tag: tg, uid: s, grams: g})
				t.enrol[s] = f
				break
			}
		}
	}
	t.where = make([]place, len(t.tiles))
}

// Enrolment is the table's tag enrolment: UID (as the drivers print it) to face.
type Enrolment map[string]tile.Face

// Face implements rack.Enrolment.
func (e Enrolment) Face(uid string) (tile.Face, bool) {
	f, ok := e[uid]
	return f, ok
}

var _ rack.Enrolment = Enrolment(nil)

// Enrolment returns the tags of every tile (do not modify it).
func (t *Table) Enrolment() Enrolment { return t.enrol }

// Calibrations returns each load cell's calibration, as `siamesed calibrate load` would have
// measured it on these emulated cells.
func (t *Table) Calibrations() config.Calibrations { return t.cals }

// Profile returns the profile the table was laid out from.
func (t *Table) Profile() *config.Profile { return t.profile }

// Violations returns the protocol violations any emulated chip saw, or nil: a driver bug.
func (t *Table) Violations() error { return t.log.Err() }

func (t *Table) rack(name string) (*rackState, error) {
	for _, r := range t.racks {
		if r.name == name {
			return r, nil
		}
	}
	return nil, fmt.Errorf("%w: %q", ErrNoRack, name)
}
