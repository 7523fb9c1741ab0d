package setup

import (
	"fmt"
	"strings"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/hw/enroll"
	"github.com/siamesetable/siamesed/hw/rack"
)

// Racks is what the set-up page's Racks section asks of the racks: the daemon answers.
type Racks interface {
	// Live is every rack zone as it reads now (rack.Monitor.Live).
	Live() []rack.LiveZone
	// Face is the face the racks name a tag by.
	Face(uid string) (tile.Face, bool)
	// Readers lists every reader as "rack/reader", in the profile's order.
	Readers() []string
	// Reader is one of them, for the enrolment walk: read without touching the bus, which
	// the racks' own scans keep reading.
	Reader(name string) (rack.TagReader, error)
	// Tags is the tag enrolment the racks name tiles by.
	Tags() Tags
}

// Tags is the racks' tag enrolment: its file and walk, or why the page cannot walk it.
type Tags struct {
	File string
	Walk *enroll.Walk // nil: not walked on this table (Why says why)
	Why  string
}

// RacksCheck is the racks' line of "is the table ready?": every tag enrolled, no reader down,
// every load cell weighing.
func RacksCheck(r Racks) Check {
	return Check{Name: "Racks", Ready: func() (bool, string) {
		live := r.Live()
		if len(live) == 0 {
			return false, "not scanned yet"
		}
		var readers, down, cells, cellsDown int
		for _, z := range live {
			for _, rd := range z.Readers {
				readers++
				if rd.Down {
					down++
				}
			}
			if z.Weight != nil {
				cells++
				if z.Weight.Down {
					cellsDown++
				}
			}
		}
		var words []string
		ready := down == 0 && cellsDown == 0
		if t := r.Tags(); t.Walk != nil {
			st := t.Walk.State()
			words = append(words, fmt.Sprintf("%d of %d tags enrolled", st.Done, st.Total))
			ready = ready && st.Done == st.Total
		} else if t.Why != "" {
			words = append(words, t.Why)
		}
		words = append(words, fmt.Sprintf("%d readers, %d down", readers, down), fmt.Sprintf("%d load cells, %d down", cells, cellsDown))
		return ready, strings.Join(words, "; ")
	}}
}

// racksOut is GET /api/setup/racks: every zone live, and the enrolment.
type racksOut struct {
	Zones     []zoneOut    `json:"zones"`
	Readers   []string     `json:"readers"`
	Enrolment enrolmentOut `json:"enrolment"`
}

type zoneOut struct {
	Rack    string           `json:"rack"`
	Zone    rack.Zone        `json:"zone"`
	Readers []readerOut      `json:"readers"`
	Weight  *rack.LiveWeight `json:"weight,omitempty"`
}

type readerOut struct {
	rack.ReaderHealth
	Polls int      `json:"polls"` // what the read rate rests on (0: the prior's)
	Tiles []tagOut `json:"tiles"`
}

// tagOut is one tag in a reader's field: its face, or no face when nobody enrolled it.
type tagOut struct {
	UID  string `json:"uid"`
	Face string `json:"face,omitempty"`
}

type enrolmentOut struct {
	File string            `json:"file,omitempty"`
	Can  bool              `json:"can"`
	Why  string            `json:"why,omitempty"`
	Walk *enroll.WalkState `json:"walk,omitempty"`
}

// racksView is the racks as the page shows them.
func racksView(r Racks) racksOut {
	out := racksOut{Zones: []zoneOut{}, Readers: r.Readers()}
	for _, z := range r.Live() {
		zo := zoneOut{Rack: z.Rack, Zone: z.Zone, Weight: z.Weight, Readers: make([]readerOut, len(z.Readers))}
		for i, rd := range z.Readers {
			ro := readerOut{ReaderHealth: rd.ReaderHealth, Polls: rd.Polls, Tiles: make([]tagOut, len(rd.UIDs))}
			for j, u := range rd.UIDs {
				ro.Tiles[j].UID = u
				if f, ok := r.Face(u); ok {
					ro.Tiles[j].Face = f.String()
				}
			}
			zo.Readers[i] = ro
		}
		out.Zones = append(out.Zones, zo)
	}
	t := r.Tags()
	out.Enrolment = enrolmentOut{File: t.File, Can: t.Walk != nil, Why: t.Why}
	if t.Walk != nil {
		st := t.Walk.State()
		out.Enrolment.Walk = &st
	}
	return out
}
