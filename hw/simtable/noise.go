package simtable

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/siamesetable/siamesed/hw/loadcell"
	"github.com/siamesetable/siamesed/hw/simhw"
)

// Noise is what goes wrong with the sensors, chances in [0,1] unless said otherwise. Each is
// drawn from the seeded stream of the reader, cell or bus it affects, so a run repeats exactly
// for the same seed and the same sequence of scans and moves. The YAML keys are the daemon's
// sim.noise keys (docs/daemon.md).
type Noise struct {
	// TagDropout: a tag in a reader's field does not answer one poll (InListPassiveTarget).
	TagDropout float64 `yaml:"tag_dropout"`
	// BusError: one I2C transaction fails (drawn per transaction; a 19-slot rack makes about 136
	// a scan). Half are an address NACK the chip never sees, half an I/O error after it did.
	BusError float64 `yaml:"bus_error"`
	// GhostTag: a phone or a bank card on the rack answers one poll of one reader, next to or
	// instead of a tile (its UID is not enrolled).
	GhostTag float64 `yaml:"ghost_tag"`
	// WeightSpike: one load-cell conversion is off by half a tile to a tile and a half (a knock
	// on the table).
	WeightSpike float64 `yaml:"weight_spike"`
	// WeakReaders is the share of readers that read worse than the rest (which ones is drawn
	// once per table from its seed: a reader mounted a little low, a weaker antenna); a tag in
	// a weak reader's field misses a poll with chance WeakDropout instead of TagDropout.
	WeakReaders float64 `yaml:"weak_readers"`
	WeakDropout float64 `yaml:"weak_dropout"`
	// HandBurst is the chance, per rack zone and scan, that a hand passes over the rack: two to
	// four adjacent readers read none of their tags for BurstLength (default 1s).
	HandBurst   float64       `yaml:"hand_burst"`
	BurstLength time.Duration `yaml:"burst_length"`
	// OffCentre is the chance that a tile is set down off its antenna: until it is lifted again
	// its tag answers only half the polls.
	OffCentre float64 `yaml:"off_centre"`
}

// DefaultBurstLength is how long a hand over the rack hides tags when BurstLength is not set.
const DefaultBurstLength = time.Second

// offCentreRead is the chance that a tile set off its antenna answers a poll.
const offCentreRead = 0.5

// pollTransactions is about how many I2C transactions one PN532 poll takes (mux select,
// command, ACK, status polls, response): what one draw of a bus error per poll stands for on
// the direct path.
const pollTransactions = 7

// Validate lists every value out of range, each named by its YAML key.
func (n Noise) Validate() []error {
	var errs []error
	for _, p := range []struct {
		name   string
		v, top float64
	}{
		{"tag_dropout", n.TagDropout, 0.5}, {"bus_error", n.BusError, 0.5}, {"ghost_tag", n.GhostTag, 0.5},
		{"weight_spike", n.WeightSpike, 0.5}, {"weak_readers", n.WeakReaders, 1}, {"weak_dropout", n.WeakDropout, 1},
		{"hand_burst", n.HandBurst, 0.5}, {"off_centre", n.OffCentre, 1},
	} {
		if !(p.v >= 0 && p.v <= p.top) {
			errs = append(errs, fmt.Errorf("%s: %g is outside 0 to %g (a chance)", p.name, p.v, p.top))
		}
	}
	if n.BurstLength < 0 || n.BurstLength > time.Minute {
		errs = append(errs, fmt.Errorf("burst_length: %v is outside 0 to 1m", n.BurstLength))
	}
	if n.WeakReaders > 0 && n.WeakDropout == 0 {
		errs = append(errs, fmt.Errorf("weak_dropout: 0 with weak_readers %g: a weak reader's tags miss polls with chance weak_dropout", n.WeakReaders))
	}
	return errs
}

// SetNoise changes the noise from the next transaction, poll or conversion on.
func (t *Table) SetNoise(n Noise) error {
	if errs := n.Validate(); len(errs) > 0 {
		return fmt.Errorf("simtable: noise: %w", errors.Join(errs...))
	}
	if n.BurstLength == 0 {
		n.BurstLength = DefaultBurstLength
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.noise = n
	return nil
}

// SetHand rests a hand over a rack (on) or lifts it: while it rests, its load cells weigh a
// pressing, trembling hand, so their weight never settles on a whole number of tiles.
func (t *Table) SetHand(rackName string, on bool) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	r, err := t.rack(rackName)
	if err != nil {
		return err
	}
	r.hand = on
	return nil
}

// SetSilent makes a reader stop answering (a PN532 whose firmware hung: it takes frames and
// never raises RDY) or answer again. reader is its name in health reports ("in-03@mux70.3") or
// the part before the @ ("in-03").
func (t *Table) SetSilent(rackName, reader string, on bool) error {
	sl, err := t.slot(rackName, reader)
	if err != nil {
		return err
	}
	if sl.kind == mfrcReader {
		return fmt.Errorf("simtable: %s/%s: only a PN532 goes silent", rackName, reader)
	}
	if sl.pn532 != nil {
		sl.pn532.SetSilent(on)
	}
	t.mu.Lock()
	sl.silent = on
	t.mu.Unlock()
	return nil
}

// SetWeak makes one reader read worse than the rest, as if mounted a little low: a tag in its
// field misses a poll with chance dropout (in [0,1)); 0 gives it back the table's noise. reader
// is named as for SetSilent.
func (t *Table) SetWeak(rackName, reader string, dropout float64) error {
	if !(dropout >= 0 && dropout < 1) {
		return fmt.Errorf("simtable: %s/%s: dropout %g is outside 0 to 1", rackName, reader, dropout)
	}
	sl, err := t.slot(rackName, reader)
	if err != nil {
		return err
	}
	t.mu.Lock()
	sl.dropout = dropout
	t.mu.Unlock()
	return nil
}

// SetUnplugged takes a reader off its bus (it no longer acknowledges its address: a bus error,
// not silence) or plugs it back.
func (t *Table) SetUnplugged(rackName, reader string, off bool) error {
	sl, err := t.slot(rackName, reader)
	if err != nil {
		return err
	}
	switch {
	case sl.pn532 != nil:
		sl.pn532.Unplug(off)
	case sl.mfrc != nil:
		sl.mfrc.Unplug(off)
	}
	t.mu.Lock()
	sl.unplugged = off
	t.mu.Unlock()
	return nil
}

func (t *Table) slot(rackName, reader string) (*slotState, error) {
	r, err := t.rack(rackName)
	if err != nil {
		return nil, err
	}
	for _, zs := range r.zones {
		for _, sl := range zs.slots {
			if sl.name != "" && (sl.name == reader || strings.HasPrefix(sl.name, reader+"@")) {
				return sl, nil
			}
		}
	}
	return nil, fmt.Errorf("%w: %s/%s", ErrNoSlot, rackName, reader)
}

// glitch draws what goes wrong with one I2C transaction of a bus.
func (t *Table) glitch(rng *rand.Rand) simhw.Glitch {
	t.mu.Lock()
	p := t.noise.BusError
	t.mu.Unlock()
	if p == 0 || rng.Float64() >= p {
		return simhw.NoGlitch
	}
	if rng.IntN(2) == 0 {
		return simhw.AddrNACK
	}
	return simhw.DataError
}

// field is a reader's RF field, as its emulated chip asks for it each poll.
func (t *Table) field(sl *slotState, rng *rand.Rand) func([]simhw.Tag) []simhw.Tag {
	var ids []int
	return func(dst []simhw.Tag) []simhw.Tag {
		t.mu.Lock()
		defer t.mu.Unlock()
		var g simhw.Tag
		ids, g = t.inField(sl, rng, ids[:0])
		for _, i := range ids {
			if i == ghostID {
				dst = append(dst, g)
			} else {
				dst = append(dst, t.tiles[i].tag)
			}
		}
		return dst
	}
}

// ghostID stands for the ghost among the tiles inField lists.
const ghostID = -1

// inField is what answers one poll of a reader, in the order it answers: the tiles (by index)
// its antenna reaches, less those that miss this poll (dropped, off centre, under a hand), and
// now and then a ghost (ghostID, the tag returned). The caller holds t.mu. Each kind of noise
// draws only when it is on, so a table without it repeats the draws of one that never had it.
func (t *Table) inField(sl *slotState, rng *rand.Rand, ids []int) ([]int, simhw.Tag) {
	n := &t.noise
	if n.HandBurst > 0 && sl.burst == 0 && rng.Float64() < n.HandBurst/float64(len(sl.zone.slots)) {
		t.burst(sl, rng)
	}
	drop := n.TagDropout
	switch {
	case sl.dropout > 0:
		drop = sl.dropout
	case sl.weak < n.WeakReaders:
		drop = n.WeakDropout
	}
	reach := sl.tiles
	if sl.inRange > 0 && len(reach) > sl.inRange {
		reach = reach[:sl.inRange]
	}
	if sl.burst > 0 {
		sl.burst--
		reach = nil
	}
	for _, i := range reach {
		tl := &t.tiles[i]
		if drop > 0 && rng.Float64() < drop || tl.off && rng.Float64() >= offCentreRead {
			continue
		}
		ids = append(ids, i)
	}
	var g simhw.Tag
	if n.GhostTag > 0 && rng.Float64() < n.GhostTag {
		g = ghost(rng)
		if rng.IntN(2) == 0 {
			ids = append(ids, ghostID)
		} else {
			ids = slices.Insert(ids, 0, ghostID)
		}
	}
	return ids, g
}

// burst has a hand pass over the rack from slot sl on: it and the next one to three slots of its
// zone read nothing of their tiles for BurstLength. The caller holds t.mu.
func (t *Table) burst(sl *slotState, rng *rand.Rand) {
	polls := max(1, int(t.noise.BurstLength/t.profile.Period))
	zs := sl.zone
	for i := sl.index; i < min(len(zs.slots), sl.index+2+rng.IntN(3)); i++ {
		zs.slots[i].burst = max(zs.slots[i].burst, polls)
	}
}

// ghost is a phone (random UID each time) or a bank card.
func ghost(rng *rand.Rand) simhw.Tag {
	if rng.IntN(3) == 0 {
		return simhw.BankCard([4]byte{0x5A, 0x13, 0xC4, 0x2E})
	}
	return simhw.Phone([3]byte{byte(rng.Uint32()), byte(rng.Uint32()), byte(rng.Uint32())})
}

// sample is a load cell's next conversion: the zone's tiles (each its own weight), a hand if one
// rests over the rack, a spike now and then, and the amplifier's noise, in counts through the
// cell's calibration.
func (t *Table) sample(zs *zoneState, cal loadcell.Calibration, rng *rand.Rand) func(simhw.Gain) (int32, bool) {
	const noiseGrams = 0.3 // one standard deviation of the amplifier's noise
	return func(g simhw.Gain) (int32, bool) {
		t.mu.Lock()
		grams := 0.0
		for _, sl := range zs.slots {
			for _, i := range sl.tiles {
				grams += t.tiles[i].grams
			}
		}
		grams += zs.extra
		hand, spike := zs.rack.hand, t.noise.WeightSpike
		t.mu.Unlock()
		if hand {
			grams += 60 + 250*rng.Float64()
		}
		if spike > 0 && rng.Float64() < spike {
			s := t.profile.TileGrams * (0.5 + rng.Float64())
			if rng.IntN(2) == 0 {
				s = -s
			}
			grams += s
		}
		grams += noiseGrams * rng.NormFloat64()
		raw := float64(cal.Offset) + grams*cal.CountsPerGram
		switch g {
		case simhw.GainA64:
			raw /= 2
		case simhw.GainB32: // channel B: nothing wired to it
			raw = 20 * rng.NormFloat64()
		}
		return int32(max(min(math.Round(raw), 1<<23-1), -1<<23)), true
	}
}
