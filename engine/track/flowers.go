package track

import (
	"time"

	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/tile"
)

// Flower exchanges (rulesets with a flower wall, Wright-Patterson): a flower leaves a rack and
// is laid face up on one of the seat's racks, and its replacement from the flower wall comes
// to stand in a rack. The sensors show a tile more lying on a rack (read as a flower where a
// reader sees it), a flower gone from the racks and a new tile standing in one. A replacement
// that is itself a flower is laid in the same go, so a chain of exchanges shows several
// flowers laid, fewer gone from the racks, and one new tile standing for each flower gone. A
// flower picked in play and laid before its rack settled shows no flower gone: it was drawn.

// flowerExchanges explains flowers newly lying on the seat's racks as flower exchanges. Until
// every replacement stands in a rack (or was seen thrown) it plays nothing, but keeps the
// flowers laid and gone from the other matchers, so a flower is never taken for a discard.
func (t *Tracker) flowerExchanges(p *seatPicture, usedSeen []bool) []candidate {
	s := &t.state
	if !s.Rules.FlowerWall || s.WallLeft == 0 {
		return nil
	}
	var laid [2]int
	for r := range laid {
		others := p.onExtra[r]
		others[tile.Flower] = 0
		if p.onDelta[r] > 0 && others.Total() == 0 {
			laid[r] = p.onDelta[r]
		}
	}
	n := laid[0] + laid[1]
	if n == 0 {
		return nil
	}
	gone := int(p.minus[0][tile.Flower] + p.minus[1][tile.Flower])
	if gone > n {
		gone = n
	}
	drawn := 0
	if gone == 0 {
		// No flower left the racks: the seat picked one and laid it before its rack settled.
		if s.Turn != p.seat || s.Phase != game.PhaseDraw || s.Unseen[tile.Flower] == 0 {
			return nil
		}
		drawn = 1
	}
	chained := n - gone - drawn // replacements that were flowers, laid again
	if int(s.Unseen[tile.Flower]) < chained+drawn {
		return nil
	}
	into := 1 // where a tile that is laid at once was drawn: a rack that still plays
	if st := &s.Seats[p.seat]; !st.Racks[0].Live() && st.Racks[1].Live() {
		into = 2
	}
	// The replacements: first the flowers laid again (so a flower is always there to lay),
	// then the tiles standing newly in the racks.
	var repl []game.Action
	for i := 0; i < chained; i++ {
		repl = append(repl, game.Action{Tiles: []tile.Face{tile.Flower}, To: into})
	}
	plus := p.plus
	for r := 1; r <= 2; r++ {
		for _, f := range plus[r-1].Faces() {
			if len(repl) < n && s.Unseen[f] > 0 {
				plus[r-1][f]--
				repl = append(repl, game.Action{Tiles: []tile.Face{f}, To: r})
			}
		}
	}
	var out []candidate
	if len(repl) == n-1 {
		// The last replacement may have been thrown before its rack settled.
		if c, ok := t.thrownReplacement(p, into, usedSeen); ok {
			repl = append(repl, game.Action{Tiles: c.act.Tiles, To: into})
			out = append(out, c)
		}
	}
	if len(repl) < n {
		// A replacement is still on its way to a rack, or came from elsewhere (thrown before
		// its rack settled, its face unnamed): the flowers laid and gone are this exchange's
		// all the same, never a discard or a move; what stays unexplained is asked about.
		p.onDelta[0], p.onDelta[1] = p.onDelta[0]-laid[0], p.onDelta[1]-laid[1]
		p.onExtra[0][tile.Flower], p.onExtra[1][tile.Flower] = 0, 0
		takeFlowers(p, gone)
		return nil
	}
	first := t.readAt(p.seat, 1, On)
	if at := t.readAt(p.seat, 2, On); laid[0] == 0 || (laid[1] > 0 && at.Before(first)) {
		first = at
	}
	if drawn > 0 {
		out = append(out, candidate{act: game.Action{Seat: p.seat, Act: game.ActDraw, Tiles: []tile.Face{tile.Flower}, Rack: into}, seen: -1, taken: -1,
			at: first.Add(-time.Nanosecond)})
	}
	k := 0
	for r := 1; r <= 2; r++ {
		for i := 0; i < laid[r-1]; i++ {
			a := repl[k]
			k++
			a.Seat, a.Act, a.Rack = p.seat, game.ActFlower, r
			out = append(out, candidate{act: a, seen: -1, taken: -1, at: t.readAt(p.seat, r, On)})
		}
		p.onDelta[r-1] -= laid[r-1]
		p.onExtra[r-1][tile.Flower] = 0
	}
	p.plus = plus
	for _, c := range out {
		if c.seen >= 0 {
			usedSeen[c.seen] = true
		}
	}
	takeFlowers(p, gone)
	return out
}

// takeFlowers marks n flowers gone from the seat's racks as explained, rack 1 first.
func takeFlowers(p *seatPicture, n int) {
	for r := 0; r < 2 && n > 0; r++ {
		x := min(int(p.minus[r][tile.Flower]), n)
		p.minus[r][tile.Flower] -= uint8(x)
		n -= x
	}
}

// thrownReplacement: the seat to play took its replacement and threw it before its rack
// settled, so no rack shows it; the camera's confident reading of a discard no rack explains
// is the evidence, once the seat's racks have stayed the same for the grace period (as for a
// drawn tile thrown at once, drawAndThrow). It returns the discard, from rack into.
func (t *Tracker) thrownReplacement(p *seatPicture, into int, usedSeen []bool) (candidate, bool) {
	s := &t.state
	if s.Turn != p.seat || s.Phase == game.PhaseDraw || s.Phase == game.PhaseOver || t.seatMoving(p.seat) ||
		t.now.Sub(t.changed[p.seat]) < t.cfg.Grace {
		return candidate{}, false
	}
	for i, d := range t.seen {
		f := d.Face
		if usedSeen[i] || !d.Known || f == tile.Flower || s.Unseen[f] == 0 || t.now.Sub(d.At) < t.cfg.Grace ||
			p.minus[0][f]+p.minus[1][f] > 0 {
			continue // another's, or a tile gone from a rack: a plain discard
		}
		return candidate{act: game.Action{Seat: p.seat, Act: game.ActDiscard, Tiles: []tile.Face{f}, Rack: into}, seen: i, taken: -1, at: d.At}, true
	}
	return candidate{}, false
}
