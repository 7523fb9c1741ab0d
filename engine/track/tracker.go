package track

import (
	"fmt"
	"slices"
	"time"

	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/tile"
)

// Config tunes the tracker to the table.
type Config struct {
	// AskAfter: a picture nothing explains for this long becomes a question to the players. It is
	// also the longest a rule break waits for a rack whose load cell weighs otherwise than its
	// tags read while a reader is failing (Motion.Reweighed).
	AskAfter time.Duration
	// Grace: a seat's picture that only several acts of one kind explain (two draws at once)
	// must have stayed the same this long, so a rack still settling is not taken for a second
	// draw. It is also the longest the tracker waits for a rack that is changing, and what
	// FaultWait becomes while a reader of the table is failing.
	Grace time.Duration
	// FaultWait: the racks of a seat said to have broken a rule must have read the same this
	// long, and none of them be changing (for Grace at most), as a tile moving from rack to rack
	// may land in one before the other reads it gone. A rack reports a departure changing within
	// the polls its reader's read rate needs, so the wait follows each reader's rate; while a
	// reader is failing (Motion.Failing), the racks must have read the same for Grace.
	FaultWait time.Duration
	// UnnamedWait: a tile the camera could not name that landed in the discards is matched with
	// the racks once it has lain this long (a tile gone from a rack may still be on its way to
	// the player's other rack).
	UnnamedWait time.Duration
	// CallWindow: once the wall is used up and the last discard lies uncalled this long, the game
	// ends as a wall game. 0: only a player's wall_game command ends it.
	CallWindow time.Duration
	// Camera: the discard area is watched. Without a camera (or while it fails) a tile that left
	// a rack for the discards is asked about, never assumed.
	Camera bool
	// Debug, when set, hears how each settle reasons (for tests and the daemon's debug log).
	Debug func(format string, args ...any)
}

// DefaultConfig is what a real table starts with.
func DefaultConfig() Config {
	return Config{AskAfter: 5 * time.Second, Grace: 1500 * time.Millisecond, FaultWait: 300 * time.Millisecond, UnnamedWait: 500 * time.Millisecond, CallWindow: 10 * time.Second, Camera: true}
}

// Tracker follows one game from sensor readings and commands.
type Tracker struct {
	cfg      Config
	state    game.State
	undo     *game.Undo // the states before the last acts played, to take them back
	readings map[Place]RackReading
	seen     []DiscardReading // tiles the camera saw arrive that no discard has used yet
	taken    []DiscardReading // tiles the camera saw leave that no call has used yet
	camera   CameraStatus
	now      time.Time
	lastAct  time.Time
	changed  []time.Time // per seat: when its racks last reported a change
	// proposed is when each act the readings now show (by its String) was first explained, and
	// deferred, per seat, the first settle since its racks last agreed with the game at which
	// the tracker put off explaining them (waiting for a tile in flight): Step.Settled.
	proposed map[string]time.Time
	deferred []time.Time
	acted    []time.Time // per seat: when the tracker last played an act of it
	commands []Command   // Mah Jongg commands waiting for the racks to catch up
	asks     asker
	// owedSeen and owedTaken are camera events still to come for acts played without them
	// (by command or answer): when one of that face (or unnamed) arrives soon after, it is
	// expected, not new. Another face is news: a debt never swallows a later discard.
	owedSeen, owedTaken []owed
	// ruledOut holds acts the engine refused or the players took back, with the time the seat's
	// racks last changed then: the players are undoing them, or say they never happened, and
	// until the racks change again they are not tried again.
	ruledOut map[string]time.Time
	// heldDraws are draws held back as faults (a second pick), with when their tile was read
	// in the rack: such a tile seen in the discards soon after was picked and thrown.
	heldDraws []candidate
	// lastRead is the act the sensors showed that was played last, while it is the game's last
	// (the game's Seq is still lastReadSeq); retaken, the last act taken back to be read again
	// in its place (playedTooSoon), never taken back twice.
	lastRead    candidate
	lastReadSeq int
	retaken     string
	// moving are the rack zones reading otherwise than their last settled reading now; changing,
	// those that more likely than not hold otherwise (a tile in flight, not a tag flapping).
	moving, changing map[Place]bool
	// failing: a reader of the table is failing now (Motion.Failing).
	failing bool
	// reweighed: the zones whose load cell weighs otherwise than their last reading (Motion.Reweighed).
	reweighed map[Place]bool
	// arrived is, per rack zone and face, when the zone's count of that face last went up: a
	// tile's own evidence time, kept while later changes to its rack re-date the reading.
	arrived map[Place]*[tile.NumFaces]time.Time
	// departed is, per rack zone and face, when the zone's count of that face last went down:
	// a tile arrives in the discards after it left its rack, never long before.
	departed map[Place]*[tile.NumFaces]time.Time
}

// New starts tracking from s: a new game, or one replayed from its journal after a restart
// (the first readings then show the table as it is, and whatever the journal missed is found
// again from them).
func New(cfg Config, s game.State) *Tracker {
	t := &Tracker{cfg: cfg, state: s, undo: game.NewUndo(takeBackDepth), readings: map[Place]RackReading{}, changed: make([]time.Time, len(s.Seats)), deferred: make([]time.Time, len(s.Seats)), acted: make([]time.Time, len(s.Seats)), proposed: map[string]time.Time{}, ruledOut: map[string]time.Time{}, arrived: map[Place]*[tile.NumFaces]time.Time{},
		departed: map[Place]*[tile.NumFaces]time.Time{}}
	t.camera = CameraStatus{Working: cfg.Camera}
	if !cfg.Camera {
		t.camera.Problem = "no camera on this table"
	}
	t.asks.ids = map[string]int{}
	return t
}

// Resume starts tracking a game replayed from its journal, with the states before its acts
// (game.ReplayUndo), so the players can take back acts played before the restart.
func Resume(cfg Config, s game.State, undo *game.Undo) *Tracker {
	t := New(cfg, s)
	if undo != nil {
		t.undo = undo
	}
	return t
}

// State is the game as the tracker has played it.
func (t *Tracker) State() game.State { return t.state }

// Rack takes a settled reading of one rack zone.
func (t *Tracker) Rack(r RackReading) []Step {
	t.advance(r.At)
	old, ok := t.readings[r.Place]
	if !ok || old.Tiles != r.Tiles || old.Count != r.Count || old.Complete != r.Complete || old.CountKnown != r.CountKnown {
		if r.Seat >= 0 && r.Seat < len(t.changed) {
			t.changed[r.Seat] = r.At
		}
	}
	t.noteArrivals(old, r)
	t.readings[r.Place] = r
	return t.settle()
}

// noteArrivals dates the tiles newly read in a zone, and those gone, by when it began to read
// so, or earlier where the readings before it settled showed a tile move first. A face read as
// often as before is dated anew when the readings show a tile of it come: one thrown and
// another of its face picked before the zone settled (the pick is not as old as the tile it
// replaced).
func (t *Tracker) noteArrivals(old, r RackReading) {
	since := r.Since
	if since.IsZero() || since.After(r.At) {
		since = r.At
	}
	a, d := t.arrived[r.Place], t.departed[r.Place]
	if a == nil {
		a, d = new([tile.NumFaces]time.Time), new([tile.NumFaces]time.Time)
		t.arrived[r.Place], t.departed[r.Place] = a, d
	}
	for f := range r.Tiles {
		came := movedAt(r.Came, tile.Face(f))
		switch {
		case r.Tiles[f] == 0:
			a[f] = time.Time{}
		case r.Tiles[f] > old.Tiles[f]:
			a[f] = earliest(since, came)
		case !came.IsZero():
			a[f] = came
		}
		if r.Tiles[f] < old.Tiles[f] {
			d[f] = earliest(since, movedAt(r.Left, tile.Face(f)))
		}
	}
}

// departedAt is when a tile of face f was last read leaving a rack zone (zero if never).
func (t *Tracker) departedAt(seat, rack int, z Zone, f tile.Face) time.Time {
	if d := t.departed[Place{seat, rack, z}]; d != nil {
		return d[f]
	}
	return time.Time{}
}

// arrivedAt is when a tile of face f was read arriving in a rack zone (its reading's time if
// unknown).
func (t *Tracker) arrivedAt(seat, rack int, z Zone, f tile.Face) time.Time {
	p := Place{seat, rack, z}
	if a := t.arrivalRead(p, f); !a.IsZero() {
		return a
	}
	return t.readings[p].At
}

// arrivalRead is when a reading of the zone first showed a tile of face f arrive (zero if none did).
func (t *Tracker) arrivalRead(p Place, f tile.Face) time.Time {
	if a := t.arrived[p]; a != nil {
		return a[f]
	}
	return time.Time{}
}

// Motion is what the racks say of their zones between settled readings.
type Motion struct {
	// Moving: reading otherwise than their last settled reading now (tiles in motion, a hand
	// over a rack, a tag flapping). Nothing is concluded about a seat from the racks' silence
	// (a drawn tile thrown before its rack settled) while one of its zones moves.
	Moving []Place
	// Changing: of those, the zones more likely than not holding otherwise (a tile in flight, a
	// judged change not yet settled). No rule is called broken while one of the seat's is.
	Changing []Place
	// Failing: zones with a reader down or reading under its warning rate, whose departures are
	// judged late. While one is, a rule is called broken only on racks still for Grace.
	Failing []Place
	// Reweighed: zones whose load cell weighs otherwise than their last settled reading (a tile
	// came or went that their tags have not settled yet). While a reader is failing, no rule
	// is called broken while one of the seat's is, for AskAfter at most.
	Reweighed []Place
}

// Moving takes the rack zones whose readings move now, for a rig that cannot tell a tag
// flapping from a tile in flight: each is taken to be changing too (see Motion).
func (t *Tracker) Moving(places []Place, at time.Time) []Step {
	return t.Motion(Motion{Moving: places, Changing: places}, at)
}

// Motion takes what the racks say of their zones now.
func (t *Tracker) Motion(m Motion, at time.Time) []Step {
	t.advance(at)
	if len(m.Moving)+len(m.Changing)+len(m.Failing)+len(m.Reweighed) == 0 && len(t.moving)+len(t.changing)+len(t.reweighed) == 0 && !t.failing {
		return nil
	}
	t.moving, t.changing, t.failing, t.reweighed = placeSet(m.Moving), placeSet(m.Changing), len(m.Failing) > 0, placeSet(m.Reweighed)
	return t.settle()
}

// placeSet is places as a set.
func placeSet(places []Place) map[Place]bool {
	set := make(map[Place]bool, len(places))
	for _, p := range places {
		set[p] = true
	}
	return set
}

// seatMoving reports whether any of a seat's rack zones moves now.
func (t *Tracker) seatMoving(seat int) bool { return seatIn(t.moving, seat) }

// seatIn reports whether places holds a zone of seat's.
func seatIn(places map[Place]bool, seat int) bool {
	for p := range places {
		if p.Seat == seat {
			return true
		}
	}
	return false
}

// Discard takes the camera's report of a tile arriving in or leaving the discard area.
func (t *Tracker) Discard(d DiscardReading) []Step {
	t.advance(d.At)
	t.debugf("%v camera: seen %v %v known %v", d.At.Format("15:04:05.000"), d.Seen, d.Face, d.Known)
	switch {
	case d.Seen && t.pay(&t.owedSeen, d):
	case d.Seen:
		t.seen = append(t.seen, d)
	case t.pay(&t.owedTaken, d):
	default:
		t.taken = append(t.taken, d)
	}
	return t.settle()
}

// owed is a camera event an act played without it is still to bring.
type owed struct {
	face tile.Face
	at   time.Time // when the act was played
}

// pay settles a debt with d when d is what one of them awaits: its face (or a face the camera
// could not name), within AskAfter of the act. Debts older than that are forgotten: the
// camera missed that tile.
func (t *Tracker) pay(debts *[]owed, d DiscardReading) bool {
	*debts = slices.DeleteFunc(*debts, func(o owed) bool { return d.At.Sub(o.at) > t.cfg.AskAfter })
	i := slices.IndexFunc(*debts, func(o owed) bool { return !d.Known || o.face == d.Face })
	if i < 0 {
		return false
	}
	*debts = slices.Delete(*debts, i, i+1)
	return true
}

// Camera takes the camera's health. While it fails, discards are asked about.
func (t *Tracker) Camera(c CameraStatus) []Step {
	t.advance(c.At)
	if !t.cfg.Camera {
		return nil
	}
	t.camera = c
	return t.settle()
}

// Tick tells the tracker the time: questions come due, grace periods and call windows end.
func (t *Tracker) Tick(now time.Time) []Step {
	t.advance(now)
	return t.settle()
}

func (t *Tracker) debugf(format string, args ...any) {
	if t.cfg.Debug != nil {
		t.cfg.Debug(format, args...)
	}
}

func (t *Tracker) advance(at time.Time) {
	if at.After(t.now) {
		t.now = at
	}
}

// settle plays every act the readings now explain, then the commands waiting on them, then
// reviews the questions.
func (t *Tracker) settle() []Step {
	var steps []Step
	for round := 0; round < 16 && t.state.Phase != game.PhaseOver; round++ {
		more := t.explainAndPlay()
		more = append(more, t.runCommands()...)
		if len(more) == 0 {
			break
		}
		steps = append(steps, more...)
	}
	if s, ok := t.wallEnd(); ok {
		steps = append(steps, s)
	}
	t.review()
	return steps
}

// play applies one act to the tracker's game.
func (t *Tracker) play(a game.Action, source string) (Step, error) {
	n, vs, err := game.Apply(t.state, a)
	if err != nil {
		return Step{}, err
	}
	t.undo.Played(t.state, a)
	t.state = n
	t.lastAct = t.now
	t.acted[a.Seat] = t.now
	return Step{Action: a, Verdicts: vs, Source: source, At: t.now}, nil
}

// takeBackDepth is how many of its last acts the tracker can take back.
const takeBackDepth = game.TakeBackDepth

// isRuledOut: a was refused or taken back, and its seat's racks have not changed since.
func (t *Tracker) isRuledOut(a game.Action) bool {
	at, ok := t.ruledOut[a.String()]
	return ok && !t.changed[a.Seat].After(at)
}

// takeBack takes back the last act played: the table never saw it, and its racks must change
// before it is read again.
func (t *Tracker) takeBack(source string) (Step, error) {
	st, last, err := t.undoLast(source)
	if err != nil {
		return st, err
	}
	t.ruledOut[last.String()] = t.changed[last.Seat]
	return st, nil
}

// undoLast takes back the last act played, last; the racks still show it, and read it again.
func (t *Tracker) undoLast(source string) (Step, game.Action, error) {
	last, ok := t.undo.Last()
	if !ok {
		return Step{}, last, fmt.Errorf("track: %w: none of the acts played since the table started is left to take back (it keeps the last %d)", game.ErrNothingToTakeBack, takeBackDepth)
	}
	a := game.Action{Seat: last.Seat, Act: game.ActTakeBack}
	n, vs, err := t.undo.TakeBack(t.state, a)
	if err != nil {
		return Step{}, last, fmt.Errorf("track: %w", err)
	}
	t.state = n
	t.lastAct = t.now
	t.debugf("took back %s", last.Notation())
	return Step{Action: a, Verdicts: vs, Source: source, At: t.now}, last, nil
}

// wallEnd ends a game whose used-up wall's last discard stayed uncalled for the call window.
func (t *Tracker) wallEnd() (Step, bool) {
	s := &t.state
	if t.cfg.CallWindow <= 0 || s.Phase != game.PhaseDraw || s.WallLeft > 0 || len(s.Discards) == 0 ||
		t.now.Sub(t.lastAct) < t.cfg.CallWindow || !t.tableMatches() {
		return Step{}, false
	}
	st, err := t.play(game.Action{Seat: s.Turn, Act: game.ActWallEnd}, "timer")
	return st, err == nil
}

// tableMatches reports whether every readable rack matches the game and no camera event is
// waiting to be explained.
func (t *Tracker) tableMatches() bool {
	if len(t.seen) > 0 || len(t.taken) > 0 {
		return false
	}
	exp := expected(&t.state)
	for seat := range exp {
		for r := range exp[seat] {
			d := t.diff(exp, seat, r+1)
			if d.readable && !d.empty() {
				return false
			}
		}
	}
	return true
}

// diff compares one rack's latest readings with the game.
func (t *Tracker) diff(exp [][2]expect, seat, rack int) rackDiff {
	var in, on *RackReading
	if r, ok := t.readings[Place{seat, rack, In}]; ok {
		in = &r
	}
	if r, ok := t.readings[Place{seat, rack, On}]; ok {
		on = &r
	}
	return diffRack(exp[seat][rack-1], in, on)
}

// cameraWorking reports whether discards can be confirmed by the camera now.
func (t *Tracker) cameraWorking() bool { return t.cfg.Camera && t.camera.Working }
