package simtable

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/siamesetable/siamesed/hw/loadcell"
	"github.com/siamesetable/siamesed/hw/simhw"
)

// Noise is what goes wrong, as probabilities in [0,1]. Each is drawn from the seeded stream of
// the reader, cell or bus it affects, so a run repeats exactly for the same seed and the same
// sequence of scans and moves.
type Noise struct {
	// TagDropout: a tag in a reader's field does not answer one poll (InListPassiveTarget).
	TagDropout float64
	// BusError: one I2C transaction fails (drawn per transaction; a 19-slot rack makes about 136
	// a scan). Half are an address NACK the chip never sees, half an I/O error after it did.
	BusError float64
	// GhostTag: a phone or a bank card on the rack answers one poll of one reader, next to or
	// instead of a tile (its UID is not enrolled).
	GhostTag float64
	// WeightSpike: one load-cell conversion is off by half a tile to a tile and a half (a knock
	// on the table).
	WeightSpike float64
}

// Validate checks that every probability is in [0,1].
func (n Noise) Validate() error {
	for _, p := range []struct {
		name string
		v    float64
	}{{"tag dropout", n.TagDropout}, {"bus error", n.BusError}, {"ghost tag", n.GhostTag}, {"weight spike", n.WeightSpike}} {
		if !(p.v >= 0 && p.v <= 1) {
			return fmt.Errorf("simtable: %s probability %v is outside 0-1", p.name, p.v)
		}
	}
	return nil
}

// SetNoise changes the noise from the next transaction, poll or conversion on.
func (t *Table) SetNoise(n Noise) error {
	if err := n.Validate(); err != nil {
		return err
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
	if sl.pn532 == nil {
		return fmt.Errorf("simtable: %s/%s: only a PN532 goes silent", rackName, reader)
	}
	sl.pn532.SetSilent(on)
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

// field is a reader's RF field: the tags of the tiles its antenna reaches, less those that drop
// out of this poll, and now and then a ghost.
func (t *Table) field(sl *slotState, rng *rand.Rand) func([]simhw.Tag) []simhw.Tag {
	return func(dst []simhw.Tag) []simhw.Tag {
		t.mu.Lock()
		n := t.noise
		reach := sl.tiles
		if sl.inRange > 0 && len(reach) > sl.inRange {
			reach = reach[:sl.inRange]
		}
		for _, i := range reach {
			if n.TagDropout == 0 || rng.Float64() >= n.TagDropout {
				dst = append(dst, t.tiles[i].tag)
			}
		}
		t.mu.Unlock()
		if n.GhostTag > 0 && rng.Float64() < n.GhostTag {
			g := ghost(rng)
			if rng.IntN(2) == 0 {
				dst = append(dst, g)
			} else {
				dst = append([]simhw.Tag{g}, dst...)
			}
		}
		return dst
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
