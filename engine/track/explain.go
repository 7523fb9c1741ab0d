package track

import (
	"slices"
	"time"

	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/tile"
)

// candidate is an act the readings show, with the camera events it accounts for.
type candidate struct {
	act   game.Action
	seen  int // index into Tracker.seen it uses, or -1
	taken int // index into Tracker.taken it uses, or -1
	// at is when the evidence for it was read: acts far apart in time are played in that order.
	at time.Time
	// rack is the rack zone whose reading shows the act's tile leaving or arriving, and
	// rackAt when it did (zero: no single reading dates it). Two acts one zone dated apart
	// happened in that order however close: one sensor, read by the same polls.
	rack   Place
	rackAt time.Time
	// arrives: the reading shows the tile arriving in rack, dated by its tag's first read.
	arrives bool
	// atOnce: a tile drawn and thrown at once, or thrown and one of its face picked again, that
	// no rack showed: this act and the candidate just before it in the list are one motion,
	// played one straight after the other.
	atOnce bool
	// declares: the act is a Mah Jongg a player declared (a command waiting to be judged), dated
	// when they said it, not a reading.
	declares bool
}

// seatPicture is one seat's racks as they differ from the game, worked down as acts explain them.
type seatPicture struct {
	seat        int
	plus, minus [2]tile.Counts
	onDelta     [2]int
	onExtra     [2]tile.Counts
}

func (p *seatPicture) plusTotal() int  { return p.plus[0].Total() + p.plus[1].Total() }
func (p *seatPicture) minusTotal() int { return p.minus[0].Total() + p.minus[1].Total() }
func (p *seatPicture) clean() bool {
	return p.plusTotal() == 0 && p.minusTotal() == 0 && p.onDelta == [2]int{} && p.onExtra[0].Total()+p.onExtra[1].Total() == 0
}

// explain lists the acts the readings show, seat by seat: moves between a player's racks, calls
// onto a rack, joker exchanges, rack fixes, discards the camera saw, and draws (or deals) for
// the tiles left over. What no act explains stays for the questions.
func (t *Tracker) explain() []candidate {
	exp := expected(&t.state)
	usedSeen := make([]bool, len(t.seen))
	usedTaken := make([]bool, len(t.taken))
	var out []candidate
	pics := make([]seatPicture, len(t.state.Seats))
	readable := make([]bool, len(t.state.Seats))
	for seat := range t.state.Seats {
		pics[seat], readable[seat] = t.seatPicture(exp, seat)
		if readable[seat] && pics[seat].clean() {
			t.deferred[seat] = time.Time{}
		}
	}
	deferring := func(seat int) {
		if t.deferred[seat].IsZero() {
			t.deferred[seat] = t.now
		}
	}
	for _, seat := range layingFirst(pics) {
		p, ok := pics[seat], readable[seat]
		if !ok || p.clean() {
			continue
		}
		if t.unnamedArrival() {
			deferring(seat)
			continue // a tile the camera could not name just arrived: let the racks settle first
		}
		if t.callAhead(&p) {
			deferring(seat)
			continue // the discard it called is still to be played: the thrower's act comes first
		}
		if seat == t.state.Turn && t.state.Phase == game.PhaseDraw && (t.freshArrival(pics, readable) || t.unnamedThrow(pics, readable)) {
			deferring(seat)
			continue // a discard no rack explains yet may be this seat's drawn tile, thrown at once
		}
		// Tiles gone from one rack and standing in the other are a move, unless the camera saw
		// a tile arrive in the discards (named, or for the seat to play unnamed: discards): then
		// a discard and a draw may explain more. The reading that leaves less unexplained wins;
		// a tie goes to the move.
		// Each reading starts from the camera events the seats before left unused.
		best, bestLeft := []candidate(nil), -1
		startSeen, startTaken := slices.Clone(usedSeen), slices.Clone(usedTaken)
		for _, discardFirst := range []bool{false, true} {
			if discardFirst && len(t.seen) == 0 {
				break
			}
			q, seen, taken := p, slices.Clone(startSeen), slices.Clone(startTaken)
			cs := t.explainSeat(&q, seen, taken, discardFirst)
			if left := q.plusTotal() + q.minusTotal() + unused(seen); bestLeft < 0 || left < bestLeft {
				best, bestLeft = cs, left
				copy(usedSeen, seen)
				copy(usedTaken, taken)
			}
		}
		out = append(out, best...)
	}
	if !t.playsAlone(t.state.Turn) && slices.ContainsFunc(out, func(c candidate) bool { return c.act.Act == game.ActDiscard && c.act.Seat == t.state.Turn }) {
		return out // the turn passes with this discard: a tile thrown at once is the next seat's
	}
	return append(out, t.drawAndThrow(exp, usedSeen)...)
}

// layingFirst orders the seats to explain: those with tiles newly lying on their racks first,
// then the others, each in seat order. A discard the camera saw taken is claimed by the first
// seat whose acts use it, and a seat laying tiles out may have called it, while in another
// seat's rack a tile standing anew is held back from being a draw as long as the take is
// unclaimed (fromDiscards): explained first, the other seat's pick stayed unread while its
// throw was played, out of turn (seed 309 with real-rack noise and the simulated camera: the
// take unnamed, 17 false faults in two games).
func layingFirst(pics []seatPicture) []int {
	var laying, others []int
	for i := range pics {
		if p := &pics[i]; p.onDelta[0] > 0 || p.onDelta[1] > 0 {
			laying = append(laying, i)
		} else {
			others = append(others, i)
		}
	}
	return append(laying, others...)
}

// callAhead: tiles newly lie on one of the seat's racks, and the camera saw a tile taken from
// the discards of a face the seat is missing, but the table's last discard is not one the seat
// could have called (none, its own, another face). The seat to play drew that tile and threw it
// at once, and the table has not played the throw yet: read now, the tile the seat laid in the
// exposure would be taken for a discard of its own, out of turn.
func (t *Tracker) callAhead(p *seatPicture) bool {
	if p.onDelta[0] < 3 && p.onDelta[1] < 3 {
		return false
	}
	last := t.state.Last
	for _, d := range t.taken {
		if d.Known && p.minus[0][d.Face]+p.minus[1][d.Face] > 0 && (last == nil || last.Seat == p.seat || last.Tile != d.Face) {
			return true
		}
	}
	return false
}

// explainSeat runs the matchers over one seat's picture.
func (t *Tracker) explainSeat(p *seatPicture, usedSeen, usedTaken []bool, discardFirst bool) []candidate {
	out := t.flowerExchanges(p, usedSeen) // flowers.go: a flower gone is never a discard or a move
	if discardFirst {
		out = append(out, t.discards(p, usedSeen, true)...)
	}
	out = append(out, t.calls(p, usedTaken)...) // an exposure newly laid and the discard taken: its tiles first
	out = append(out, t.moves(p)...)
	out = append(out, t.exchanges(p)...)
	out = append(out, t.fixes(p)...)
	out = append(out, t.discards(p, usedSeen, false)...)
	thrown := 0
	for _, c := range out {
		if c.act.Act == game.ActDiscard {
			thrown++
		}
	}
	return append(out, t.draws(p, usedTaken, thrown)...)
}

// unnamedArrival: the camera saw a tile it could not name arrive in the discards within the
// grace period: a tile gone from a rack may still be on its way to the player's other rack.
func (t *Tracker) unnamedArrival() bool {
	return slices.ContainsFunc(t.seen, func(d DiscardReading) bool { return !d.Known && t.now.Sub(d.At) < t.cfg.UnnamedWait })
}

func unused(used []bool) int {
	n := 0
	for _, u := range used {
		if !u {
			n++
		}
	}
	return n
}

// drawAndThrow: the seat to play picked a tile and threw it before its rack settled (or before
// a second pick, which breaks a rule, was held long enough to be judged), so the racks show the
// game as it was: the camera's confident reading of a discard that no rack explains is the
// evidence. While the seat is to draw, the grace period must pass; while it is to discard, a
// face it holds may yet leave its rack (a plain discard, still settling), so that waits for
// AskAfter, unless the racks showed the tile picked (a draw held back as a fault) or changed
// after the tile landed and still hold its face (thrown, then picked again). In the deal, the
// pick is the last tile dealt to the seat that opens play (toPick). An unnamed discard is asked
// about.
func (t *Tracker) drawAndThrow(exp [][2]expect, usedSeen []bool) []candidate {
	s := &t.state
	turn, pick, ok := t.toPick()
	if !ok {
		return nil
	}
	seat := &s.Seats[turn]
	for i, d := range t.seen {
		wait := t.cfg.Grace
		held, wasHeld := t.heldDraw(turn, d.Face, d.At)
		holds := s.Phase == game.PhaseDiscard && !wasHeld && seat.Racks[0].Concealed[d.Face]+seat.Racks[1].Concealed[d.Face] > 0
		// Thrown, then a tile of its face picked again: the racks changed after it landed and
		// still hold the face. Only the racks that hold it need be still (the seat plays on).
		repicked := holds && t.changed[turn].After(d.At)
		if holds && !repicked {
			wait = t.cfg.AskAfter
		}
		if usedSeen[i] || !d.Known || s.Unseen[d.Face] == 0 || t.now.Sub(d.At) < wait {
			continue
		}
		if repicked && t.holdingRackMoving(turn, d.Face) ||
			!repicked && (t.seatMoving(turn) || s.Phase == game.PhaseDiscard && t.now.Sub(t.changed[turn]) < t.cfg.Grace) {
			continue
		}
		if p, ok := t.seatPicture(exp, turn); !ok || p.minus[0][d.Face]+p.minus[1][d.Face] > 0 {
			continue // the tile is gone from a rack: a plain discard, still settling
		}
		if t.unnamedBefore(d.At, usedSeen) {
			continue // an earlier throw the camera could not name comes first: it is asked about
		}
		usedSeen[i] = true
		rack := 1
		switch {
		case wasHeld:
			rack = held.act.Rack
		case seat.Racks[0].MahJongg != nil || !seat.Racks[0].Live() && seat.Racks[1].Live():
			rack = 2
		}
		f := []tile.Face{d.Face}
		if s.Phase == game.PhaseDiscard && !wasHeld {
			if r, ok := holdingRack(seat, d.Face); ok {
				// Thrown from the rack, and a tile of its face picked into its place: one motion,
				// unless the rack read a tile of the face come after the throw (its tags tell the
				// two apart), which dates the pick as any other.
				thrown := candidate{act: game.Action{Seat: turn, Act: game.ActDiscard, Tiles: f, Rack: r}, seen: i, taken: -1, at: d.At}
				picked := candidate{act: game.Action{Seat: turn, Act: game.ActDraw, Tiles: f, Rack: r}, seen: -1, taken: -1, at: d.At, atOnce: true}
				if t.arrivalRead(Place{turn, r, In}, d.Face).After(d.At) {
					picked = t.pickRead(turn, r, d.Face)
				}
				return []candidate{thrown, picked}
			}
		}
		picked := game.Action{Seat: turn, Act: pick, Tiles: f, Rack: rack}
		thrown := game.Action{Seat: turn, Act: game.ActDiscard, Tiles: f, Rack: rack}
		if pick == game.ActDeal {
			if _, faults, ok := applyAll(*s, []game.Action{picked, thrown}); !ok || faults > 0 {
				usedSeen[i] = false
				continue // the deal's last tile, dealt to a seat whose throw does not open play
			}
		}
		return []candidate{
			{act: picked, seen: -1, taken: -1, at: d.At},
			{act: thrown, seen: i, taken: -1, at: d.At, atOnce: true},
		}
	}
	return nil
}

// toPick is the seat whose pick may have been thrown before its rack read it, and what its pick
// is: in play, the seat to play and a draw from the wall (none once the wall is used up); in the
// deal, the seat whose deal lacks one tile, every other's being whole, and the deal of it (its
// last tile, thrown to open play: seeds 2 and 67 with real-rack noise stuck in the deal).
func (t *Tracker) toPick() (int, game.Act, bool) {
	s := &t.state
	switch s.Phase {
	case game.PhaseDraw, game.PhaseDiscard:
		return s.Turn, game.ActDraw, s.WallLeft > 0
	case game.PhaseDeal:
		seat := -1
		for i := range s.Seats {
			switch short := dealFor(s, i) - s.Seats[i].Dealt; {
			case short == 1 && seat < 0:
				seat = i
			case short != 0:
				return 0, "", false
			}
		}
		return seat, game.ActDeal, seat >= 0
	}
	return 0, "", false
}

// holdingRackMoving: a rack of the seat that holds a tile of face f is changing now.
func (t *Tracker) holdingRackMoving(seat int, f tile.Face) bool {
	for r := 1; r <= 2; r++ {
		if t.state.Seats[seat].Racks[r-1].Concealed[f] > 0 && t.moving[Place{seat, r, In}] {
			return true
		}
	}
	return false
}

// holdingRack is the seat's live rack (rack 1 first) that holds a tile of face f.
func holdingRack(seat *game.Seat, f tile.Face) (int, bool) {
	for r := 1; r <= 2; r++ {
		if rk := &seat.Racks[r-1]; rk.Live() && rk.Concealed[f] > 0 {
			return r, true
		}
	}
	return 0, false
}

// unnamedBefore: a tile the camera could not name, that no act of this settle explains, arrived
// in the discards before at.
func (t *Tracker) unnamedBefore(at time.Time, usedSeen []bool) bool {
	for i, u := range t.seen {
		if !usedSeen[i] && !u.Known && u.At.Before(at) {
			return true
		}
	}
	return false
}

// freshArrival: the camera saw a tile arrive within the grace period that no rack explains yet:
// no seat's racks show a tile of that face gone (for a tile it could not name, none gone, or
// within UnnamedWait). (An arrival some rack explains must not hold
// the seat to play back: the other seat, playing on, would hold it back for ever.)
func (t *Tracker) freshArrival(pics []seatPicture, readable []bool) bool {
	var gone tile.Counts
	for seat := range pics {
		if readable[seat] {
			gone.Add(&pics[seat].minus[0])
			gone.Add(&pics[seat].minus[1])
		}
	}
	return slices.ContainsFunc(t.seen, func(d DiscardReading) bool {
		lain := t.now.Sub(d.At)
		if !d.Known { // any tile gone from a rack may be it, once it has lain UnnamedWait
			return lain < t.cfg.UnnamedWait || lain < t.cfg.Grace && gone.Total() == 0
		}
		return lain < t.cfg.Grace && gone[d.Face] == 0
	})
}

// playsAlone: every other seat's racks are dead; the seat plays on by itself.
func (t *Tracker) playsAlone(seat int) bool {
	for i := range t.state.Seats {
		if r := &t.state.Seats[i].Racks; i != seat && (r[0].Live() || r[1].Live()) {
			return false
		}
	}
	return true
}

// unnamedThrow: a tile the camera could not name lies in the discards past the grace period,
// and no rack shows a tile gone: the seat to play drew it and threw it at once. What it was is
// asked; until a player says, the seat's later acts wait (played first, they would be out of
// order).
func (t *Tracker) unnamedThrow(pics []seatPicture, readable []bool) bool {
	if !slices.ContainsFunc(t.seen, func(d DiscardReading) bool { return !d.Known && t.now.Sub(d.At) >= t.cfg.UnnamedWait }) {
		return false
	}
	for seat := range pics {
		if !readable[seat] || pics[seat].minusTotal() > 0 {
			return false
		}
	}
	return true
}

// seatPicture gathers a seat's rack differences; ok is false when a rack cannot be read.
func (t *Tracker) seatPicture(exp [][2]expect, seat int) (seatPicture, bool) {
	p := seatPicture{seat: seat}
	for r := 1; r <= 2; r++ {
		d := t.diff(exp, seat, r)
		if !d.readable {
			return p, false
		}
		p.plus[r-1], p.minus[r-1], p.onDelta[r-1], p.onExtra[r-1] = d.plus, d.minus, d.onDelta, d.onExtra
	}
	return p, true
}

// moves: the same tiles gone from one rack and standing in the other.
func (t *Tracker) moves(p *seatPicture) []candidate {
	var out []candidate
	for from := 1; from <= 2; from++ {
		to := 3 - from
		var fs []tile.Face
		for f := tile.Face(0); f < tile.NumFaces; f++ {
			n := min(p.minus[from-1][f], p.plus[to-1][f])
			if t.readBeforeItLeft(Place{p.seat, to, In}, Place{p.seat, from, In}, f) {
				n = 0
			}
			for i := uint8(0); i < n; i++ {
				fs = append(fs, f)
			}
			p.minus[from-1][f] -= n
			p.plus[to-1][f] -= n
		}
		if len(fs) > 0 {
			out = append(out, candidate{act: game.Action{Seat: p.seat, Act: game.ActMove, Tiles: fs, Rack: from, To: to}, seen: -1, taken: -1, at: t.readAt(p.seat, to, In)})
		}
	}
	return out
}

// readBeforeItLeft: since the seat's last act, zone to read a tile of face f arriving before
// zone from read one leave, by more than the readers' dating can be off. A tag's first read may
// come late, never early, so the tile in to stood there while from's still did: two tiles, not
// one moved (seed 4 with real-rack noise: a dealt 3C read late and a 3C thrown from the other
// rack, taken for a move). A tile read before the seat's last act was there when the game last
// agreed with the racks: it dates no tile unexplained now.
func (t *Tracker) readBeforeItLeft(to, from Place, f tile.Face) bool {
	arrived, left := t.arrivalRead(to, f), t.departedAt(from.Seat, from.Rack, from.Zone, f)
	return arrived.After(t.acted[to.Seat]) && !left.IsZero() && left.Sub(arrived) > rackDatingSlack
}

// calls: tiles lying newly on a rack, one more than left the player's racks, while the camera
// saw the last discard taken (or cannot see): the discard called for an exposure.
func (t *Tracker) calls(p *seatPicture, usedTaken []bool) []candidate {
	last := t.state.Last
	if last == nil || last.Seat == p.seat {
		return nil
	}
	var out []candidate
	for r := 1; r <= 2; r++ {
		n := p.onDelta[r-1]
		if n < 3 {
			continue
		}
		rest := takeForCall(p, last.Tile, n-1)
		if rest == nil {
			continue
		}
		group := append([]tile.Face{last.Tile}, rest...)
		gc, _ := tile.CountsOf(group)
		if !gc.Contains(&p.onExtra[r-1]) {
			continue // tags on the rack that the group does not hold: not this call
		}
		taken := t.takenEvent(last.Tile, usedTaken)
		if taken < 0 && t.cameraWorking() {
			continue // the camera has not seen the discard leave yet
		}
		for _, f := range rest {
			unplace(p, f)
		}
		p.onDelta[r-1] -= n
		p.onExtra[r-1] = tile.Counts{}
		at := t.readAt(p.seat, r, On)
		if taken >= 0 {
			at = earliest(at, t.taken[taken].At)
		}
		out = append(out, candidate{act: game.Action{Seat: p.seat, Act: game.ActCall, Tiles: group, Rack: r}, seen: -1, taken: taken, at: at})
	}
	return out
}

// takeForCall picks the n tiles a call took from the player's racks: the discard's face and
// jokers first, or everything that left when exactly n tiles did. nil when the racks do not
// show n such tiles gone.
func takeForCall(p *seatPicture, f tile.Face, n int) []tile.Face {
	if p.minusTotal() == n {
		return append(p.minus[0].Faces(), p.minus[1].Faces()...)
	}
	var out []tile.Face
	for _, want := range []tile.Face{f, tile.Joker} {
		for r := 0; r < 2; r++ {
			for i := uint8(0); i < p.minus[r][want] && len(out) < n; i++ {
				out = append(out, want)
			}
		}
	}
	if len(out) < n {
		return nil
	}
	return out
}

// unplace removes one f from the seat's missing tiles, rack 1 first.
func unplace(p *seatPicture, f tile.Face) {
	for r := 0; r < 2; r++ {
		if p.minus[r][f] > 0 {
			p.minus[r][f]--
			return
		}
	}
}

// exchanges: a joker newly standing in a rack and a natural gone from the player's racks, while
// some exposure holds a joker and that natural. Not while the player's other rack is changing:
// the joker may be on its way from there, and the natural to there (two moves).
func (t *Tracker) exchanges(p *seatPicture) []candidate {
	var out []candidate
	for r := 1; r <= 2; r++ {
		if t.moving[Place{p.seat, 3 - r, In}] {
			continue
		}
		for p.plus[r-1][tile.Joker] > 0 {
			f, target, ok := t.exchangeTarget(p)
			if !ok {
				return out
			}
			p.plus[r-1][tile.Joker]--
			unplace(p, f)
			out = append(out, candidate{act: game.Action{Seat: p.seat, Act: game.ActExchange, Tiles: []tile.Face{f}, Rack: r, Target: target}, seen: -1, taken: -1, at: t.readAt(p.seat, r, In)})
		}
	}
	return out
}

// exchangeTarget finds the exposure a joker came from: one holding a joker and a natural the
// seat is missing. Where several fit, the one whose rack shows that natural's tag newly wins;
// if still several, no guess is made.
func (t *Tracker) exchangeTarget(p *seatPicture) (tile.Face, *game.Target, bool) {
	type fit struct {
		f      tile.Face
		target game.Target
		shown  bool
	}
	var fits []fit
	exp := expected(&t.state)
	for s := range t.state.Seats {
		for r := 1; r <= 2; r++ {
			rk := &t.state.Seats[s].Racks[r-1]
			for i, e := range rk.Exposures {
				f := naturalOf(e.Tiles)
				if f == tile.NoFace || !slices.Contains(e.Tiles, tile.Joker) || p.minus[0][f]+p.minus[1][f] == 0 {
					continue
				}
				d := t.diff(exp, s, r)
				fits = append(fits, fit{f: f, target: game.Target{Seat: s, Rack: r, Exposure: i}, shown: d.onExtra[f] > 0})
			}
		}
	}
	shown := slices.DeleteFunc(slices.Clone(fits), func(x fit) bool { return !x.shown })
	switch {
	case len(shown) == 1:
		return shown[0].f, &shown[0].target, true
	case len(fits) == 1:
		return fits[0].f, &fits[0].target, true
	}
	return tile.NoFace, nil, false
}

// naturalOf is the one natural face of a pung-like group, or NoFace.
func naturalOf(fs []tile.Face) tile.Face {
	face := tile.NoFace
	for _, f := range fs {
		if f == tile.Joker {
			continue
		}
		if face != tile.NoFace && f != face {
			return tile.NoFace
		}
		face = f
	}
	return face
}

// fixes: the newest exposure gone from one rack and lying on the player's other rack.
func (t *Tracker) fixes(p *seatPicture) []candidate {
	var out []candidate
	for r := 1; r <= 2; r++ {
		rk := &t.state.Seats[p.seat].Racks[r-1]
		if len(rk.Exposures) == 0 || rk.MahJongg != nil {
			continue
		}
		n := len(rk.Exposures[len(rk.Exposures)-1].Tiles)
		if p.onDelta[r-1] == -n && p.onDelta[2-r] == n {
			p.onDelta[r-1], p.onDelta[2-r] = 0, 0
			p.onExtra[2-r] = tile.Counts{}
			out = append(out, candidate{act: game.Action{Seat: p.seat, Act: game.ActFixRack, Target: &game.Target{Seat: p.seat, Rack: r, Exposure: len(rk.Exposures) - 1}}, seen: -1, taken: -1, at: t.readAt(p.seat, 3-r, On)})
		}
	}
	return out
}

// discards: a tile gone from a rack that the camera saw arrive in the discard area. A camera
// reading of another face is a disagreement, left for a question; a tile the camera could not
// name is matched only once it has lain there for the grace period (a tile gone from one rack
// may still land in the other). throwAndPick: the tiles gone are matched before any move, so
// that one gone from a rack and one of its face standing in the other are a throw and a pick of
// that face; a landing the camera could not name is matched then only for the seat to play, the
// turn's own throw (seed 51), since for another seat it is likelier the seat to play's tile
// thrown at once (seed 251: it made another seat's move a throw and a pick out of turn).
func (t *Tracker) discards(p *seatPicture, usedSeen []bool, throwAndPick bool) []candidate {
	var out []candidate
	for r := 1; r <= 2; r++ {
		for f := tile.Face(0); f < tile.NumFaces; f++ {
			for p.minus[r-1][f] > 0 {
				// An unnamed arrival long before the tile left the rack was another tile (one
				// drawn and thrown at once, perhaps): it is asked about, not taken for this one.
				// The landing nearest the tile's departure as the rack dates it: the reading that
				// showed it gone may come after the seat's next throw (a hand on the rack).
				near, notBefore := t.readAt(p.seat, r, In), time.Time{}
				if left := t.departedAt(p.seat, r, In, f); !left.IsZero() {
					near, notBefore = left, left.Add(-arrivalSlack)
				}
				i := t.seenEvent(f, usedSeen, near, p.seat != t.state.Turn, notBefore)
				if i < 0 || throwAndPick && !t.seen[i].Known && p.seat != t.state.Turn {
					break
				}
				if !t.seen[i].Known && (t.now.Sub(t.seen[i].At) < t.cfg.UnnamedWait ||
					p.seat != t.state.Turn && t.now.Sub(t.changed[p.seat]) < t.cfg.Grace ||
					t.betweenRacks(p.seat, 3-r, t.seen[i].At)) {
					// An unnamed tile arrived: wait until no tile can be on its way still, and
					// for a seat not to play, until its racks have settled (its tile may be
					// going onto its rack, called: the unnamed tile is the turn's discard). Any
					// tile gone may be the one it saw, so the seat's tile must not be on its
					// way to its other rack either (a move, that rack read late).
					break
				}
				usedSeen[i] = true
				p.minus[r-1][f]--
				at := earliest(t.readAt(p.seat, r, In), t.seen[i].At)
				out = append(out, candidate{act: game.Action{Seat: p.seat, Act: game.ActDiscard, Tiles: []tile.Face{f}, Rack: r}, seen: i, taken: -1, at: at,
					rack: Place{p.seat, r, In}, rackAt: t.departedAt(p.seat, r, In, f)})
			}
		}
	}
	return out
}

// betweenRacks: a tile of the seat's may still be on its way between a rack and the seat's other
// one, still being read: the other rack is changing, and since (a draw's arrival, an unnamed
// discard's landing) is less than the grace period ago (a rack on a weak reader is often deciding
// a tag, and play must not wait on it for ever). A draw and an unnamed discard wait while it is.
func (t *Tracker) betweenRacks(seat, other int, since time.Time) bool {
	return t.moving[Place{seat, other, In}] && t.now.Sub(since) < t.cfg.Grace
}

// arrivalSlack is how much earlier than its rack read it gone a discarded tile may be seen
// arriving: the rack's reading lags the hand (a poll, a tag slow to drop out).
const arrivalSlack = 500 * time.Millisecond

// seenEvent finds the unused camera arrival that matches a tile of face f gone from a rack
// around near: one read as f, else one the camera could not name (no more than AskAfter from
// near, and not before unnamedNotBefore), the closest in time. For a seat that is not to play, latest takes the latest arrival
// read as f instead: its discard comes after the turn of the seat to play, which may have
// thrown a tile of the same face that no rack shows (drawn and thrown at once).
func (t *Tracker) seenEvent(f tile.Face, used []bool, near time.Time, latest bool, unnamedNotBefore time.Time) int {
	best, bestKnown := -1, false
	var bestGap time.Duration
	for i, d := range t.seen {
		if !d.Known && d.At.Before(unnamedNotBefore) {
			continue
		}
		if latest && d.Known && d.Face == f && !used[i] {
			if best < 0 || !bestKnown || d.At.After(t.seen[best].At) {
				best, bestKnown = i, true
			}
			continue
		}
		if latest && bestKnown {
			continue
		}
		if used[i] || (d.Known && d.Face != f) {
			continue
		}
		gap := d.At.Sub(near)
		if gap < 0 {
			gap = -gap
		}
		if !d.Known && gap > t.cfg.AskAfter {
			continue
		}
		if best < 0 || (d.Known && !bestKnown) || (d.Known == bestKnown && gap < bestGap) {
			best, bestKnown, bestGap = i, d.Known, gap
		}
	}
	return best
}

// takenEvent finds an unused camera departure of face f (or of an unnamed tile), marking it used.
func (t *Tracker) takenEvent(f tile.Face, used []bool) int {
	unknown := -1
	for i, d := range t.taken {
		switch {
		case used[i]:
		case d.Known && d.Face == f:
			used[i] = true
			return i
		case !d.Known && unknown < 0:
			unknown = i
		}
	}
	if unknown >= 0 {
		used[unknown] = true
	}
	return unknown
}

// draws: tiles newly standing in a rack that nothing else explains came from the wall (or, while
// dealing, from the deal). One tile is a draw at once, and one more for each of the seat's
// discards the camera saw (a player alone at the table draws, throws and draws again before
// the rack is still); more only once the seat's racks have stayed the same for the grace
// period, so a rack still settling is not read as a second draw. Nothing is drawn while the
// seat is missing tiles (a tile in a hand, on its way).
func (t *Tracker) draws(p *seatPicture, usedTaken []bool, thrown int) []candidate {
	n := p.plusTotal()
	if n == 0 || p.minusTotal() > 0 || p.onDelta != [2]int{} {
		return nil
	}
	st := &t.state.Seats[p.seat]
	if t.state.Phase == game.PhaseDeal && st.Dealt+n <= dealFor(&t.state, p.seat) {
		var out []candidate
		for r := 1; r <= 2; r++ {
			if fs := p.plus[r-1].Faces(); len(fs) > 0 {
				out = append(out, candidate{act: game.Action{Seat: p.seat, Act: game.ActDeal, Tiles: fs, Rack: r}, seen: -1, taken: -1, at: t.readAt(p.seat, r, In)})
			}
		}
		p.plus = [2]tile.Counts{}
		return out
	}
	if n > 1+thrown && t.now.Sub(t.changed[p.seat]) < t.cfg.Grace {
		return nil
	}
	var out []candidate
	for r := 1; r <= 2; r++ {
		for _, f := range p.plus[r-1].Faces() {
			if t.state.Unseen[f] == 0 || t.fromDiscards(f, usedTaken) {
				continue // not from the wall: left for a question
			}
			if t.state.Seats[p.seat].Racks[2-r].Concealed[f] > 0 && t.betweenRacks(p.seat, 3-r, t.arrivedAt(p.seat, r, In, f)) {
				// It may be on its way from the other rack, not yet read gone there (a move).
				continue
			}
			p.plus[r-1][f]--
			out = append(out, t.pickRead(p.seat, r, f))
		}
	}
	return out
}

// pickRead is a draw of a tile of face f into the seat's rack r, dated by that rack's read of
// it arriving.
func (t *Tracker) pickRead(seat, r int, f tile.Face) candidate {
	zone := Place{seat, r, In}
	return candidate{act: game.Action{Seat: seat, Act: game.ActDraw, Tiles: []tile.Face{f}, Rack: r}, seen: -1, taken: -1, at: t.arrivedAt(seat, r, In, f),
		rack: zone, rackAt: t.arrivalRead(zone, f), arrives: true}
}

// fromDiscards: the camera saw a tile of face f leave the discard area, so a tile of that face
// newly in a rack may be the discard taken into the hand rather than a draw.
func (t *Tracker) fromDiscards(f tile.Face, used []bool) bool {
	for i, d := range t.taken {
		if !used[i] && (!d.Known || d.Face == f) {
			return true
		}
	}
	return false
}

// earliest dates an act by the first sensor that showed it: the camera sees a tile land in
// or leave the discards when it happens, and the scans before a rack's reading settled may
// have shown the tile move, while the reading may settle late (the tiles straightened, a tag
// read again). A zero first is no such sighting: the rack's reading dates it.
func earliest(rack, first time.Time) time.Time {
	if !first.IsZero() && first.Before(rack) {
		return first
	}
	return rack
}

// readAt is when a rack zone was last read.
func (t *Tracker) readAt(seat, rack int, z Zone) time.Time {
	return t.readings[Place{seat, rack, z}].At
}

func dealFor(s *game.State, seat int) int {
	if seat == 0 {
		return s.Rules.DealEast
	}
	return s.Rules.DealOthers
}
