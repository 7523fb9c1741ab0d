package track

import (
	"maps"
	"slices"
	"time"

	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/tile"
)

// explainAndPlay plays the acts the readings show, in the order that breaks the fewest rules
// (the acts of one settle may have happened in any order: a discard, then the next seat's draw).
func (t *Tracker) explainAndPlay() []Step {
	cands := t.explain()
	t.noteProposed(cands)
	if len(cands) == 0 {
		return nil
	}
	cands, order := t.orderWithDeclarations(cands)
	for _, i := range order {
		t.debugf("%v [seq %d, seat %d to %s] candidate %s at %v", t.now.Format("15:04:05.000"), t.state.Seq, t.state.Turn, t.state.Phase, cands[i].act.Notation(), cands[i].at.Format("15:04:05.000"))
	}
	if t.holdFaults(cands, order) {
		t.debugf("held: they break a rule and the evidence is not settled")
		t.noteHeldDraws(cands)
		return nil
	}
	var steps []Step
	var usedSeen, usedTaken []int
	for _, i := range order {
		c := cands[i]
		if t.earlierArrival(cands, c) || t.earlierUnnamed(cands, c.at) || t.earlierThrow(cands, c) {
			break // an earlier discard no act explains yet may be explained now: settle again
		}
		if c.act.Act == game.ActDiscard && t.declaring(c.act.Seat, t.landedAt(c)) {
			break // the seat said "Mah Jongg!" first, then threw: the declaration is judged first, then the throw and what came after it
		}
		if t.mayBePickAndThrow(c) {
			break // the camera has not had the time to see a throw: settle again
		}
		if c.declares {
			st, err := t.play(c.act, "command")
			if err != nil {
				break // judged by runCommands on the racks it settles into
			}
			t.commands = slices.DeleteFunc(t.commands, func(d Command) bool {
				return d.Kind == CmdMahJongg && d.Seat == c.act.Seat && d.At.Equal(c.at)
			})
			st.Shown, st.Settled = c.at, c.at
			steps = append(steps, st)
			continue
		}
		if t.isRuledOut(c.act) {
			continue // refused or taken back already, and the racks have not changed since
		}
		if t.playedTooSoon(c) {
			st, last, err := t.undoLast("sensors")
			if err != nil {
				t.debugf("cannot take back the act before %s: %v", c.act.Notation(), err) // playedTooSoon found it: a bug
				break
			}
			t.retaken = last.String()
			steps = append(steps, st)
			break // both are read again, and played in their order
		}
		st, err := t.play(c.act, "sensors")
		if err != nil {
			t.debugf("cannot play %s now: %v", c.act.Notation(), err)
			continue // cannot have happened now: the readings are left for a later settle or a question
		}
		t.lastRead, t.lastReadSeq = c, t.state.Seq
		if game.OutcomeOf(st.Verdicts) == game.NotApplied {
			t.ruledOut[c.act.String()] = t.changed[c.act.Seat]
		}
		st.Shown, st.Settled = c.at, t.settledAt(c)
		steps = append(steps, st)
		if c.seen >= 0 {
			usedSeen = append(usedSeen, c.seen)
		}
		if c.taken >= 0 {
			usedTaken = append(usedTaken, c.taken)
		}
	}
	t.seen = dropIndexes(t.seen, usedSeen)
	t.taken = dropIndexes(t.taken, usedTaken)
	return steps
}

// playedTooSoon: c breaks a rule played after the last act, which the racks alone showed, and
// the two played the other way round make a better order by the measure a settle's acts are
// ordered by (orderScore: the order the evidence shows, fewer faults, fewer late reads). A tag
// read late on a weak reader let the later act be played first, and the rule break named then
// is not the one committed (seed 182 with real-rack noise: West picked out of turn, its tag read
// 1.4 s late; East's pick after it was played first, West was said to have picked before East
// threw, and the record and the table disagreed on whose turn it was for the rest of the game).
// The last act is then taken back, and the racks, which still show it, read again with c. An
// act the camera reported is not: its report was used when it was played, and read again it
// would have none. An act taken back so is never taken back again, so that two settles that
// order the pair differently cannot take it back for ever.
func (t *Tracker) playedTooSoon(c candidate) bool {
	p := t.lastRead
	if t.lastReadSeq != t.state.Seq || p.seen >= 0 || p.taken >= 0 || t.retaken == p.act.String() {
		return false
	}
	if _, vs, err := game.Apply(t.state, c.act); err != nil || !game.HasFaults(vs) {
		return false // most acts: no rule broken, whatever their order
	}
	before, ok := t.undo.Before(1)
	if !ok {
		return false
	}
	pair := []candidate{p, c}
	return t.scoreFrom(before, pair, []int{1, 0}).better(t.scoreFrom(before, pair, []int{0, 1}))
}

// mayBePickAndThrow: c moves tiles between the racks of the seat to pick, less than Grace
// after its racks read it. Racking the pick in one rack while the other hand takes a tile of
// the same face from the other rack to throw reads exactly as a move, and only the camera
// tells them apart once the thrown tile lands, which the player may hold a second first
// (seed 51 with real-rack noise: a pick and a throw of 5C, played as a move before the camera
// saw the throw, stuck the table on the landing no rack explained).
func (t *Tracker) mayBePickAndThrow(c candidate) bool {
	s := &t.state
	return c.act.Act == game.ActMove && s.Phase == game.PhaseDraw && s.Turn == c.act.Seat && t.now.Sub(c.at) < t.cfg.Grace
}

// noteProposed dates the acts the readings show by the settle that first explained each; an
// act they no longer show is forgotten (shown again, it is new evidence).
func (t *Tracker) noteProposed(cands []candidate) {
	now := map[string]bool{}
	for _, c := range cands {
		k := c.act.String()
		now[k] = true
		if _, ok := t.proposed[k]; !ok {
			t.proposed[k] = t.now
		}
	}
	maps.DeleteFunc(t.proposed, func(k string, _ time.Time) bool { return !now[k] })
}

// settledAt is when the sensors had settled on what shows c (Step.Settled): the settle that
// first explained it, or the earlier one at which the tracker put off explaining its seat's
// racks; never before its evidence began or the camera reported what it uses.
func (t *Tracker) settledAt(c candidate) time.Time {
	at, ok := t.proposed[c.act.String()]
	if !ok {
		at = t.now
	}
	if d := t.deferred[c.act.Seat]; !d.IsZero() && d.Before(at) {
		at = d
	}
	for _, e := range []time.Time{c.at, t.eventAt(t.seen, c.seen), t.eventAt(t.taken, c.taken)} {
		if e.After(at) {
			at = e
		}
	}
	return at
}

// eventAt is when camera event i of events was reported (zero for none).
func (t *Tracker) eventAt(events []DiscardReading, i int) time.Time {
	if i < 0 {
		return time.Time{}
	}
	return events[i].At
}

// orderWithDeclarations orders the acts the readings show with the Mah Jongg declarations
// waiting to be judged. The player's word dates the first declaration: the acts read before
// it, then it, if it is a Mah Jongg there; what was read after it is explained again on the
// game after it (a tile laid down in the hand, unread, and one of its face picked into the
// other rack are no move between the racks; a pick made after "Mah Jongg!" no pick before
// it). Otherwise the acts are ordered without the declarations, and runCommands judges each
// on the racks it settles into, as the players laid the hand down.
func (t *Tracker) orderWithDeclarations(cands []candidate) ([]candidate, []int) {
	with := slices.Clone(cands)
	for _, c := range t.commands {
		if c.Kind == CmdMahJongg {
			with = append(with, candidate{act: game.Action{Seat: c.Seat, Act: game.ActMahJongg, Rack: c.Rack}, at: c.At, seen: -1, taken: -1, declares: true})
		}
	}
	if len(with) == len(cands) {
		return cands, t.bestOrder(cands)
	}
	natural := naturalOrder(with)
	k := slices.IndexFunc(natural, func(i int) bool { return with[i].declares })
	var prefix []candidate
	for _, i := range natural[:k+1] {
		prefix = append(prefix, with[i])
	}
	order := append(t.bestOrder(prefix[:k]), k)
	if sc := t.score(prefix, order); sc.played == len(order) && !slices.Contains(sc.faulty, k) {
		return prefix, order
	}
	return cands, t.bestOrder(cands)
}

// landedAt is when a discard's tile landed in the discards, as the camera dates it (a rack's
// reading of a tile of that face gone may be another tile's: one gathered into the other rack
// for a Mah Jongg), or when its evidence was read.
func (t *Tracker) landedAt(c candidate) time.Time {
	if c.seen >= 0 {
		return t.seen[c.seen].At
	}
	return c.at
}

// declaredBefore: a seat said "Mah Jongg!" before at, and the declaration waits to be judged.
func (t *Tracker) declaredBefore(at time.Time) bool {
	return slices.ContainsFunc(t.commands, func(c Command) bool { return c.Kind == CmdMahJongg && c.At.Before(at) })
}

// declaring: the seat said "Mah Jongg!" before at, and the declaration waits to be judged.
// Only the seat's discard waits for it: the pick that completed the hand must not.
func (t *Tracker) declaring(seat int, at time.Time) bool {
	return slices.ContainsFunc(t.commands, func(c Command) bool { return c.Kind == CmdMahJongg && c.Seat == seat && c.At.Before(at) })
}

// earlierArrival: the camera saw a tile land before c, that no act of this settle uses, while
// the seat to draw may have thrown a drawn tile before its rack settled, or while c is another
// seat's act in the turn of the seat to discard (whose throw, its rack not settled yet, ends the
// turn). c and the acts after it wait for the next round, where that tile is explained first.
func (t *Tracker) earlierArrival(cands []candidate, c candidate) bool {
	switch t.state.Phase {
	case game.PhaseDraw:
	case game.PhaseDiscard:
		if c.act.Seat == t.state.Turn {
			return false
		}
	default:
		return false
	}
	for i, d := range t.seen {
		if d.Known && d.At.Before(c.at) && !slices.ContainsFunc(cands, func(c candidate) bool { return c.seen == i }) {
			return true
		}
	}
	return false
}

// earlierThrow: c is the discard of the seat to discard, and the camera saw a tile it could
// name land before c's that no act of this settle explains: the seat threw that tile first,
// picked another of its face and threw again before its rack settled (its rack never showed
// the first tile gone). c waits until the throw and the pick are played before it.
func (t *Tracker) earlierThrow(cands []candidate, c candidate) bool {
	if t.state.Phase != game.PhaseDiscard || c.act.Act != game.ActDiscard || c.act.Seat != t.state.Turn || c.seen < 0 {
		return false
	}
	for i, d := range t.seen {
		if d.Known && d.At.Before(t.seen[c.seen].At) && !slices.ContainsFunc(cands, func(c candidate) bool { return c.seen == i }) {
			return true
		}
	}
	return false
}

// earlierUnnamed: in play, a tile the camera could not name arrived before at and no act of
// this settle explains it: the seat to play drew it and threw it at once, or threw a tile and
// drew one of the same face (its racks show nothing gone). It is asked about, and every act
// after it waits, even the first.
func (t *Tracker) earlierUnnamed(cands []candidate, at time.Time) bool {
	if t.state.Phase != game.PhaseDraw && t.state.Phase != game.PhaseDiscard {
		return false
	}
	for i, d := range t.seen {
		if !d.Known && d.At.Before(at) && t.now.Sub(d.At) >= t.cfg.UnnamedWait && !slices.ContainsFunc(cands, func(c candidate) bool { return c.seen == i }) {
			return true
		}
	}
	return false
}

// holdFaults decides to wait before playing acts that break a rule. Such acts need clear
// evidence: the racks of every seat breaking one are settled (see settling), no Mah Jongg
// declared before them waits to be judged, and no discard the camera saw is still unexplained
// (the seat to play may have thrown its drawn tile before its rack settled, or picked and thrown
// one face at once, which would make them legal). The camera's report waits as long as it stays
// unexplained: asked about after AskAfter, it is answered by the players (the act entered by
// hand, a misread, the racks said right), never taken for noise by the clock (seed 4 with
// real-rack noise: a pick and throw at once that the camera could not name, and the next
// seat's pick called out of turn five seconds on, before the players could answer).
func (t *Tracker) holdFaults(cands []candidate, order []int) bool {
	sc := t.score(cands, order)
	if sc.faults == 0 {
		return false
	}
	for x, i := range sc.faulty {
		for _, seat := range sc.blamed[x] {
			if t.settling(cands, cands[i], seat) {
				return true
			}
		}
		if c := cands[i]; !c.declares && t.declaredBefore(c.at) {
			return true // judged, the declaration may make it legal: a call the racks have not shown, the declarer's throw, pass the turn
		}
	}
	return t.unexplainedCamera(cands)
}

// settling says whether the evidence against seat, which c (an act that breaks a rule) says broke
// one, may still be coming. The seat is c's own or another its verdict names: the first throw
// ends the deal, and a seat whose dealt tiles its racks have not all read yet would be called
// dealt short (seed 186 with real-rack noise: a re-deal called on 24 of 27 tiles).
//
// While a reader of the table is failing, every seat's evidence may come late (a departure on a
// weak reader is judged late, a tag off its antenna first read late): the seat's racks must
// have read the same for Grace, and none of its zones be reweighed, for AskAfter at most since
// c was first shown. A zone's tags then say little while they settle (its Changing is noise,
// and may not be waited on), but its load cell weighs a tile gone at once: a tile moved from a
// weak rack lands in the other long before the weak one reads it gone (seed 255 with real-rack
// noise: a 1B moved, read as a second pick, both hands dead). With every reader reading well
// they must have read the same for FaultWait only (a tile moving from rack to rack lands in
// one before the other reads it gone), but none of the seat's zones may be changing, for Grace
// at most since c was first shown, nor a landing be taken for a throw out of turn
// (throwOutOfTurn).
func (t *Tracker) settling(cands []candidate, c candidate, seat int) bool {
	still := t.now.Sub(t.changed[seat])
	shown, ok := t.proposed[c.act.String()]
	if t.failing {
		return still < t.cfg.Grace || seatIn(t.reweighed, seat) && (!ok || t.now.Sub(shown) < t.cfg.AskAfter)
	}
	if still < t.cfg.FaultWait || t.throwOutOfTurn(cands) {
		return true
	}
	return seatIn(t.changing, seat) && (!ok || t.now.Sub(shown) < t.cfg.Grace)
}

// throwOutOfTurn: a landing the camera saw is taken for the discard of a seat not to play, whose
// racks read otherwise less than Grace ago. The seat to play may have drawn that face and thrown
// it before its rack read it, and the other seat's tile still be in the hand, its own landing
// to come: acts that break a rule wait for it.
func (t *Tracker) throwOutOfTurn(cands []candidate) bool {
	return slices.ContainsFunc(cands, func(c candidate) bool {
		return c.act.Act == game.ActDiscard && c.seen >= 0 && c.act.Seat != t.state.Turn && t.now.Sub(t.changed[c.act.Seat]) < t.cfg.Grace
	})
}

// noteHeldDraws remembers the draws among held acts, forgetting those older than AskAfter.
func (t *Tracker) noteHeldDraws(cands []candidate) {
	t.heldDraws = slices.DeleteFunc(t.heldDraws, func(c candidate) bool { return t.now.Sub(c.at) > t.cfg.AskAfter })
	for _, c := range cands {
		if c.act.Act == game.ActDraw && !slices.ContainsFunc(t.heldDraws, func(h candidate) bool { return h.act.String() == c.act.String() }) {
			t.heldDraws = append(t.heldDraws, c)
		}
	}
}

// heldDraw finds a draw of f by seat held back as a fault within AskAfter before at.
func (t *Tracker) heldDraw(seat int, f tile.Face, at time.Time) (candidate, bool) {
	for _, h := range t.heldDraws {
		if h.act.Seat == seat && h.act.Tiles[0] == f && !h.at.After(at) && at.Sub(h.at) <= t.cfg.AskAfter {
			return h, true
		}
	}
	return candidate{}, false
}

// unexplainedCamera: the camera saw a tile arrive or leave that no candidate accounts for.
func (t *Tracker) unexplainedCamera(cands []candidate) bool {
	for i := range t.seen {
		if !slices.ContainsFunc(cands, func(c candidate) bool { return c.seen == i }) {
			return true
		}
	}
	for i := range t.taken {
		if !slices.ContainsFunc(cands, func(c candidate) bool { return c.taken == i }) {
			return true
		}
	}
	return false
}

// orderWindow: evidence read this far apart or more says which act came first; closer, the
// readings' own delays (a rack settling, the camera) may have swapped them.
const orderWindow = 700 * time.Millisecond

// bestOrder is the order in which to play cands: the order their evidence was read in where it
// is far enough apart to tell, or where one sensor dates both (a rack zone, the camera's view
// of the discards), and otherwise the order that plays the most acts with the fewest
// faults; ties go to the natural order of a turn (deals, calls, draws, flowers, exchanges, fixes, moves,
// discards). It is a branch-and-bound search over the orders, natural order first: an order
// whose first acts already play too few, or break the evidence or the rules more than the best
// found, is not followed further.
func (t *Tracker) bestOrder(cands []candidate) []int {
	natural := naturalOrder(cands)
	if len(cands) == 1 {
		return natural
	}
	o := orderSearch{t: t, cands: cands, natural: natural, budget: searchBudget, used: make([]bool, len(cands))}
	o.best, o.bestScore = slices.Clone(natural), t.score(cands, natural)
	o.extend(t.state, nil, orderScore{})
	return o.best
}

// searchBudget bounds the acts one search for the best order plays on its copies of the game:
// every order of five acts fits many times over; past it, the best order found so far is played.
const searchBudget = 5000

// orderSearch is one bestOrder search: the order being built, and the best found so far.
type orderSearch struct {
	t         *Tracker
	cands     []candidate
	natural   []int
	used      []bool
	budget    int
	best      []int
	bestScore orderScore
}

// extend tries every act not yet placed after placed (played into s, scored sc so far).
func (o *orderSearch) extend(s game.State, placed []int, sc orderScore) {
	if len(placed) == len(o.cands) {
		if sc.better(o.bestScore) {
			o.best, o.bestScore = slices.Clone(placed), sc
		}
		return
	}
	for _, i := range o.natural {
		if o.used[i] || o.budget <= 0 {
			continue
		}
		o.budget--
		ns, next, _ := o.t.place(o.cands, placed, i, s, sc)
		bound := next
		bound.played += len(o.cands) - len(placed) - 1
		if !bound.better(o.bestScore) {
			continue // even if every act after it played, this start cannot beat the best
		}
		o.used[i] = true
		o.extend(ns, append(placed, i), next)
		o.used[i] = false
	}
}

// naturalOrder is cands in the order their evidence was read, where far enough apart to tell,
// and otherwise in the natural order of a turn, acts of one kind in the order read.
func naturalOrder(cands []candidate) []int {
	natural := make([]int, len(cands))
	for i := range natural {
		natural[i] = i
	}
	slices.SortStableFunc(natural, func(a, b int) int {
		if d := cands[a].at.Sub(cands[b].at); d <= -orderWindow || d >= orderWindow {
			return cands[a].at.Compare(cands[b].at)
		}
		if r := actRank(cands[a].act.Act) - actRank(cands[b].act.Act); r != 0 {
			return r
		}
		return cands[a].at.Compare(cands[b].at)
	})
	return natural
}

// orderScore rates an order: acts played, then acts out of the order their evidence shows,
// then faults, then acts before one a rack read arriving earlier (fewer is better): a late
// first read may be a tag that stood unread, and names no one at fault, but where the faults are
// even, it says which act came first.
type orderScore struct {
	played, inversions, faults, lateReads int
	faulty                                []int   // the candidates that break a rule, played in that order
	blamed                                [][]int // for each of faulty, its seat and the seats its faults name
}

func (a orderScore) better(b orderScore) bool {
	if a.played != b.played {
		return a.played > b.played
	}
	if a.inversions != b.inversions {
		return a.inversions < b.inversions
	}
	if a.faults != b.faults {
		return a.faults < b.faults
	}
	return a.lateReads < b.lateReads
}

// score plays cands in order on a copy of the game.
func (t *Tracker) score(cands []candidate, order []int) orderScore {
	return t.scoreFrom(t.state, cands, order)
}

// scoreFrom scores order played from the game s.
func (t *Tracker) scoreFrom(s game.State, cands []candidate, order []int) orderScore {
	var sc orderScore
	for x, i := range order {
		var blamed []int
		s, sc, blamed = t.place(cands, order[:x], i, s, sc)
		if blamed != nil {
			sc.faulty = append(sc.faulty, i)
			sc.blamed = append(sc.blamed, blamed)
		}
	}
	return sc
}

// place scores cands[i] played after placed (already played into s, scored sc): the evidence it
// goes against, then the act itself on s. blamed: where it breaks a rule, the act's seat and the
// seats its faults name (nil where it breaks none). The one step of both score and the search
// for the best order.
func (t *Tracker) place(cands []candidate, placed []int, i int, s game.State, sc orderScore) (game.State, orderScore, []int) {
	for _, x := range placed {
		firm, late := t.datedAfter(&cands[x], &cands[i])
		sc.inversions += firm
		sc.lateReads += late
	}
	if cands[i].atOnce && (len(placed) == 0 || placed[len(placed)-1] != i-1) {
		sc.inversions++ // one motion (drawn and thrown at once) parted
	}
	n, vs, err := game.Apply(s, cands[i].act)
	if err != nil {
		return s, sc, nil
	}
	sc.played++
	var blamed []int
	for _, v := range vs {
		if v.Faulty() {
			sc.faults++
			for _, seat := range []int{cands[i].act.Seat, v.Seat} {
				if !slices.Contains(blamed, seat) {
					blamed = append(blamed, seat)
				}
			}
		}
	}
	return n, sc, blamed
}

// datedAfter counts 1 in firm where the evidence says a came after b: the camera saw a's tile
// land after b's, or a's reading came orderWindow or more after b's, or one rack zone dated a
// after b (rackDatedAfter). Where a's reading is its tile's first read arriving, it counts 1 in
// late instead: a tag's first read may lag its tile by any time (off centre, on a weak reader),
// so it says only that the tile had come by then.
func (t *Tracker) datedAfter(a, b *candidate) (firm, late int) {
	switch {
	case t.cameraDatedAfter(a, b):
		return 1, 0
	case a.at.Sub(b.at) >= orderWindow || rackDatedAfter(a, b):
		if a.arrives {
			return 0, 1
		}
		return 1, 0
	}
	return 0, 0
}

// cameraDatedAfter: the camera saw a's tile land in the discards after b's. The discards lie
// in the order they were thrown, however close: one camera watched them land.
func (t *Tracker) cameraDatedAfter(a, b *candidate) bool {
	return a.seen >= 0 && b.seen >= 0 && t.seen[a.seen].At.After(t.seen[b.seen].At)
}

// rackDatedAfter: one rack zone's readings show a's tile moving after b's, by more than the
// readers' dating can be off (a tag's first miss or first read is a poll or two from the move
// when reads are lost).
func rackDatedAfter(a, b *candidate) bool {
	return a.rack == b.rack && !a.rackAt.IsZero() && !b.rackAt.IsZero() && a.rackAt.Sub(b.rackAt) > rackDatingSlack
}

// rackDatingSlack is how far apart one zone must date two moves to order them.
const rackDatingSlack = 100 * time.Millisecond

func actRank(a game.Act) int {
	return slices.Index([]game.Act{game.ActDeal, game.ActCall, game.ActDraw, game.ActFlower, game.ActExchange, game.ActFixRack, game.ActMove, game.ActDiscard}, a)
}

// dropIndexes removes the elements at the given indexes.
func dropIndexes[T any](s []T, idx []int) []T {
	if len(idx) == 0 {
		return s
	}
	out := s[:0:0]
	for i, v := range s {
		if !slices.Contains(idx, i) {
			out = append(out, v)
		}
	}
	return out
}
