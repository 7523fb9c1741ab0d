package track

import (
	"fmt"
	"strings"

	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/tile"
)

// expect is what the engine's state says one rack holds.
type expect struct {
	in, on tile.Counts
	// merged: a declared Mah Jongg or a tile called for one lies on the rack. Players lay the
	// hand down after declaring, so its tiles may stand in or lie on the rack for a while: the
	// rack is judged as a whole.
	merged bool
}

// expected lists every rack's expectation, [seat][rack-1].
func expected(s *game.State) [][2]expect {
	out := make([][2]expect, len(s.Seats))
	for i := range s.Seats {
		for r := range s.Seats[i].Racks {
			rk := &s.Seats[i].Racks[r]
			e := expect{in: rk.Concealed, merged: rk.MahJongg != nil}
			for _, x := range rk.Exposures {
				for _, f := range x.Tiles {
					e.on[f]++
				}
			}
			e.on[tile.Flower] += uint8(rk.Flowers) // flowers laid on the rack lie on it too
			if p := s.Pending; p != nil && p.Seat == i && p.Rack == r+1 && e.in[p.Tile] > 0 {
				// The tile called for Mah Jongg lies on the rack (NMJL tournament rule 10).
				e.in[p.Tile]--
				e.on[p.Tile]++
				e.merged = true
			}
			out[i][r] = e
		}
	}
	return out
}

// rackDiff is how one rack's readings differ from its expectation.
type rackDiff struct {
	plus, minus tile.Counts // tiles standing in the rack that should not, and the reverse
	onDelta     int         // tiles lying on the rack beyond those expected (negative: fewer)
	onExtra     tile.Counts // tags read on the rack that no expected exposure holds
	readable    bool        // the readings can be judged: in zone complete, on count known
	problem     string      // why not, for the players
	at          int64       // time of the newest reading (unix nanoseconds)
}

func (d *rackDiff) empty() bool {
	return d.plus.Total() == 0 && d.minus.Total() == 0 && d.onDelta == 0 && d.onExtra.Total() == 0
}

// diffRack compares one rack's readings with its expectation. A rack with no reading yet (the
// sensors have not reported) is taken to be as expected.
func diffRack(e expect, in, on *RackReading) rackDiff {
	d := rackDiff{readable: true}
	var probs []string
	if in != nil {
		d.at = in.At.UnixNano()
		if !in.Complete {
			d.readable = false
			probs = append(probs, orText(in.Problem, "the tiles standing in the rack are not all read"))
		}
	}
	if on != nil {
		d.at = max(d.at, on.At.UnixNano())
		if !on.CountKnown {
			d.readable = false
			probs = append(probs, orText(on.Problem, "the tiles lying on the rack cannot be counted"))
		}
	}
	d.problem = strings.Join(probs, "; ")
	if !d.readable {
		return d
	}
	obsIn := e.in
	if in != nil {
		obsIn = in.Tiles
	}
	onCount, onTags := e.on.Total(), tile.Counts{}
	if on != nil {
		onCount, onTags = on.Count, on.Tiles
	}
	if e.merged {
		// The hand's tiles may still stand in the rack: they count as lying on it. Concealed
		// tiles left beside a Mah Jongg (siamese 10) stand in it.
		all := e.in
		all.Add(&e.on)
		d.plus = subtract(obsIn, all)
		d.minus = subtract(e.in, obsIn)
		standingHand := subtract(subtract(obsIn, d.plus), e.in)
		d.onDelta = onCount + standingHand.Total() - e.on.Total()
		d.onExtra = subtract(onTags, all)
		return d
	}
	d.plus = subtract(obsIn, e.in)
	d.minus = subtract(e.in, obsIn)
	d.onDelta = onCount - e.on.Total()
	d.onExtra = subtract(onTags, e.on)
	return d
}

// subtract is a - b, counting only what a has more of.
func subtract(a, b tile.Counts) tile.Counts {
	var out tile.Counts
	for f := range a {
		if a[f] > b[f] {
			out[f] = a[f] - b[f]
		}
	}
	return out
}

func orText(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}

// rackName names a rack for people.
func rackName(seat, rack int) string { return fmt.Sprintf("seat %d rack %d", seat, rack) }
