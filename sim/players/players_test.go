package players

import (
	"slices"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/configs"
	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/engine/track"
	hwconfig "github.com/siamesetable/siamesed/hw/config"
	"github.com/siamesetable/siamesed/hw/rack"
	"github.com/siamesetable/siamesed/hw/simtable"
	"github.com/siamesetable/siamesed/sim"
	"github.com/siamesetable/siamesed/sim/table"
)

// TestPlayersKnowTheirGameInAnyOrderOfAnExposure: the table may record a call's tiles in
// another order than the player laid them (8C J 8C for 8C 8C J), or two acts as one (two moves
// between racks read together). The players still know the table's record for their own game,
// and how far it goes, so they can put a stuck table right by hand; a record that really
// differs is not theirs.
func TestPlayersKnowTheirGameInAnyOrderOfAnExposure(t *testing.T) {
	rules, c, _ := siameseTable(t)
	for seed := uint64(1); seed < 200; seed++ {
		p := &Players{rules: rules, card: c.Card, game: "g", truth: sim.NewGame(rules, c.Card, seed, 0), base: game.New(rules, c.Card)}
		for !p.truth.Over() {
			turn, ok := p.truth.Next()
			if !ok {
				break
			}
			a := turn.Act
			if a.Act != game.ActCall || !slices.Contains(a.Tiles, tile.Joker) || a.Tiles[len(a.Tiles)-1] == a.Tiles[0] {
				continue
			}
			table := p.truth.State // as the table recorded it: the same call, its tiles reversed
			table.Seats = slices.Clone(table.Seats)
			rk := &table.Seats[a.Seat].Racks[a.Rack-1]
			rk.Exposures = slices.Clone(rk.Exposures)
			last := &rk.Exposures[len(rk.Exposures)-1]
			last.Tiles = slices.Clone(last.Tiles)
			slices.Reverse(last.Tiles)
			played := len(p.truth.Log())
			if n, same := p.SameSoFar(table); !same || n != played {
				t.Fatalf("seed %d: the table's record with %v laid as %v: the players' game %v, at %d acts of %d", seed, a.Tiles, last.Tiles, same, n, played)
			}
			// The same game recorded in one act fewer (two moves read as one).
			table.Seq--
			table.Warnings = slices.Clone(table.Warnings)
			for i := range table.Warnings {
				table.Warnings[i].Seq--
			}
			if n, same := p.SameSoFar(table); !same || n != played {
				t.Fatalf("seed %d: the game recorded in an act fewer: the players' game %v, at %d acts of %d", seed, same, n, played)
			}
			other := table
			other.Seats = slices.Clone(other.Seats)
			other.Seats[a.Seat].Racks[a.Rack-1].Concealed[tile.Dot1]++
			if _, same := p.SameSoFar(other); same {
				t.Fatalf("seed %d: a record with a tile more is the players' game", seed)
			}
			return
		}
	}
	t.Fatal("no game of 200 had a call with a joker")
}

// referee is a table's referee that never asks and never ends a game.
type referee struct{}

func (referee) Waiting() bool               { return false }
func (referee) GameID() string              { return "g" }
func (referee) Game() game.State            { return game.State{} }
func (referee) Played() int                 { return 0 }
func (referee) Questions() []track.Question { return nil }

// TestTwoHandsAtOnce: with Overlap, the next act's first movement is now and then made in the
// same step as the last movement of the act before (two players moving at once); without it,
// never. Either way the players' moves fit the physical table (no tile taken that is not there).
func TestTwoHandsAtOnce(t *testing.T) {
	rules, c, p := siameseTable(t)
	for _, overlap := range []float64{0, 0.3} {
		racks, err := simtable.New(p, simtable.Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		pl := New(Config{Seed: 3, Pace: 400 * time.Millisecond, Overlap: overlap}, c.Card, rules,
			[][2]string{{"p1a", "p1b"}, {"p2a", "p2b"}}, table.New(racks, nil))
		now, together := time.Date(2026, 11, 25, 22, 0, 0, 0, time.UTC), 0
		for range 600 {
			acts := 0
			if pl.truth != nil {
				acts = len(pl.truth.Log())
			}
			pace, _, err := pl.Step(referee{}, now, nil)
			if err != nil {
				t.Fatalf("overlap %v: %v", overlap, err)
			}
			if pl.truth != nil && len(pl.truth.Log()) >= acts+2 {
				together++
			}
			now = now.Add(pace)
		}
		if (overlap == 0) != (together == 0) || overlap > 0 && together < 10 {
			t.Errorf("overlap %v: two acts begun in one step %d times", overlap, together)
		}
	}
}

// cardReferee is a table whose game is played for another card than the players sat down with.
type cardReferee struct {
	referee
	game game.State
}

func (r cardReferee) Game() game.State { return r.game }

// TestPlayersDealForTheTablesCard: a table given another card (on the set-up page) after the
// players sat down has them deal its next game for that card; they have not dealt before.
func TestPlayersDealForTheTablesCard(t *testing.T) {
	rules, c, p := siameseTable(t)
	racks, err := simtable.New(p, simtable.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	pl := New(Config{Seed: 3, Pace: 400 * time.Millisecond}, c.Card, rules, [][2]string{{"p1a", "p1b"}, {"p2a", "p2b"}}, table.New(racks, nil))
	loaded, err := configs.LoadCard("") // the same card's text, another card: what the table was given
	if err != nil {
		t.Fatal(err)
	}
	other := loaded.Card
	if pl.Dealt() {
		t.Fatal("the players have dealt before their first step")
	}
	if _, _, err := pl.Step(cardReferee{game: game.New(rules, other)}, time.Date(2026, 11, 26, 1, 0, 0, 0, time.UTC), nil); err != nil {
		t.Fatal(err)
	}
	if !pl.Dealt() || pl.card != other {
		t.Fatalf("after a step: dealt %v, for the card the players sat down with %v", pl.Dealt(), pl.card == c.Card)
	}
}

// stuckReferee is a table stuck on a question its record cannot answer.
type stuckReferee struct {
	referee
	game game.State
	qs   []track.Question
}

func (r stuckReferee) Game() game.State            { return r.game }
func (r stuckReferee) Questions() []track.Question { return r.qs }

// TestStuckPlayersSayTheRacksAreRight: a table stuck on a question past answerAfter whose record
// has gone wrong (no act the players could enter by hand puts it right) hears once, from players
// whose hands are still, that the racks are right as they are, then, the record still wrong,
// that its last act is taken back; neither again at the same act count, and nothing while a
// hand is moving.
func TestStuckPlayersSayTheRacksAreRight(t *testing.T) {
	pl, now := fortyMovesIn(t)
	wrong := pl.truth.State
	wrong.Seats = slices.Clone(wrong.Seats)
	wrong.Seats[0].Racks[0].Concealed[tile.Dot1]++ // a record the players' game never was
	ref := stuckReferee{game: wrong, qs: []track.Question{{ID: 1, Text: "1D is missing", Since: now.Add(-time.Minute)}}}
	var said []track.Command
	say := func(c track.Command) error { said = append(said, c); return nil }
	pl.ops = []sim.Op{{Kind: sim.Put}}
	if _, err := pl.correct(ref, now, say); err != nil || len(said) != 0 {
		t.Fatalf("a hand still moving: said %+v (%v), want nothing", said, err)
	}
	pl.ops, pl.undo = nil, nil
	for range 3 {
		if _, err := pl.correct(ref, now, say); err != nil {
			t.Fatal(err)
		}
	}
	if len(said) != 2 || said[0].Kind != track.CmdRacksRight || said[1].Kind != track.CmdTakeBack {
		t.Fatalf("said %+v, want racks_right once, then take_back once", said)
	}
	if _, err := pl.correct(stuckReferee{game: wrong, qs: []track.Question{{ID: 1, Since: now}}}, now, say); err != nil || len(said) != 2 {
		t.Fatalf("a question just asked: said %+v (%v), want nothing more", said, err)
	}
}

// TestStuckPlayersGiveInToTheRecord: a table stuck past giveInAfter on a record nothing puts
// right (no act entered, the racks not reconciled, nothing left to take back) has the players
// put the tiles as its record has them and play on from it, once; the game then counts as not
// tracked exactly, and the faults before it are those of the game they had played.
func TestStuckPlayersGiveInToTheRecord(t *testing.T) {
	pl, now := fortyMovesIn(t)
	played := pl.truth.State
	record := played
	record.Seats = slices.Clone(record.Seats)
	record.Seats[0].Racks[0].Concealed[tile.Dot1]++ // a 1D the players never drew
	record.Warnings = append(slices.Clip(record.Warnings), game.Warning{Seq: record.Seq, Seat: 1, Kind: game.Infraction, Rule: "siamese turn"})
	refused := func(c track.Command) error {
		if c.Kind == track.CmdRacksRight {
			return track.ErrUnreconciled
		}
		return track.ErrCommand
	}
	stuck := func(since time.Duration) stuckReferee {
		return stuckReferee{game: record, qs: []track.Question{{ID: 1, Text: "a 1D stands in seat 0 rack 1", Since: now.Add(-since)}}}
	}
	for range 3 {
		if _, err := pl.correct(stuck(time.Minute), now, refused); err != nil {
			t.Fatal(err)
		}
	}
	if pl.gaveIn != nil {
		t.Fatal("gave in after a minute: before giveInAfter")
	}
	for range 3 {
		if _, err := pl.correct(stuck(giveInAfter+time.Second), now, refused); err != nil {
			t.Fatal(err)
		}
	}
	if pl.stats.TakenBack != 0 {
		t.Fatalf("%d acts counted taken back, where the table refused every take back", pl.stats.TakenBack)
	}
	if pl.gaveIn == nil || pl.stats.GaveIn != 1 || pl.truth.State.Digest() != record.Digest() {
		t.Fatalf("gave in %d times; their game is the record: %v", pl.stats.GaveIn, pl.truth.State.Digest() == record.Digest())
	}
	if _, same := pl.SameSoFar(record); !same {
		t.Fatal("after giving in, the players do not see the record as their game")
	}
	// The racks hold what the record has: seat 0's rack 1 its 1D more.
	if err := pl.table.Take("p1a", rack.In, record.Seats[0].Racks[0].Concealed.Faces()...); err != nil {
		t.Fatalf("seat 0 rack 1 does not hold the record's tiles: %v", err)
	}
	var st Stats
	err := st.Add(record, pl.truth.State, 0, pl.gaveIn)
	if err == nil || st.Exact != 0 || st.False != 1 {
		t.Fatalf("a game given in: %v, %+v; want it not exact, with the record's fault false", err, st)
	}
}

// TestPlayersObjectToAFaultTheyNeverCommitted: a record whose last act names a rule broken that
// the players' game does not have hears them take that act back at once, stuck or not, once for
// its act count; a record naming only what they did hears nothing.
func TestPlayersObjectToAFaultTheyNeverCommitted(t *testing.T) {
	pl, now := fortyMovesIn(t)
	var said []track.Command
	say := func(c track.Command) error { said = append(said, c); return nil }
	if _, err := pl.object(pl.truth.State, now, say); err != nil || len(said) != 0 {
		t.Fatalf("a record that is their game: said %+v (%v), want nothing", said, err)
	}
	record := pl.truth.State
	record.Warnings = append(slices.Clip(record.Warnings), game.Warning{Seq: record.Seq, Seat: 1, Kind: game.Infraction, Rule: "siamese turn"})
	for range 3 {
		if _, err := pl.object(record, now, say); err != nil {
			t.Fatal(err)
		}
	}
	if len(said) != 1 || said[0].Kind != track.CmdTakeBack || pl.stats.Objected != 1 {
		t.Fatalf("a fault never committed, named by the last act: said %+v, objected %d; want one take_back", said, pl.stats.Objected)
	}
	earlier := record
	earlier.Seq++ // the false fault named by an act before the last: not the last act's to take back
	if _, err := pl.object(earlier, now, say); err != nil || len(said) != 1 {
		t.Fatalf("a fault named by an earlier act: said %+v (%v), want nothing more", said, err)
	}
}

// TestRearrangedTakesBeforeItPuts: a tile the record has on another rack than the players is
// taken from where it stands before it is put where the record has it: the set may have no
// other tile of its face off the racks (real-rack seed 129 gave in on four 1Cs all racked).
func TestRearrangedTakesBeforeItPuts(t *testing.T) {
	rules, c, _ := siameseTable(t)
	from := game.New(rules, c.Card)
	from.Seats = slices.Clone(from.Seats)
	from.Seats[1].Racks[0].Concealed[tile.Crak1] = 4
	to := from
	to.Seats = slices.Clone(to.Seats)
	to.Seats[1].Racks[0].Concealed[tile.Crak1] = 3
	to.Seats[0].Racks[0].Concealed[tile.Crak1] = 1
	ops, err := rearranged(showing(&from), &to)
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) != 2 || ops[0].Kind != sim.Take || ops[0].Place.Seat != 1 || ops[1].Kind != sim.Put || ops[1].Place.Seat != 0 {
		t.Fatalf("rearranged %v, want the 1C taken from seat 1, then put on seat 0", ops)
	}
}

// TestGivingInStartsFromTheTilesAsTheyLie: the players give in to the record on a table whose
// tiles lie otherwise than their game has them (a tile laid beside an exposure that their game
// has standing in the rack). They move the tiles from where they are, and the table then holds
// the record; moved from where their game had them, the first take failed and stopped the run
// (real-rack seed 217).
func TestGivingInStartsFromTheTilesAsTheyLie(t *testing.T) {
	pl, now := fortyMovesIn(t)
	record := pl.truth.State
	record.Seats = slices.Clone(record.Seats)
	record.Seats[0].Racks[0].Concealed[tile.Dot1]++ // a 1D the players never drew
	standing := pl.truth.State.Seats[0].Racks[0].Concealed.Faces()[0]
	if err := pl.table.Take("p1a", rack.In, standing); err != nil {
		t.Fatal(err)
	}
	if err := pl.table.Put("p1a", rack.On, standing); err != nil { // laid down, though standing in their game
		t.Fatal(err)
	}
	pl.overAt = now.Add(-giveInAfter - time.Second)
	if gave, err := pl.giveIn(stuckReferee{game: record}, record, now); err != nil || !gave {
		t.Fatalf("gave in %v: %v", gave, err)
	}
	for r, name := range []string{"p1a", "p1b"} {
		rk := &record.Seats[0].Racks[r]
		for _, z := range []struct {
			zone rack.Zone
			want tile.Counts
		}{{rack.In, rk.Concealed}, {rack.On, lying(rk)}} {
			if got, err := pl.table.Racks().Contents(name, z.zone); err != nil || got != z.want {
				t.Errorf("%s %v holds %v (%v), want the record's %v", name, z.zone, got.Faces(), err, z.want.Faces())
			}
		}
	}
}

// showing is a table holding game s as the players lay it out, for rearranged.
func showing(s *game.State) func(sim.Place) (tile.Counts, error) {
	return func(at sim.Place) (tile.Counts, error) {
		rk := &s.Seats[at.Seat].Racks[at.Rack-1]
		if at.Zone == sim.On {
			return lying(rk), nil
		}
		return rk.Concealed, nil
	}
}

// TestPlayersTakeBackOnlyARecordThatIsNotTheirGame: a stuck table whose record is the players'
// game so far (behind it: the sensors missed their next act, which one act entered by hand
// would give) never hears them take an act back, however often they are asked.
func TestPlayersTakeBackOnlyARecordThatIsNotTheirGame(t *testing.T) {
	pl, now := fortyMovesIn(t)
	ref := stuckReferee{game: pl.truth.State, qs: []track.Question{{ID: 1, Text: "where did it go?", Since: now.Add(-time.Minute)}}}
	var said []track.Command
	say := func(c track.Command) error { said = append(said, c); return track.ErrUnreconciled }
	for range 3 {
		if _, err := pl.correct(ref, now, say); err != nil {
			t.Fatal(err)
		}
		ref.game.Seq++ // as if the table had moved on without a change the players see
	}
	for _, c := range said {
		if c.Kind == track.CmdTakeBack {
			t.Fatalf("said %+v: took back an act of a record that is their game", said)
		}
	}
	if len(said) == 0 {
		t.Fatal("said nothing: the test reaches neither the racks said right nor a take back")
	}
}

// fortyMovesIn is Siamese players on a simulated table, 40 movements into their first game
// with a table that never asks, and the table's time then.
func fortyMovesIn(t *testing.T) (*Players, time.Time) {
	t.Helper()
	rules, c, p := siameseTable(t)
	racks, err := simtable.New(p, simtable.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	pl := New(Config{Seed: 3, Pace: 400 * time.Millisecond}, c.Card, rules, [][2]string{{"p1a", "p1b"}, {"p2a", "p2b"}}, table.New(racks, nil))
	now := time.Date(2026, 11, 25, 22, 0, 0, 0, time.UTC)
	for range 40 {
		pace, _, err := pl.Step(referee{}, now, nil)
		if err != nil {
			t.Fatal(err)
		}
		now = now.Add(pace)
	}
	return pl, now
}

// siameseTable loads the Siamese rules, the default card and the simulated racks' profile.
func siameseTable(t *testing.T) (*game.Ruleset, configs.Card, *hwconfig.Profile) {
	t.Helper()
	rules, err := configs.LoadRuleset("siamese")
	if err != nil {
		t.Fatal(err)
	}
	c, err := configs.LoadCard("")
	if err != nil {
		t.Fatal(err)
	}
	p, err := hwconfig.Load("../../configs/hw/sim-pn532.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return rules, c, p
}

// TestStuckPlayersEnterTheActTheTableLeftOut: a table that recorded a move between racks but not
// the pick made just before it (real-rack seed 42: the pick was never read) holds the players'
// acts in another order. Stuck, the players enter the pick by hand, which puts the record on
// their game as played; they do not say the racks are right.
func TestStuckPlayersEnterTheActTheTableLeftOut(t *testing.T) {
	rules, c, _ := siameseTable(t)
	now := time.Date(2026, 11, 26, 17, 0, 0, 0, time.UTC)
	for seed := uint64(1); seed < 200; seed++ {
		p := &Players{rules: rules, card: c.Card, game: "g", truth: sim.NewGame(rules, c.Card, seed, 0), base: game.New(rules, c.Card)}
		var beforeDraw game.State
		var draw game.Action
		for !p.truth.Over() {
			before := p.truth.State
			turn, ok := p.truth.Next()
			if !ok {
				break
			}
			a := turn.Act
			if a.Act == game.ActDraw {
				beforeDraw, draw = before, a
				continue
			}
			if a.Act != game.ActMove || draw.Act != game.ActDraw || draw.Seat != a.Seat { // draw is the act just before: any other act clears it
				draw = game.Action{}
				continue
			}
			table, _, err := game.Apply(beforeDraw, a) // the move recorded, the pick not
			if err != nil {
				draw = game.Action{} // the move took the tile picked: no table records it first
				continue
			}
			if _, same := p.SameSoFar(table); same {
				t.Fatalf("seed %d: a record without the pick %v is the players' game", seed, draw)
			}
			var said []track.Command
			say := func(c track.Command) error { said = append(said, c); return nil }
			ref := stuckReferee{game: table, qs: []track.Question{{ID: 1, Text: draw.Tiles[0].String() + " stands in a rack", Since: now.Add(-time.Minute)}}}
			if _, err := p.correct(ref, now, say); err != nil {
				t.Fatal(err)
			}
			if len(said) != 1 || said[0].Kind != track.CmdAct || said[0].Action.Notation() != draw.Notation() {
				t.Fatalf("seed %d: the table left out %s before %s; the players said %+v, want the pick entered", seed, draw.Notation(), a.Notation(), said)
			}
			entered, _, err := game.Apply(table, *said[0].Action)
			if err != nil {
				t.Fatal(err)
			}
			if n, same := p.SameSoFar(entered); !same || n != len(p.truth.Log()) {
				t.Fatalf("seed %d: with the pick entered the record is the players' game %v, at %d acts of %d", seed, same, n, len(p.truth.Log()))
			}
			// A record holding far more acts than they played (a runaway of acts that never
			// were) has no act of theirs missing.
			runaway := table
			runaway.Seq = len(p.truth.Log()) + 2*replayWindow
			if a, ok := p.missing(runaway, p.truth.Log()); ok {
				t.Fatalf("seed %d: a record of %d acts, %d played: %s missing", seed, runaway.Seq, len(p.truth.Log()), a.Notation())
			}
			return
		}
	}
	t.Fatal("no game of 200 had a pick and then a move between racks by the same seat")
}
