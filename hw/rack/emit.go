package rack

import (
	"fmt"
	"math"
	"time"

	"github.com/siamesetable/siamesed/engine/tile"
)

// departurePrior is the chance that a tag present leaves at a given poll, for a snapshot's
// Confidence: a tile moves every few seconds among some fifty on a table's racks, polled twenty
// times a second. Where the load cell weighs a tile less, a departure is as likely as not.
const departurePrior = 1e-3

// undecidedFrom is the chance of being judged wrongly from which a tag is listed undecided.
const undecidedFrom = 0.01

// changingFrom is the chance of being judged wrongly from which a tag makes its zone changing
// (Presence.Changing): more likely changed than as judged.
const changingFrom = 0.5

// snapshot builds the snapshot of the zone as judged now.
func (z *Presence) snapshot(o *Observation, now time.Time) Snapshot {
	v := z.cur
	s := Snapshot{Rack: o.Rack, Zone: o.Zone, Tiles: v.tiles.Faces(), WeightCount: -1, At: now, Since: z.curSince}
	if s.Tiles == nil {
		s.Tiles = []tile.Face{}
	}
	s.TagCount = len(s.Tiles)
	s.Count = s.TagCount
	if v.weighed {
		s.WeightCount, s.Count = v.weight, v.weight
	}
	s.Faults = z.faults(o)
	switch {
	case len(s.Faults) > 0:
		s.Quality = Degraded
	case !z.tagged && v.weighed:
		s.Quality = WeightOnly
	case v.weighed && z.tagged && v.weight != s.TagCount:
		s.Quality = Disagree
		s.Faults = []Fault{{o.Rack, o.Zone, "loadcell-" + string(o.Zone), WeightMismatch,
			fmt.Sprintf("weight says %d tiles, tags say %d", v.weight, s.TagCount)}}
	default:
		s.Quality = OK
	}
	s.Confidence, s.Undecided = z.confidence()
	s.Sure = s.Confidence >= 1-undecidedFrom
	z.seq++
	s.Seq = z.seq
	if z.emitted {
		s.Left, s.Came = z.dated()
	}
	z.last, z.emitted = v, true
	clear(z.snapped)
	for _, t := range z.tags {
		if t.present {
			z.snapped[t.uid] = true
		}
	}
	clear(z.left)
	return s
}

// faults names what the snapshot cannot vouch for: readers down, tags present that nobody
// enrolled (a phone lying on the rack), a load cell down.
func (z *Presence) faults(o *Observation) []Fault {
	var fs []Fault
	for i := range z.readers {
		if r := &z.readers[i]; z.down(i) {
			fs = append(fs, Fault{o.Rack, o.Zone, r.name, r.fault, r.detail})
		}
	}
	for _, t := range z.tags {
		if t.present && t.face == tile.NoFace && !z.down(t.reader) {
			fs = append(fs, Fault{o.Rack, o.Zone, z.readers[t.reader].name, Unenrolled, "tag " + t.uid})
		}
	}
	if z.hasCell && z.weight.down() {
		fs = append(fs, Fault{o.Rack, o.Zone, "loadcell-" + string(o.Zone), LoadCellError, z.weight.detail})
	}
	return fs
}

// confidence is the chance that every tag is judged rightly now, and the faces of the tags in
// real doubt (see doubt).
func (z *Presence) confidence() (float64, []tile.Face) {
	c := 1.0
	var undecided []tile.Face
	for _, t := range z.tags {
		d := z.doubt(t)
		c *= 1 - d
		if d >= undecidedFrom && t.face != tile.NoFace {
			undecided = append(undecided, t.face)
		}
	}
	return math.Round(c*1e4) / 1e4, undecided
}

// doubt is the chance that tag t is judged wrongly now. A tag present but missed m polls in a
// row left with chance π/(π+(1-π)(1-p)^m) (Bayes: π the chance it left at the first miss,
// departurePrior, or one half where the load cell weighs a tile less); a new tag not yet judged
// is a tile with chance odds/(1+odds). A tag on a reader that is down is not named, and the
// snapshot's fault says so; a tag nobody enrolled is no tile, and is never in doubt.
func (z *Presence) doubt(t *tagState) float64 {
	switch {
	case z.down(t.reader), t.face == tile.NoFace:
		return 0
	case !t.present:
		return t.odds / (1 + t.odds)
	case t.misses == 0:
		return 0
	}
	pi := departurePrior
	if z.hasCell && z.borneOut(t) {
		pi = 0.5
	}
	// A bold estimate of its read rate here (the cautious one decides departures).
	stay := (1 - pi) * math.Pow(1-z.boldRate(t), float64(t.misses))
	return pi / (pi + stay)
}

// leaving is a tag's face and when its run of misses began.
type leaving struct {
	face tile.Face
	at   time.Time
}

// dated lists, for each face a tag of which was there at the last snapshot and is gone, when
// the first such tag began its run of misses (left), and for each face a tag of which is there
// and was not then, when the first such tag was first read (came). A face held as often as
// before is listed when its tiles changed: one thrown and another of its face picked before
// the zone settled is a tile that came, and the tracker dates the pick by it.
func (z *Presence) dated() (left, came []Dated) {
	var gone, come [tile.NumFaces]time.Time
	for _, d := range z.left {
		if gone[d.face].IsZero() || d.at.Before(gone[d.face]) {
			gone[d.face] = d.at
		}
	}
	for _, t := range z.tags {
		if t.present && t.face != tile.NoFace && !z.down(t.reader) && !z.snapped[t.uid] && (come[t.face].IsZero() || t.first.Before(come[t.face])) {
			come[t.face] = t.first
		}
	}
	for f := range tile.NumFaces {
		if !gone[f].IsZero() {
			left = append(left, Dated{Face: tile.Face(f), At: gone[f]})
		}
		if !come[f].IsZero() {
			came = append(came, Dated{Face: tile.Face(f), At: come[f]})
		}
	}
	return left, came
}
