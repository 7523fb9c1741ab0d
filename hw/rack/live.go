package rack

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
)

// LiveZone is what one rack zone reads now, for the set-up page: each reader with the tags
// judged present in its field and its read rate, and the load cell's latest reading. Unlike a
// Snapshot it is not settled: it shows tiles as they are set down.
type LiveZone struct {
	Rack    string       `json:"rack"`
	Zone    Zone         `json:"zone"`
	Readers []LiveReader `json:"readers"`
	// Weight is the load cell's; nil when the zone has none.
	Weight *LiveWeight `json:"weight,omitempty"`
}

// LiveReader is one reader: its health (read rate, tags, down, failing) and the UIDs of the
// tags judged present in its field, in the order they came.
type LiveReader struct {
	ReaderHealth
	// Polls is how many tag polls the read rate rests on (0: no tag was in its field yet,
	// and the rate is the prior's).
	Polls int      `json:"polls"`
	UIDs  []string `json:"uids"`
}

// LiveWeight is a load cell's latest reading and the count judged from its readings.
type LiveWeight struct {
	Grams float64 `json:"grams"` // the latest reading, to a tenth of a gram
	Sure  bool    `json:"sure"`  // the latest reading is near a whole number of tiles
	Tiles int     `json:"tiles"` // the count judged from the readings; -1 while none is
	Down  bool    `json:"down,omitempty"`
	Error string  `json:"error,omitempty"` // the latest failure, while it fails
}

// noteReading keeps the load cell's latest answer.
func (z *Presence) noteReading(o *Observation) {
	if !o.HasCell {
		return
	}
	if !o.Weighed {
		for _, f := range o.Faults {
			if f.Kind == LoadCellError {
				z.reading.Error = f.Detail
			}
		}
		return
	}
	z.reading = LiveWeight{Grams: math.Round(o.WeightGrams*10) / 10, Sure: o.WeightSure}
}

// Live is the zone as it reads now.
func (z *Presence) Live() ([]LiveReader, *LiveWeight) {
	hs := z.Readers()
	out := make([]LiveReader, len(hs))
	for i, h := range hs {
		out[i] = LiveReader{ReaderHealth: h, Polls: h.Polls, UIDs: []string{}}
	}
	for _, t := range z.tags {
		if t.present && t.reader < len(out) && !z.down(t.reader) {
			out[t.reader].UIDs = append(out[t.reader].UIDs, t.uid)
		}
	}
	if !z.hasCell {
		return out, nil
	}
	w := z.reading
	w.Tiles, w.Down = -1, z.weight.down()
	if z.weight.known && !w.Down {
		w.Tiles = z.weight.value
	}
	if !w.Down && z.weight.fails == 0 {
		w.Error = ""
	}
	return out, &w
}

// Live lists every zone scanned so far as it reads now, sorted by rack and zone.
func (m *Monitor) Live() []LiveZone {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]LiveZone, 0, len(m.zones))
	for _, k := range m.keys() {
		rs, w := m.zones[k].Live()
		out = append(out, LiveZone{Rack: k.Rack, Zone: k.Zone, Readers: rs, Weight: w})
	}
	return out
}

// ErrNoReader is TagsAt's answer for a reader the racks do not have.
var ErrNoReader = errors.New("rack: no such reader")

// TagsAt lists the tags judged present in one reader's field now; an error when the reader
// is down or unknown. It is a rack.TagReader's answer without touching the bus, which the
// monitor alone reads: the set-up page's enrolment reads through it while the racks are
// scanned.
func (m *Monitor) TagsAt(k Key, reader string) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	z := m.zones[k]
	if z == nil {
		return nil, fmt.Errorf("%w: %s %s (not scanned yet)", ErrNoReader, k, reader)
	}
	for i := range z.readers {
		r := &z.readers[i]
		if r.name != reader {
			continue
		}
		if z.down(i) {
			return nil, fmt.Errorf("rack: reader %s %s is down: %s: %s", k, reader, r.fault, r.detail)
		}
		var uids []string
		for _, t := range z.tags {
			if t.present && t.reader == i {
				uids = append(uids, t.uid)
			}
		}
		return uids, nil
	}
	return nil, fmt.Errorf("%w: %s %s", ErrNoReader, k, reader)
}

// keys are the zones scanned so far, by rack and zone.
func (m *Monitor) keys() []Key {
	ks := make([]Key, 0, len(m.zones))
	for k := range m.zones {
		ks = append(ks, k)
	}
	slices.SortFunc(ks, func(a, b Key) int {
		if c := strings.Compare(a.Rack, b.Rack); c != 0 {
			return c
		}
		return slices.Index(Zones, a.Zone) - slices.Index(Zones, b.Zone)
	})
	return ks
}

// Hold runs f between two scans, the sensors all f's: a load cell read for its calibration
// while nothing else reads it.
func (m *Monitor) Hold(f func() error) error {
	m.scan.Lock()
	defer m.scan.Unlock()
	return f()
}
