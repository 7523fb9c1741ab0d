package track

import (
	"strings"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/sim"
)

// TestMahJonggThenADiscardFromTheOtherRack: East gathers the last tile of a hand from rack 2
// into rack 1, says "Mah Jongg!",
// lays the hand down and throws a tile from rack 2 to end the turn (siamese
// 10). The racks read the tile gone before the camera sees it land; the declaration is judged
// on the racks with it gone, and the discard follows it.
func TestMahJonggThenADiscardFromTheOtherRack(t *testing.T) {
	ft, tr := dealtTable(t, loadRules(t, "siamese"), loadCard(t), [4]string{
		"F F F F 1B 1B 1B 1C 1C 1C 1D 1D 1D 8B",
		"1D 2B 2B 2B 3B 3B 3B 4B 4B 4B 5B 5B 6B 6B",
		"2D 2D 2D 3D 3D 3D 4D 4D 4D 5D 5D 5D 6D",
		"E E E S S S W W W N N N RD RD",
	})
	seat0 := []Place{{0, 1, In}, {0, 1, On}, {0, 2, In}}
	var steps []Step
	step := func(ops ...sim.Op) {
		for _, o := range ops {
			ft.do(o)
		}
		steps = append(steps, ft.runUntil(tr, ft.now.Add(100*time.Millisecond))...)
		steps = append(steps, tr.Moving(seat0, ft.now)...) // the hardware: these zones are changing
	}
	// East throws, West picks and throws, East picks: East to discard.
	eastThrowsWestPlays(ft, tr, take(0, 1, sim.In, "8B"), "9C")
	hands(ft, tr, 2*time.Second, put(0, 2, sim.In, "7B"))
	if s := tr.State(); s.Turn != 0 || s.Phase != game.PhaseDiscard {
		t.Fatalf("before: seat %d to %s", s.Turn, s.Phase)
	}
	step(take(0, 2, sim.In, "1D"))
	step(put(0, 1, sim.In, "1D"))
	st, err := tr.Command(Command{Seat: 0, Kind: CmdMahJongg, Rack: 1, At: ft.now})
	if err != nil {
		t.Fatal(err)
	}
	steps = append(steps, st...)
	step(take(0, 2, sim.In, "7B")) // the tile to throw in hand: rack 2 reads it gone before it lands
	hand, _ := tile.ParseList("F F F F 1B 1B 1B 1C 1C 1C 1D 1D 1D 1D")
	step(sim.Op{Kind: sim.Take, Place: sim.Place{Seat: 0, Rack: 1, Zone: sim.In}, Tiles: hand}, sim.Op{Kind: sim.Put, Place: sim.Place{Seat: 0, Rack: 1, Zone: sim.On}, Tiles: hand})
	for i := range 8 { // the zones settle 300 ms after they were last touched
		steps = append(steps, ft.runUntil(tr, ft.now.Add(100*time.Millisecond))...)
		if i < 3 {
			steps = append(steps, tr.Moving(seat0, ft.now)...)
		} else {
			steps = append(steps, tr.Moving(nil, ft.now)...)
		}
	}
	ft.do(sim.Op{Kind: sim.Discard, Tiles: []tile.Face{face("7B")}})
	for range 50 {
		steps = append(steps, tr.Moving(nil, ft.now)...)
		steps = append(steps, ft.runUntil(tr, ft.now.Add(100*time.Millisecond))...)
	}
	want := []game.Action{
		{Seat: 0, Act: game.ActMove, Tiles: []tile.Face{face("1D")}, Rack: 2, To: 1},
		{Seat: 0, Act: game.ActMahJongg, Rack: 1},
		{Seat: 0, Act: game.ActDiscard, Tiles: []tile.Face{face("7B")}, Rack: 2},
	}
	if len(steps) != len(want) {
		t.Fatalf("acts %v, want %v (questions %+v)", acts(steps), want, tr.Questions())
	}
	for i, s := range steps {
		if s.Action.String() != want[i].String() || game.HasFaults(s.Verdicts) {
			t.Fatalf("acts %v, want %v, none faulty", acts(steps), want)
		}
	}
}

// TestAPickReadAfterMahJonggIsPlayedFirst: East picks the tile that completes its hand and
// says "Mah Jongg!" while still settling it in the rack, so the rack reads the pick after the
// declaration; then East lays the hand down. The pick is played, then the declaration: a pick
// held back behind the declaration it completes would leave the table stuck.
func TestAPickReadAfterMahJonggIsPlayedFirst(t *testing.T) {
	ft, tr := dealtTable(t, loadRules(t, "siamese"), loadCard(t), [4]string{
		"F F F F 1B 1B 1B 1C 1C 1C 1D 1D 1D 8B",
		"2B 2B 2B 3B 3B 3B 4B 4B 4B 5B 5B 6B 6B 7B",
		"2D 2D 2D 3D 3D 3D 4D 4D 4D 5D 5D 5D 6D",
		"E E E S S S W W W N N N RD RD",
	})
	eastThrowsWestPlays(ft, tr, take(0, 1, sim.In, "8B"), "9C")
	if s := tr.State(); s.Turn != 0 || s.Phase != game.PhaseDraw {
		t.Fatalf("before: seat %d to %s", s.Turn, s.Phase)
	}
	seat0 := []Place{{0, 1, In}, {0, 1, On}}
	var steps []Step
	ft.do(put(0, 1, sim.In, "1D"))
	steps = append(steps, ft.runUntil(tr, ft.now.Add(100*time.Millisecond))...)
	steps = append(steps, tr.Moving(seat0, ft.now)...)
	st, err := tr.Command(Command{Seat: 0, Kind: CmdMahJongg, Rack: 1, At: ft.now})
	if err != nil {
		t.Fatal(err)
	}
	steps = append(steps, st...)
	steps = append(steps, ft.runUntil(tr, ft.now.Add(50*time.Millisecond))...)
	ft.touch(Place{0, 1, In}) // still squaring the tile in the rack
	steps = append(steps, ft.runUntil(tr, ft.now.Add(400*time.Millisecond))...)
	hand, _ := tile.ParseList("F F F F 1B 1B 1B 1C 1C 1C 1D 1D 1D 1D")
	ft.do(sim.Op{Kind: sim.Take, Place: sim.Place{Seat: 0, Rack: 1, Zone: sim.In}, Tiles: hand})
	ft.do(sim.Op{Kind: sim.Put, Place: sim.Place{Seat: 0, Rack: 1, Zone: sim.On}, Tiles: hand})
	for i := range 60 {
		steps = append(steps, ft.runUntil(tr, ft.now.Add(100*time.Millisecond))...)
		if i < 3 {
			steps = append(steps, tr.Moving(seat0, ft.now)...)
		} else {
			steps = append(steps, tr.Moving(nil, ft.now)...)
		}
	}
	want := []string{
		act(game.Action{Seat: 0, Act: game.ActDraw, Tiles: []tile.Face{face("1D")}, Rack: 1}, game.Applied),
		act(game.Action{Seat: 0, Act: game.ActMahJongg, Rack: 1}, game.Applied),
	}
	if got := acts(steps); len(got) != 2 || got[0] != want[0] || !strings.HasPrefix(got[1], `{"seat":0,"act":"mahjong","rack":1}`) || game.HasFaults(steps[1].Verdicts) {
		t.Fatalf("acts %v, want %v (questions %+v)", got, want, tr.Questions())
	}
}

// TestMahJonggWaitsForAnEarlierQuestion: East picks a tile and throws it at once, and the camera
// cannot name it: the table asks. West plays on, and East picks the tile that completes its
// hand and says "Mah Jongg!", all before anyone answers. The declaration waits for the answer:
// judged on the game as it stood (West to pick), it would be a false "not in one's own turn".
func TestMahJonggWaitsForAnEarlierQuestion(t *testing.T) {
	ft, tr := dealtTable(t, loadRules(t, "siamese"), loadCard(t), [4]string{
		"F F F F 1B 1B 1B 1C 1C 1C 1D 1D 1D 8B",
		"2B 2B 2B 3B 3B 3B 4B 4B 4B 5B 5B 6B 6B 7B",
		"2D 2D 2D 3D 3D 3D 4D 4D 4D 5D 5D 5D 6D",
		"E E E S S S W W W N N N RD RD",
	})
	eastThrowsWestPlays(ft, tr, take(0, 1, sim.In, "8B"), "9C")
	ft.noise.Unknown = 1
	steps := hands(ft, tr, 8*time.Second, sim.Op{Kind: sim.Discard, Tiles: []tile.Face{face("9B")}}) // East: picked, thrown
	ft.noise.Unknown = 0
	if len(tr.Questions()) == 0 {
		t.Fatalf("no question about the tile the camera could not name (acts %v)", acts(steps))
	}
	steps = append(steps, hands(ft, tr, 2*time.Second, put(1, 1, sim.In, "7C"))...)
	steps = append(steps, hands(ft, tr, 2*time.Second, take(1, 1, sim.In, "7C"), sim.Op{Kind: sim.Discard, Tiles: []tile.Face{face("7C")}})...)
	steps = append(steps, hands(ft, tr, time.Second, put(0, 1, sim.In, "1D"))...)
	st, err := tr.Command(Command{Seat: 0, Kind: CmdMahJongg, Rack: 1, At: ft.now})
	if err != nil {
		t.Fatal(err)
	}
	steps = append(steps, st...)
	steps = append(steps, hands(ft, tr, 10*time.Second)...)
	if len(steps) != 0 {
		t.Fatalf("played %v before the question was answered", acts(steps))
	}
	// A player enters East's pick and throw by hand; the table catches up.
	for _, a := range []game.Action{
		{Seat: 0, Act: game.ActDraw, Tiles: []tile.Face{face("9B")}, Rack: 1},
		{Seat: 0, Act: game.ActDiscard, Tiles: []tile.Face{face("9B")}, Rack: 1},
	} {
		st, err := tr.Command(Command{Seat: 0, Kind: CmdAct, Action: &a, At: ft.now})
		if err != nil {
			t.Fatal(err)
		}
		steps = append(steps, st...)
	}
	hand, _ := tile.ParseList("F F F F 1B 1B 1B 1C 1C 1C 1D 1D 1D 1D")
	steps = append(steps, hands(ft, tr, 10*time.Second, sim.Op{Kind: sim.Take, Place: sim.Place{Seat: 0, Rack: 1, Zone: sim.In}, Tiles: hand},
		sim.Op{Kind: sim.Put, Place: sim.Place{Seat: 0, Rack: 1, Zone: sim.On}, Tiles: hand})...)
	var got []string
	for _, s := range steps {
		if game.HasFaults(s.Verdicts) {
			t.Errorf("%v broke a rule: %v", s.Action, s.Verdicts)
		}
		got = append(got, s.Action.String())
	}
	if n := len(got); n < 2 || got[n-2] != (game.Action{Seat: 0, Act: game.ActDraw, Tiles: []tile.Face{face("1D")}, Rack: 1}).String() ||
		!strings.HasPrefix(got[n-1], `{"seat":0,"act":"mahjong","rack":1`) {
		t.Fatalf("acts %v, want East's pick of 1D and its Mah Jongg last (questions %+v)", got, tr.Questions())
	}
}

// TestMahJonggBeforeAThrowOfAGatheredFace: East gathers a flower from rack 2 into rack 1 and lays
// the hand down at once (rack 1 never reads the flower standing in it), says "Mah Jongg!", then
// throws rack 2's other flower, while rack 2 is still being straightened (its reading of the throw
// late). Rack 2's reading of the gathered flower gone came before the declaration; the throw landed
// after it. The declaration is judged first, the throw after: a seat's throw is dated by its
// landing, and taken for a discard dated by the gathered tile's departure, it was played first
// and the declaration waited for a picture that never came (a table stuck: seed 10 at 20% of
// tag reads lost).
func TestMahJonggBeforeAThrowOfAGatheredFace(t *testing.T) {
	ft, tr := dealtTable(t, loadRules(t, "siamese"), loadCard(t), [4]string{
		"F F F 1B 1B 1B 1C 1C 1C 1D 1D 1D 1D 8B",
		"F F 2B 2B 2B 3B 3B 3B 4B 4B 4B 5B 5B 6B",
		"2D 2D 2D 3D 3D 3D 4D 4D 4D 5D 5D 5D 6D",
		"E E E S S S W W W N N N RD RD",
	})
	eastThrowsWestPlays(ft, tr, take(0, 1, sim.In, "8B"), "9C")
	hands(ft, tr, 2*time.Second, put(0, 2, sim.In, "7B"))
	if s := tr.State(); s.Turn != 0 || s.Phase != game.PhaseDiscard {
		t.Fatalf("before: seat %d to %s", s.Turn, s.Phase)
	}
	rack1 := []Place{{0, 1, In}, {0, 1, On}}
	var steps []Step
	run := func(d time.Duration, moving []Place) {
		for end := ft.now.Add(d); ft.now.Before(end); {
			steps = append(steps, ft.runUntil(tr, ft.now.Add(100*time.Millisecond))...)
			steps = append(steps, tr.Moving(moving, ft.now)...)
		}
	}
	hand, _ := tile.ParseList("F F F F 1B 1B 1B 1C 1C 1C 1D 1D 1D 1D")
	ft.do(take(0, 2, sim.In, "F"))
	ft.do(put(0, 1, sim.In, "F"))
	ft.do(sim.Op{Kind: sim.Take, Place: sim.Place{Seat: 0, Rack: 1, Zone: sim.In}, Tiles: hand})
	ft.do(sim.Op{Kind: sim.Put, Place: sim.Place{Seat: 0, Rack: 1, Zone: sim.On}, Tiles: hand})
	for range 6 { // rack 2 settles; rack 1 is still being laid out
		ft.touch(rack1[1])
		run(100*time.Millisecond, rack1)
	}
	st, err := tr.Command(Command{Seat: 0, Kind: CmdMahJongg, Rack: 1, At: ft.now})
	if err != nil {
		t.Fatal(err)
	}
	steps = append(steps, st...)
	ft.do(take(0, 2, sim.In, "F"))
	ft.do(sim.Op{Kind: sim.Discard, Tiles: []tile.Face{face("F")}})
	rack2 := []Place{{0, 2, In}}
	for range 15 { // rack 2 straightened for a second and a half after the throw
		ft.touch(rack2[0])
		run(100*time.Millisecond, append(rack2, rack1...))
	}
	run(10*time.Second, nil)
	want := []string{
		(game.Action{Seat: 0, Act: game.ActMove, Tiles: []tile.Face{face("F")}, Rack: 2, To: 1}).String(),
		(game.Action{Seat: 0, Act: game.ActMahJongg, Rack: 1}).String(),
		(game.Action{Seat: 0, Act: game.ActDiscard, Tiles: []tile.Face{face("F")}, Rack: 2}).String(),
	}
	var got []string
	for _, s := range steps {
		got = append(got, s.Action.String())
	}
	if len(got) != len(want) {
		t.Fatalf("acts %v, want %v (questions %+v)", acts(steps), want, tr.Questions())
	}
	for i := range want {
		if !strings.HasPrefix(got[i], strings.TrimSuffix(want[i], "}")) {
			t.Fatalf("acts %v, want %v (questions %+v)", acts(steps), want, tr.Questions())
		}
	}
}

// TestAPickWaitsForTheDeclarationAndTheThrowBeforeIt: East says "Mah Jongg!" on rack 1 and
// throws from rack 2 while still laying the hand down; West picks as soon as the throw lands.
// The throw waits for the declaration to be judged, and West's pick waits for the throw: played
// before it, the pick would be a pick ahead of East's discard (a false infraction, seed 10 at
// 20% of tag reads lost).
func TestAPickWaitsForTheDeclarationAndTheThrowBeforeIt(t *testing.T) {
	ft, tr := dealtTable(t, loadRules(t, "siamese"), loadCard(t), [4]string{
		"F F F F 1B 1B 1B 1C 1C 1C 1D 1D 1D 8B",
		"1D 2B 2B 2B 3B 3B 3B 4B 4B 4B 5B 5B 6B 6B",
		"2D 2D 2D 3D 3D 3D 4D 4D 4D 5D 5D 5D 6D",
		"E E E S S S W W W N N N RD RD",
	})
	eastThrowsWestPlays(ft, tr, take(0, 1, sim.In, "8B"), "9C")
	hands(ft, tr, 2*time.Second, put(0, 2, sim.In, "7B"))
	hand, _ := tile.ParseList("F F F F 1B 1B 1B 1C 1C 1C 1D 1D 1D 1D")
	laying := []Place{{0, 1, In}, {0, 1, On}}
	ft.do(take(0, 2, sim.In, "1D"))
	ft.do(put(0, 1, sim.In, "1D"))
	ft.do(sim.Op{Kind: sim.Take, Place: sim.Place{Seat: 0, Rack: 1, Zone: sim.In}, Tiles: hand})
	ft.do(sim.Op{Kind: sim.Put, Place: sim.Place{Seat: 0, Rack: 1, Zone: sim.On}, Tiles: hand})
	steps := tr.Moving(laying, ft.now)
	st, err := tr.Command(Command{Seat: 0, Kind: CmdMahJongg, Rack: 1, At: ft.now})
	if err != nil {
		t.Fatal(err)
	}
	steps = append(steps, st...)
	ft.do(take(0, 2, sim.In, "7B"))
	ft.do(sim.Op{Kind: sim.Discard, Tiles: []tile.Face{face("7B")}})
	for i := range 30 { // East straightens the hand for three seconds; West picks at once
		if i == 4 {
			ft.do(put(1, 1, sim.In, "7C"))
		}
		ft.touch(laying[1])
		steps = append(steps, ft.runUntil(tr, ft.now.Add(100*time.Millisecond))...)
		steps = append(steps, tr.Moving(laying, ft.now)...)
	}
	steps = append(steps, hands(ft, tr, 5*time.Second)...)
	want := []string{
		(game.Action{Seat: 0, Act: game.ActMove, Tiles: []tile.Face{face("1D")}, Rack: 2, To: 1}).String(),
		(game.Action{Seat: 0, Act: game.ActMahJongg, Rack: 1}).String(),
		(game.Action{Seat: 0, Act: game.ActDiscard, Tiles: []tile.Face{face("7B")}, Rack: 2}).String(),
		(game.Action{Seat: 1, Act: game.ActDraw, Tiles: []tile.Face{face("7C")}, Rack: 1}).String(),
	}
	if len(steps) != len(want) {
		t.Fatalf("acts %v, want %v (questions %+v)", acts(steps), want, tr.Questions())
	}
	for i, s := range steps {
		if !strings.HasPrefix(s.Action.String(), strings.TrimSuffix(want[i], "}")) || game.HasFaults(s.Verdicts) {
			t.Fatalf("acts %v, want %v, none faulty", acts(steps), want)
		}
	}
}

// TestADeclarationTheRacksDoNotShowWaits: East says "Mah Jongg!" and lays down rack 1's hand
// with a tile from rack 2 on it besides, so the racks show neither the game before the
// declaration nor after it. The table does not judge it on a guess (a false "Mah Jongg in
// error", on a seed at 20% of tag reads lost, that took the record off the game for good): it
// waits and asks, however long.
func TestADeclarationTheRacksDoNotShowWaits(t *testing.T) {
	ft, tr := dealtTable(t, loadRules(t, "siamese"), loadCard(t), [4]string{
		"F F F F 1B 1B 1B 1C 1C 1C 1D 1D 1D 8B",
		"1D 2B 2B 2B 3B 3B 3B 4B 4B 4B 5B 5B 6B 6B",
		"2D 2D 2D 3D 3D 3D 4D 4D 4D 5D 5D 5D 6D",
		"E E E S S S W W W N N N RD RD",
	})
	eastThrowsWestPlays(ft, tr, take(0, 1, sim.In, "8B"), "9C")
	hands(ft, tr, 2*time.Second, put(0, 2, sim.In, "7B"))
	hand, _ := tile.ParseList("F F F F 1B 1B 1B 1C 1C 1C 1D 1D 1D")
	withOther, _ := tile.ParseList("F F F F 1B 1B 1B 1C 1C 1C 1D 1D 1D 1D 7B")
	steps := hands(ft, tr, time.Second, take(0, 2, sim.In, "1D"), take(0, 2, sim.In, "7B"),
		sim.Op{Kind: sim.Take, Place: sim.Place{Seat: 0, Rack: 1, Zone: sim.In}, Tiles: hand},
		sim.Op{Kind: sim.Put, Place: sim.Place{Seat: 0, Rack: 1, Zone: sim.On}, Tiles: withOther})
	st, err := tr.Command(Command{Seat: 0, Kind: CmdMahJongg, Rack: 1, At: ft.now})
	if err != nil {
		t.Fatal(err)
	}
	steps = append(steps, st...)
	steps = append(steps, hands(ft, tr, 30*time.Second)...)
	if len(steps) != 0 {
		t.Fatalf("judged on racks that show neither game: %v (source %s)", acts(steps), steps[0].Source)
	}
	if len(tr.Questions()) == 0 {
		t.Fatal("no question about the racks")
	}
}
