package track

import (
	"container/heap"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/engine/card"
	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/sim"
)

// fakeTable is a table's tiles and sensors for the tracker's tests: hands move tiles (sim ops),
// and each rack zone reports a settled reading a little after it was last touched; the camera
// reports each tile arriving in or leaving the discard area. Readers see every tile standing in
// a rack, but only two tags of each group lying on it (the load cell counts them all).
type fakeTable struct {
	rng    *rand.Rand
	now    time.Time
	zones  map[Place]*zone
	events eventQueue
	noise  tableNoise
	seq    int
}

// tableNoise is what goes wrong: readings late by up to Jitter, a zone unreadable for a while,
// a discard the camera cannot name.
type tableNoise struct {
	Jitter     time.Duration
	Unreadable float64 // chance a settled reading is first reported incomplete
	Unknown    float64 // chance the camera cannot name a discard
	// Hurried: a player left alone at the table (the other seat dead) throws each tile as soon
	// as it is drawn, within one settle of the rack.
	Hurried bool
}

type zone struct {
	tiles   tile.Counts
	groups  [][]tile.Face // on zone: each exposure laid as a group
	touched time.Time
	// reported is what the zone's last reading said; fewer and more date the faces a hand
	// took from it or put in since (the sensors' readings before the zone settled). A tile put
	// in after one of its face was taken is another tile (its tag is new): more dates it though
	// the zone holds no more of the face than it reported.
	reported    tile.Counts
	fewer, more [tile.NumFaces]time.Time
}

// swapped: a tile of face f was taken from the zone since its last reading and another of the
// face put in after it.
func (z *zone) swapped(f int) bool {
	return !z.fewer[f].IsZero() && !z.more[f].IsZero() && !z.more[f].Before(z.fewer[f])
}

// noteMoves dates what a hand just changed in the zone against its last reading.
func (z *zone) noteMoves(now time.Time) {
	for f := range z.tiles {
		if z.tiles[f] < z.reported[f] && z.fewer[f].IsZero() {
			z.fewer[f] = now
		}
		if z.tiles[f] > z.reported[f] && z.more[f].IsZero() {
			z.more[f] = now
		}
	}
}

func newFakeTable(seed uint64, noise tableNoise) *fakeTable {
	return &fakeTable{rng: rand.New(rand.NewPCG(seed, 7)), now: time.Unix(1_800_000_000, 0), zones: map[Place]*zone{}, noise: noise}
}

func (ft *fakeTable) zone(p Place) *zone {
	z := ft.zones[p]
	if z == nil {
		z = &zone{}
		ft.zones[p] = z
	}
	return z
}

// do performs one op at the table's current time, queueing what the sensors will report.
func (ft *fakeTable) do(o sim.Op) {
	p := Place{Seat: o.Place.Seat, Rack: o.Place.Rack, Zone: Zone(o.Place.Zone)}
	switch o.Kind {
	case sim.Put:
		z := ft.zone(p)
		for _, f := range o.Tiles {
			z.tiles[f]++
			if !z.fewer[f].IsZero() && z.more[f].IsZero() {
				z.more[f] = ft.now
			}
		}
		if p.Zone == On {
			z.groups = append(z.groups, append([]tile.Face(nil), o.Tiles...))
		}
		z.noteMoves(ft.now)
		ft.touch(p)
	case sim.Take:
		z := ft.zone(p)
		c, _ := tile.CountsOf(o.Tiles)
		if !z.tiles.Sub(&c) {
			panic("fake table: taking tiles that are not there: " + o.String())
		}
		if p.Zone == On {
			z.groups = takeFromGroups(z.groups, o.Tiles)
		}
		z.noteMoves(ft.now)
		ft.touch(p)
	case sim.Discard, sim.TakeDiscard:
		d := DiscardReading{Seen: o.Kind == sim.Discard, Face: o.Tiles[0], Known: ft.rng.Float64() >= ft.noise.Unknown}
		ft.push(ft.now.Add(300*time.Millisecond+ft.jitter()), d)
	case sim.Say:
		c := Command{Seat: o.Seat, Kind: CmdMahJongg, Rack: o.Rack}
		switch o.Command {
		case "wall_game":
			c.Kind = CmdWallGame
		case "act": // entered by hand: a roll of the die
			c.Kind, c.Rack, c.Action = CmdAct, 0, o.Act
		}
		ft.push(ft.now, c)
	}
}

// touch schedules the settled reading of a zone: 300 ms after its last touch, plus jitter.
func (ft *fakeTable) touch(p Place) {
	z := ft.zone(p)
	z.touched = ft.now
	ft.push(ft.now.Add(300*time.Millisecond+ft.jitter()), p)
}

func (ft *fakeTable) jitter() time.Duration {
	if ft.noise.Jitter <= 0 {
		return 0
	}
	return time.Duration(ft.rng.Int64N(int64(ft.noise.Jitter)))
}

// reading is what the sensors of a zone report now.
func (ft *fakeTable) reading(p Place) RackReading {
	z := ft.zone(p)
	r := RackReading{Place: p, Count: z.tiles.Total(), CountKnown: true, Complete: true, At: ft.now, Since: z.touched}
	if p.Zone == In {
		r.Tiles = z.tiles
		for f := range z.tiles {
			if z.tiles[f] < z.reported[f] || z.swapped(f) {
				r.Left = append(r.Left, Moved{tile.Face(f), z.fewer[f]})
			}
			if z.tiles[f] > z.reported[f] || z.swapped(f) {
				r.Came = append(r.Came, Moved{tile.Face(f), z.more[f]})
			}
		}
		return r
	}
	for _, g := range z.groups { // two tags of each group are in a reader's range
		for i, f := range g {
			if i < 2 {
				r.Tiles[f]++
			}
		}
	}
	r.Complete = r.Tiles.Total() == r.Count
	return r
}

func takeFromGroups(gs [][]tile.Face, fs []tile.Face) [][]tile.Face {
	for _, f := range fs {
		for gi := len(gs) - 1; gi >= 0; gi-- {
			if i := indexOf(gs[gi], f); i >= 0 {
				gs[gi] = append(gs[gi][:i:i], gs[gi][i+1:]...)
				break
			}
		}
	}
	out := gs[:0]
	for _, g := range gs {
		if len(g) > 0 {
			out = append(out, g)
		}
	}
	return out
}

func indexOf(fs []tile.Face, f tile.Face) int {
	for i, x := range fs {
		if x == f {
			return i
		}
	}
	return -1
}

// event is something the tracker will be told at a time.
type event struct {
	at  time.Time
	seq int
	v   any // Place (a zone to read), DiscardReading, Command
}

func (ft *fakeTable) push(at time.Time, v any) {
	ft.seq++
	heap.Push(&ft.events, event{at: at, seq: ft.seq, v: v})
}

type eventQueue []event

func (q eventQueue) Len() int { return len(q) }
func (q eventQueue) Less(i, j int) bool {
	if q[i].at.Equal(q[j].at) {
		return q[i].seq < q[j].seq
	}
	return q[i].at.Before(q[j].at)
}
func (q eventQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *eventQueue) Push(x any)   { *q = append(*q, x.(event)) }
func (q *eventQueue) Pop() any {
	old := *q
	e := old[len(old)-1]
	*q = old[:len(old)-1]
	return e
}

// runUntil delivers every event due by until to the tracker, ticking it as time passes.
func (ft *fakeTable) runUntil(tr *Tracker, until time.Time) []Step {
	var steps []Step
	for ft.events.Len() > 0 && !ft.events[0].at.After(until) {
		e := heap.Pop(&ft.events).(event)
		ft.now = e.at
		switch v := e.v.(type) {
		case Place:
			z := ft.zone(v)
			if ft.now.Sub(z.touched) < 300*time.Millisecond {
				continue // touched again since: a later reading is queued
			}
			r := ft.reading(v)
			if v.Zone == In && r.Tiles.Total() > 0 && ft.rng.Float64() < ft.noise.Unreadable {
				bad := r
				bad.Complete, bad.Problem = false, "reader in-03 silent"
				bad.Tiles[r.Tiles.Faces()[0]]--
				steps = append(steps, tr.Rack(bad)...)
				ft.push(ft.now.Add(200*time.Millisecond+ft.jitter()), v)
				continue
			}
			steps = append(steps, tr.Rack(r)...)
			z.reported, z.fewer, z.more = z.tiles, [tile.NumFaces]time.Time{}, [tile.NumFaces]time.Time{}
		case DiscardReading:
			v.At = ft.now
			steps = append(steps, tr.Discard(v)...)
		case Command:
			v.At = ft.now
			st, err := tr.Command(v)
			if err == nil {
				steps = append(steps, st...)
			}
		}
	}
	if until.After(ft.now) {
		ft.now = until
	}
	return append(steps, tr.Tick(ft.now)...)
}

// dealtTable is a two-seat game just dealt (racks: seat 0 rack 1, seat 0 rack 2, seat 1 rack 1,
// seat 1 rack 2), laid out on a fake table that has settled, and its tracker.
func dealtTable(t *testing.T, r *game.Ruleset, c *card.Card, racks [4]string) (*fakeTable, *Tracker) {
	t.Helper()
	s := game.New(r, c)
	for i, tiles := range racks {
		fs, err := tile.ParseList(tiles)
		if err != nil {
			t.Fatal(err)
		}
		n, _, err := game.Apply(s, game.Action{Seat: i / 2, Act: game.ActDeal, Tiles: fs, Rack: i%2 + 1})
		if err != nil {
			t.Fatal(err)
		}
		s = n
	}
	ft := newFakeTable(1, tableNoise{})
	for _, o := range sim.Layout(&s) {
		ft.do(o)
	}
	cfg := DefaultConfig()
	// SIAMESED_TRACK_DEBUG=1 prints the tracker's debug log (its candidates, what it held and why).
	if os.Getenv("SIAMESED_TRACK_DEBUG") != "" {
		cfg.Debug = func(f string, a ...any) { fmt.Printf(f+"\n", a...) }
	}
	tr := New(cfg, s)
	if steps := ft.runUntil(tr, ft.now.Add(2*time.Second)); len(steps) != 0 {
		t.Fatalf("the table as dealt played %v", acts(steps))
	}
	return ft, tr
}
