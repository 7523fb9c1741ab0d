package track

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/tile"
)

// ErrCommand is wrapped by every command refused before it reaches the game: malformed, for a
// seat that does not exist, or another seat's to give. A refused command changes nothing.
var ErrCommand = errors.New("bad command")

// Command takes a player's command. The seat is the one the command came from (the display or
// phone it was given on); a player acts only for their own seat.
func (t *Tracker) Command(c Command) ([]Step, error) {
	t.advance(c.At)
	if c.Seat < 0 || c.Seat >= len(t.state.Seats) {
		return nil, fmt.Errorf("track: %w: no seat %d at this table", ErrCommand, c.Seat)
	}
	if t.state.Phase == game.PhaseOver {
		return nil, fmt.Errorf("track: %w: the game is over", ErrCommand)
	}
	var steps []Step
	switch c.Kind {
	case CmdMahJongg:
		if c.Rack < 0 || c.Rack > 2 {
			return nil, fmt.Errorf("track: %w: rack %d: want 1, 2, or 0 for both", ErrCommand, c.Rack)
		}
		t.commands = append(t.commands, c)
	case CmdAct:
		if c.Action == nil {
			return nil, fmt.Errorf("track: %w: act without an action", ErrCommand)
		}
		if c.Action.Seat != c.Seat {
			return nil, fmt.Errorf("track: %w: seat %d cannot act for seat %d", ErrCommand, c.Seat, c.Action.Seat)
		}
		st, err := t.play(*c.Action, "command")
		if err != nil {
			return nil, fmt.Errorf("track: %w: %w", ErrCommand, err)
		}
		t.owe(st.Action)
		steps = append(steps, st)
	case CmdAnswer:
		st, err := t.answer(c)
		if err != nil {
			return nil, err
		}
		steps = append(steps, st...)
	case CmdWallGame:
		if s := &t.state; s.WallLeft > 1 { // the last tile's draw may still be settling
			return nil, fmt.Errorf("track: %w: not a wall game: %d tiles are still in the wall", ErrCommand, s.WallLeft)
		}
		t.commands = append(t.commands, c)
	case CmdRacksRight:
		st, err := t.reconcile()
		if err != nil {
			return nil, err
		}
		steps = append(steps, st...)
	case CmdTakeBack:
		st, err := t.takeBack("command")
		if err != nil {
			return nil, fmt.Errorf("track: %w: %w", ErrCommand, err)
		}
		steps = append(steps, st)
	default:
		return nil, fmt.Errorf("track: %w: unknown command %q", ErrCommand, c.Kind)
	}
	return append(steps, t.settle()...), nil
}

// runCommands plays the Mah Jongg declarations waiting for the table: a declaration is judged
// once the seat's racks match the game after it (the hand laid down, the called tile on the
// rack), or the whole table matches the game before it (every act before it played: the
// discard it calls, the tile that completes the hand), never while the seat's racks are moving
// or a question asked before it is open, and otherwise not later than AskAfter.
func (t *Tracker) runCommands() []Step {
	var steps []Step
	var keep []Command
	for _, c := range t.commands {
		if t.state.Phase == game.PhaseOver {
			break
		}
		if c.Kind == CmdWallGame {
			if st, ok := t.wallGame(c); ok {
				steps = append(steps, st)
			} else if t.now.Sub(c.At) < 2*t.cfg.AskAfter {
				keep = append(keep, c)
			}
			continue
		}
		if t.seatMoving(c.Seat) && t.now.Sub(c.At) < t.cfg.AskAfter {
			// The seat's tiles are still moving (gathered into the rack, laid down): judge
			// the declaration on the picture they settle into.
			keep = append(keep, c)
			continue
		}
		acts := t.declaration(c)
		after, clean := t.after(acts)
		if !clean || !t.declared(after, c) {
			// Tiles gathered into the declared rack and laid down before the rack settled:
			// the move comes first. A tile gone from the other rack that the camera saw land
			// since was not gathered: it was thrown.
			for _, thrown := range append([]tile.Face{tile.NoFace}, t.seenSince(c.At)...) {
				withMoves := append(t.gathered(c, thrown), acts...)
				if a, ok := t.after(withMoves); ok && t.declared(a, c) {
					acts, after, clean = withMoves, a, ok
					break
				}
			}
		}
		ready := (clean && t.declared(after, c)) || (t.tableMatches() && t.seatMatches(t.state, c.Seat))
		if !ready && t.askedBefore(c.At) {
			// The table is behind, waiting for the players to answer about an earlier act:
			// judged now, the declaration would be judged on a game missing acts before it.
			c.judgeFrom = t.now
			keep = append(keep, c)
			continue
		}
		if !ready && (t.now.Sub(c.At) < t.cfg.AskAfter || t.now.Sub(c.judgeFrom) < t.cfg.AskAfter || !t.seatMatches(t.state, c.Seat)) {
			// Not judged on a guess: a seat whose racks show neither the game after the
			// declaration nor the game before it waits for the players (questions, an act
			// entered by hand, the racks said right).
			keep = append(keep, c)
			continue
		}
		for _, a := range acts {
			st, err := t.play(a, "command")
			if err != nil {
				break
			}
			t.owe(a)
			steps = append(steps, st)
		}
	}
	t.commands = keep
	return steps
}

// askedBefore: a question asked before at is still open.
func (t *Tracker) askedBefore(at time.Time) bool {
	return slices.ContainsFunc(t.asks.questions, func(q Question) bool { return q.Since.Before(at) })
}

// wallGame ends the game as a wall game once the table shows the wall used up and its last
// discard made (the discard may still have been settling when the players said so).
func (t *Tracker) wallGame(c Command) (Step, bool) {
	s := &t.state
	if s.WallLeft > 0 || s.Phase != game.PhaseDraw || len(s.Discards) == 0 || !t.tableMatches() {
		return Step{}, false
	}
	st, err := t.play(game.Action{Seat: c.Seat, Act: game.ActWallEnd}, "command")
	return st, err == nil
}

// gathered is how the seat rearranged its racks before laying a Mah Jongg down on c.Rack.
func (t *Tracker) gathered(c Command, thrown tile.Face) []game.Action {
	return t.gatheredOn(&t.state, c, thrown)
}

// gatheredOn is gathered against game s: the tiles gone from the declared rack that stand in
// the other rack move there first (with the thrown tile, when the declared rack held it and the
// other rack did not: moved across and thrown from there, too soon for its reader), then the
// tiles missing from the other rack, but the thrown one, move into the declared rack. None for
// a declaration on both racks at once.
func (t *Tracker) gatheredOn(s *game.State, c Command, thrown tile.Face) []game.Action {
	if c.Rack == 0 {
		return nil
	}
	p, ok := t.seatPicture(expected(s), c.Seat)
	if !ok {
		return nil
	}
	declared, other := c.Rack-1, 2-c.Rack
	var out tile.Counts
	for f, n := range p.minus[declared] {
		out[f] = min(n, p.plus[other][f])
	}
	if thrown != tile.NoFace {
		switch {
		case p.minus[other][thrown] > 0:
			p.minus[other][thrown]--
		case p.minus[declared][thrown] > out[thrown]:
			out[thrown]++
		}
	}
	var moves []game.Action
	if fs := out.Faces(); len(fs) > 0 {
		moves = append(moves, game.Action{Seat: c.Seat, Act: game.ActMove, Tiles: fs, Rack: c.Rack, To: 3 - c.Rack})
	}
	if fs := p.minus[other].Faces(); len(fs) > 0 {
		moves = append(moves, game.Action{Seat: c.Seat, Act: game.ActMove, Tiles: fs, Rack: 3 - c.Rack, To: c.Rack})
	}
	return moves
}

// seenSince lists the faces the camera named landing in the discards since at.
func (t *Tracker) seenSince(at time.Time) []tile.Face {
	var fs []tile.Face
	for _, d := range t.seen {
		if d.Known && !d.At.Before(at) {
			fs = append(fs, d.Face)
		}
	}
	return fs
}

// declared reports whether the declaring seat's racks show the game after its declaration
// (state s): as they are, or with one tile thrown since, which the camera saw land. After a
// Mah Jongg on one rack a Siamese player discards from the other to end the turn (siamese
// 10), often before the laid-down hand has settled.
func (t *Tracker) declared(s game.State, c Command) bool {
	p, ok := t.seatPicture(expected(&s), c.Seat)
	if !ok || p.clean() {
		return ok
	}
	if p.plusTotal() != 0 || p.onDelta != [2]int{} || p.onExtra[0].Total()+p.onExtra[1].Total() != 0 || p.minusTotal() != 1 {
		return false
	}
	rack := 1
	if p.minus[0].Total() == 0 {
		rack = 2
	}
	f := p.minus[rack-1].Faces()[0]
	if _, vs, err := game.Apply(s, game.Action{Seat: c.Seat, Act: game.ActDiscard, Tiles: []tile.Face{f}, Rack: rack}); err != nil || game.HasFaults(vs) {
		return false
	}
	return slices.ContainsFunc(t.seen, func(d DiscardReading) bool { return !d.At.Before(c.At) && (!d.Known || d.Face == f) })
}

// seatMatches reports whether a seat's readable racks match state s.
func (t *Tracker) seatMatches(s game.State, seat int) bool {
	p, ok := t.seatPicture(expected(&s), seat)
	return ok && p.clean()
}

// after is the game after acts, as far as they apply, and whether they all applied with no
// fault (a declaration the card accepts).
func (t *Tracker) after(acts []game.Action) (game.State, bool) {
	s := t.state
	for _, a := range acts {
		n, vs, err := game.Apply(s, a)
		if err != nil {
			return s, false
		}
		s = n
		if game.HasFaults(vs) {
			return s, false
		}
	}
	return s, true
}

// declaration is what "Mah Jongg!" means now: with a discard the seat may call, a call for
// Mah Jongg and the declaration; otherwise the declaration alone.
func (t *Tracker) declaration(c Command) []game.Action { return declarationOn(&t.state, c) }

// declarationOn is what "Mah Jongg!" means in game s.
func declarationOn(s *game.State, c Command) []game.Action {
	mj := game.Action{Seat: c.Seat, Act: game.ActMahJongg, Rack: c.Rack}
	if s.Phase != game.PhaseDraw || s.Last == nil || s.Last.Seat == c.Seat {
		return []game.Action{mj}
	}
	call := game.Action{Seat: c.Seat, Act: game.ActCall, For: "mahjong", Tiles: []tile.Face{s.Last.Tile}, Rack: c.Rack}
	if c.Rack == 0 {
		call.Rack, call.Both = 1, true
	}
	return []game.Action{call, mj}
}

// owe notes camera events still to come for an act played without them: the tile a call took
// from the discards, the tile a discard entered by hand put there. A discard entered by hand
// takes the camera's reading of that face, else the oldest arrival the camera could not name
// (the players enter what the sensors missed, often long after).
func (t *Tracker) owe(a game.Action) {
	if !t.cameraWorking() {
		return
	}
	switch a.Act {
	case game.ActCall:
		if i := t.takenEvent(a.Tiles[0], make([]bool, len(t.taken))); i >= 0 {
			t.taken = dropIndexes(t.taken, []int{i})
		} else {
			t.owedTaken = append(t.owedTaken, owed{face: a.Tiles[0], at: t.now})
		}
	case game.ActDiscard:
		i := t.seenEvent(a.Tiles[0], make([]bool, len(t.seen)), t.now, false, time.Time{})
		if i < 0 {
			i = slices.IndexFunc(t.seen, func(d DiscardReading) bool { return !d.Known })
		}
		if i >= 0 {
			t.seen = dropIndexes(t.seen, []int{i})
		} else {
			t.owedSeen = append(t.owedSeen, owed{face: a.Tiles[0], at: t.now})
		}
	}
}
