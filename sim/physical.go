// Package sim plays a simulated table: virtual players who choose sensible acts (with the card's
// advisor) and, now and then on purpose, break a rule; and the physical handling of the tiles
// each act means (a tile into a rack, a discard onto the table, an exposure laid on a rack),
// which a simulated table's sensors then report. It is pure, like the engine: the daemon drives
// simulated racks and camera frames with it, and the tracker's tests drive fake readings.
package sim

import (
	"fmt"

	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/tile"
)

// Zone is where tiles sit on a rack.
type Zone int

// The zones of a rack, and the discard area.
const (
	In Zone = iota
	On
)

// Place is one rack zone.
type Place struct {
	Seat, Rack int
	Zone       Zone
}

// OpKind is one kind of physical handling.
type OpKind int

// What hands do at the table.
const (
	Put         OpKind = iota // tiles put into or onto a rack zone
	Take                      // tiles taken from a rack zone
	Discard                   // a tile laid in the discard area
	TakeDiscard               // the last discard taken from the discard area
	Say                       // a player's command (Mah Jongg, wall game, an act entered by hand)
)

// Op is one physical handling of tiles, or a player saying something.
type Op struct {
	Kind  OpKind
	Place Place
	Tiles []tile.Face
	// Command, for Say: "mahjong" with Rack (0: both), "wall_game", or "act" with Act (what
	// no sensor sees, such as a roll of the die, entered on the display or a phone).
	Command string
	Seat    int
	Rack    int
	Act     *game.Action
}

func (o Op) String() string {
	switch o.Kind {
	case Put:
		return fmt.Sprintf("put %s into seat %d rack %d %v", tile.Format(o.Tiles), o.Place.Seat, o.Place.Rack, o.Place.Zone)
	case Take:
		return fmt.Sprintf("take %s from seat %d rack %d %v", tile.Format(o.Tiles), o.Place.Seat, o.Place.Rack, o.Place.Zone)
	case Discard:
		return fmt.Sprintf("discard %s", tile.Format(o.Tiles))
	case TakeDiscard:
		return fmt.Sprintf("take the discard %s", tile.Format(o.Tiles))
	}
	return fmt.Sprintf("seat %d says %s (rack %d)", o.Seat, o.Command, o.Rack)
}

func (z Zone) String() string {
	if z == On {
		return "on"
	}
	return "in"
}

// Handle is what an act means at the table, given the state it is played in: the tiles moved
// and the words said, in the order hands do it.
func Handle(s *game.State, a game.Action) []Op {
	in := func(r int) Place { return Place{a.Seat, r, In} }
	on := func(r int) Place { return Place{a.Seat, r, On} }
	switch a.Act {
	case game.ActDeal:
		return []Op{{Kind: Put, Place: in(rackOr1(s, a)), Tiles: a.Tiles}}
	case game.ActDraw:
		return []Op{{Kind: Put, Place: in(rackOr1(s, a)), Tiles: a.Tiles}}
	case game.ActDiscard:
		from := holding(s, a.Seat, a.Tiles[0], rackOr1(s, a))
		return []Op{{Kind: Take, Place: in(from), Tiles: a.Tiles}, {Kind: Discard, Tiles: a.Tiles}}
	case game.ActCall:
		called := []tile.Face{s.Last.Tile}
		if a.For == "mahjong" {
			return []Op{{Kind: Say, Seat: a.Seat, Command: "mahjong", Rack: rackOrBoth(a)},
				{Kind: TakeDiscard, Tiles: called}, {Kind: Put, Place: on(a.Rack), Tiles: called}}
		}
		ops := []Op{{Kind: TakeDiscard, Tiles: called}}
		ops = append(ops, takeFromRacks(s, a.Seat, without(a.Tiles, s.Last.Tile), a.Rack)...)
		return append(ops, Op{Kind: Put, Place: on(a.Rack), Tiles: a.Tiles})
	case game.ActMahJongg:
		var ops []Op
		if !(s.Pending != nil && s.Pending.Seat == a.Seat) {
			ops = append(ops, Op{Kind: Say, Seat: a.Seat, Command: "mahjong", Rack: a.Rack})
		}
		racks := []int{a.Rack}
		if a.Rack == 0 {
			racks = []int{1, 2}
		}
		for _, r := range racks { // the hand is laid face up on its rack
			c := s.Seats[a.Seat].Racks[r-1].Concealed
			if p := s.Pending; p != nil && p.Seat == a.Seat && p.Rack == r {
				c[p.Tile]-- // already lying there
			}
			if fs := c.Faces(); len(fs) > 0 {
				ops = append(ops, Op{Kind: Take, Place: in(r), Tiles: fs}, Op{Kind: Put, Place: on(r), Tiles: fs})
			}
		}
		return ops
	case game.ActExchange:
		t := a.Target
		to := rackOr1(s, a)
		ops := takeFromRacks(s, a.Seat, a.Tiles, to)
		return append(ops,
			Op{Kind: Take, Place: Place{t.Seat, t.Rack, On}, Tiles: []tile.Face{tile.Joker}},
			Op{Kind: Put, Place: Place{t.Seat, t.Rack, On}, Tiles: a.Tiles},
			Op{Kind: Put, Place: in(to), Tiles: []tile.Face{tile.Joker}})
	case game.ActMove:
		return []Op{{Kind: Take, Place: in(a.Rack), Tiles: a.Tiles}, {Kind: Put, Place: in(a.To), Tiles: a.Tiles}}
	case game.ActFixRack:
		t := a.Target
		fs := s.Seats[a.Seat].Racks[t.Rack-1].Exposures[t.Exposure].Tiles
		return []Op{{Kind: Take, Place: on(t.Rack), Tiles: fs}, {Kind: Put, Place: on(3 - t.Rack), Tiles: fs}}
	case game.ActWallEnd:
		return []Op{{Kind: Say, Seat: a.Seat, Command: "wall_game"}}
	case game.ActFlower:
		return flowerOps(s, a)
	case game.ActRoll:
		act := a
		return []Op{{Kind: Say, Seat: a.Seat, Command: "act", Act: &act}}
	}
	return nil
}

// rackOr1 is the rack a draw, discard or exchange uses, as the engine picks it.
func rackOr1(s *game.State, a game.Action) int {
	switch {
	case a.Rack != 0:
		return a.Rack
	case s.Seats[a.Seat].Racks[0].MahJongg != nil:
		return 2
	}
	return 1
}

func rackOrBoth(a game.Action) int {
	if a.Both {
		return 0
	}
	return a.Rack
}

// holding is the rack a tile is taken from: prefer, else the other.
func holding(s *game.State, seat int, f tile.Face, prefer int) int {
	if s.Seats[seat].Racks[prefer-1].Concealed[f] > 0 {
		return prefer
	}
	return 3 - prefer
}

// takeFromRacks takes tiles from a seat's racks, rack prefer first, as the engine does.
func takeFromRacks(s *game.State, seat int, fs []tile.Face, prefer int) []Op {
	first, second := s.Seats[seat].Racks[prefer-1].Concealed, s.Seats[seat].Racks[2-prefer].Concealed
	var a, b []tile.Face
	for _, f := range fs {
		if first[f] > 0 {
			first[f]--
			a = append(a, f)
		} else {
			second[f]--
			b = append(b, f)
		}
	}
	var ops []Op
	if len(a) > 0 {
		ops = append(ops, Op{Kind: Take, Place: Place{seat, prefer, In}, Tiles: a})
	}
	if len(b) > 0 {
		ops = append(ops, Op{Kind: Take, Place: Place{seat, 3 - prefer, In}, Tiles: b})
	}
	return ops
}

// without is fs less one f.
func without(fs []tile.Face, f tile.Face) []tile.Face {
	out := make([]tile.Face, 0, len(fs))
	done := false
	for _, x := range fs {
		if x == f && !done {
			done = true
			continue
		}
		out = append(out, x)
	}
	return out
}
