// Package rack turns what a rack's readers and load cells report into settled RackSnapshots, one
// per rack zone, and health reports naming rack, zone and reader. Only settled snapshots leave
// the package; a tile is only ever reported from an enrolled tag, never guessed from weight.
package rack

import (
	"fmt"
	"time"

	"github.com/siamesetable/siamesed/engine/tile"
)

// Zone is where tiles sit on a rack: concealed tiles IN the rack, exposures ON it.
type Zone string

// The two zones of every rack.
const (
	In Zone = "in"
	On Zone = "on"
)

// Zones lists the zones in report order.
var Zones = []Zone{In, On}

// Valid reports whether z is a known zone.
func (z Zone) Valid() bool { return z == In || z == On }

// Key names one rack zone.
type Key struct {
	Rack string
	Zone Zone
}

func (k Key) String() string { return k.Rack + "/" + string(k.Zone) }

// Quality says how far a snapshot can be trusted.
type Quality string

// Qualities, best first.
const (
	// OK: tags and weight (where fitted) agree, no reader faults.
	OK Quality = "ok"
	// WeightOnly: the zone has load cells and no readers; Count is right, Tiles is empty.
	WeightOnly Quality = "weight_only"
	// Disagree: the weight counts a different number of tiles than the tags name.
	Disagree Quality = "disagree"
	// Degraded: a reader or load cell failed; Tiles holds only what working readers saw.
	Degraded Quality = "degraded"
)

// Snapshot (the RackSnapshot of the design) is the settled content of one rack zone. It is what
// engine/track consumes: Tiles are faces read from enrolled tags only; Count is the best tile
// count (weight when the zone is weighed and the weight is unambiguous, else the tag count).
type Snapshot struct {
	Seq uint64    `json:"seq"`
	At  time.Time `json:"at"`
	// Since is when the zone first read this way: the time its tiles changed, which a tag
	// flapping for a while may have kept from settling until At.
	Since       time.Time   `json:"since"`
	Rack        string      `json:"rack"`
	Zone        Zone        `json:"zone"`
	Tiles       []tile.Face `json:"tiles"`
	Count       int         `json:"count"`
	TagCount    int         `json:"tag_count"`
	WeightCount int         `json:"weight_count"` // -1 when the zone has no load cell
	Quality     Quality     `json:"quality"`
	Faults      []Fault     `json:"faults,omitempty"`
	// Left and Came date the tiles gone from and new in the zone since its last snapshot, by
	// the first consistent reading that showed each (absent when none did before this one).
	Left []Dated `json:"left,omitempty"`
	Came []Dated `json:"came,omitempty"`
	// Confidence is the chance that the tags named are exactly the tags in the readers' reach:
	// the product, over every tag still in doubt, of the chance it is judged rightly (a tag
	// present but missed for a few polls may have left; a new tag read only a few times may be
	// a ghost). Undecided lists the faces of the tags in real doubt (a chance of 1% or more of
	// being judged wrongly); Sure is Confidence of 0.99 or more.
	Confidence float64     `json:"confidence"`
	Undecided  []tile.Face `json:"undecided,omitempty"`
	Sure       bool        `json:"sure"`
}

// Dated is a face and when a reading showed it move.
type Dated struct {
	Face tile.Face `json:"face"`
	At   time.Time `json:"at"`
}

// Counts returns Tiles as tile.Counts.
func (s Snapshot) Counts() tile.Counts {
	c, _ := tile.CountsOf(s.Tiles)
	return c
}

func (s Snapshot) String() string {
	w := "-"
	if s.WeightCount >= 0 {
		w = fmt.Sprint(s.WeightCount)
	}
	return fmt.Sprintf("%s/%s count=%d tags=%d weight=%s %s [%s]", s.Rack, s.Zone, s.Count, s.TagCount, w, s.Quality, tile.Format(s.Tiles))
}

// FaultKind is the class of a fault.
type FaultKind string

// Fault kinds.
const (
	BusError       FaultKind = "bus_error"
	Silent         FaultKind = "silent_reader"
	Unenrolled     FaultKind = "unenrolled_tag"
	WeightMismatch FaultKind = "weight_mismatch"
	WeightUnsure   FaultKind = "weight_unsure"
	LoadCellError  FaultKind = "load_cell_error"
)

// Fault is one problem, named by rack, zone and reader (or load cell).
type Fault struct {
	Rack   string    `json:"rack"`
	Zone   Zone      `json:"zone"`
	Reader string    `json:"reader"`
	Kind   FaultKind `json:"kind"`
	Detail string    `json:"detail,omitempty"`
}

func (f Fault) String() string {
	s := fmt.Sprintf("%s/%s %s: %s", f.Rack, f.Zone, f.Reader, f.Kind)
	if f.Detail != "" {
		s += ": " + f.Detail
	}
	return s
}

// Observation is one scan of one zone, before its tags are judged.
type Observation struct {
	Rack string
	Zone Zone
	// Tagged: the zone has RFID readers. Tiles counts the faces of the enrolled tags read.
	Tagged bool
	Tiles  tile.Counts
	// Readers are the zone's readers in slot order, each with whether it answered; Tags are
	// the tags they read (a tag two readers read is listed twice).
	Readers []ReaderRead
	Tags    []TagRead
	// Weighed: the zone has a load cell and it answered.
	Weighed     bool
	WeightTiles int
	WeightSure  bool
	WeightGrams float64 // the reading the count was made from (the set-up page shows it)
	HasCell     bool
	// Faults are this scan's problems, for the health report (a tag missed for one poll is no
	// fault; a reader that failed this poll is).
	Faults []Fault
}

// ReaderRead is one reader's poll: Fault is empty when it answered (with tags or none).
type ReaderRead struct {
	Name   string
	Fault  FaultKind
	Detail string
}

// TagRead is one tag a reader read: Reader indexes Observation.Readers; Face is tile.NoFace
// for a tag nobody enrolled (a phone, a bank card).
type TagRead struct {
	UID    string
	Face   tile.Face
	Reader int
}

// Key returns the rack zone observed.
func (o *Observation) Key() Key { return Key{o.Rack, o.Zone} }
