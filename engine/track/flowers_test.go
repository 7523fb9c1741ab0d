package track

import (
	"slices"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/sim"
)

// TestWrightPattersonGamesAreTracked: whole Wright-Patterson games (rolls entered by hand,
// flowers exchanged in turn after the deal and in play, bouquets, limit hands) played at a
// fake table with late readings, unreadable zones and unnamed discards: the tracker plays the
// same game from the readings alone, every flower exchange included, and names no fault nobody
// committed; with rules broken on purpose it names exactly those.
func TestWrightPattersonGamesAreTracked(t *testing.T) {
	games := 10
	if testing.Short() {
		games = 3
	}
	c := loadCardFile(t, "wright-patterson-example.yaml")
	var flowers, bouquets int
	for _, tc := range []struct {
		name   string
		faults float64
		noise  tableNoise
	}{
		{"noisy", 0, tableNoise{Jitter: 400 * time.Millisecond, Unreadable: 0.03, Unknown: 0.1}},
		{"faults", 0.03, tableNoise{Jitter: 200 * time.Millisecond}},
	} {
		for seed := uint64(1); seed <= uint64(games); seed++ {
			p := playTrackedCard(t, "wright-patterson-siamese", c, seed, tc.faults, tc.noise)
			got, want := p.tracker.State(), p.truth.State
			if err := sameGame(got, want); err != nil {
				t.Fatalf("%s seed %d: %v\nquestions: %+v", tc.name, seed, err, p.tracker.Questions())
			}
			for i := range want.Seats {
				for r := range want.Seats[i].Racks {
					if g, w := got.Seats[i].Racks[r].Flowers, want.Seats[i].Racks[r].Flowers; g != w {
						t.Fatalf("%s seed %d: seat %d rack %d: %d flowers tracked, %d laid", tc.name, seed, i, r+1, g, w)
					}
				}
			}
			if got.Prevailing != want.Prevailing || got.EastRoll != want.EastRoll {
				t.Fatalf("%s seed %d: rolls tracked %v/%d, played %v/%d", tc.name, seed, got.EastRoll, got.Prevailing, want.EastRoll, want.Prevailing)
			}
			if n, committed := faultsOf(p.steps), len(p.truth.Deliberate); n != committed {
				for _, s := range p.steps {
					if game.HasFaults(s.Verdicts) {
						t.Logf("%v %+v", s.Action, s.Verdicts)
					}
				}
				t.Fatalf("%s seed %d: %d faults found, %d committed", tc.name, seed, n, committed)
			}
			for _, s := range p.steps {
				if s.Action.Act == game.ActFlower {
					flowers++
				}
				for _, v := range s.Verdicts {
					if v.Kind == game.Bouquet {
						bouquets++
					}
				}
			}
		}
	}
	t.Logf("%d flower exchanges, %d bouquets tracked", flowers, bouquets)
	if flowers == 0 || bouquets == 0 {
		t.Errorf("%d flower exchanges, %d bouquets: the games tested too little", flowers, bouquets)
	}
}

// wpTable is a Wright-Patterson game just dealt, laid out on a fake table, and its tracker
// with every reading settled: seat 0 holds one flower, in rack 1.
func wpTable(t *testing.T) (*fakeTable, *Tracker) {
	t.Helper()
	return dealtTable(t, loadRules(t, "wright-patterson-siamese"), loadCardFile(t, "wright-patterson-example.yaml"), [4]string{
		"F 1B 1B 1B 2B 2B 2B 3B 3B 3B 4B 4B 4B 5B",
		"1C 1C 1C 2C 2C 2C 3C 3C 3C 4C 4C 4C 5C 5C",
		"1D 1D 1D 2D 2D 2D 3D 3D 3D 4D 4D 4D 5D",
		"E E E S S S W W W N N N RD RD",
	})
}

// hands does ops at the fake table, all at once, and runs its readings for d.
func hands(ft *fakeTable, tr *Tracker, d time.Duration, ops ...sim.Op) []Step {
	for _, o := range ops {
		ft.do(o)
	}
	return ft.runUntil(tr, ft.now.Add(d))
}

func take(seat, rack int, z sim.Zone, f string) sim.Op {
	return sim.Op{Kind: sim.Take, Place: sim.Place{Seat: seat, Rack: rack, Zone: z}, Tiles: []tile.Face{face(f)}}
}

// lands is the camera seeing a tile of face f land in the discards.
func lands(f string) sim.Op {
	return sim.Op{Kind: sim.Discard, Tiles: []tile.Face{face(f)}}
}

func put(seat, rack int, z sim.Zone, f string) sim.Op {
	return sim.Op{Kind: sim.Put, Place: sim.Place{Seat: seat, Rack: rack, Zone: z}, Tiles: []tile.Face{face(f)}}
}

// acts names the acts of steps, for comparing.
func acts(steps []Step) []string {
	var out []string
	for _, s := range steps {
		out = append(out, s.Action.String()+" "+string(game.OutcomeOf(s.Verdicts)))
	}
	return out
}

func act(a game.Action, o game.Outcome) string { return a.String() + " " + string(o) }

// TestFlowerExchangeFromTheSensors: a flower taken from a rack and laid on the other, its
// replacement standing in a rack, is a flower exchange, and not before the replacement stands
// there; a replacement that is a flower, laid in the same go, is a second exchange; a flower
// picked in play and laid before the rack settled is a draw and an exchange; a replacement
// thrown before its rack settled is seen by the camera.
func TestFlowerExchangeFromTheSensors(t *testing.T) {
	flower := func(seat, rack int, repl string, to int) game.Action {
		return game.Action{Seat: seat, Act: game.ActFlower, Rack: rack, Tiles: []tile.Face{face(repl)}, To: to}
	}
	t.Run("one", func(t *testing.T) {
		ft, tr := wpTable(t)
		if steps := hands(ft, tr, 10*time.Second, take(0, 1, sim.In, "F"), put(0, 2, sim.On, "F")); len(steps) != 0 {
			t.Fatalf("before the replacement stood in a rack: %v", acts(steps))
		}
		steps := hands(ft, tr, 2*time.Second, put(0, 1, sim.In, "9D"))
		if want := []string{act(flower(0, 2, "9D", 1), game.Applied)}; !slices.Equal(acts(steps), want) {
			t.Fatalf("played %v, want %v", acts(steps), want)
		}
		s := tr.State()
		if s.Seats[0].Racks[1].Flowers != 1 || s.Phase != game.PhaseDiscard || s.Turn != 0 || len(tr.Questions()) != 0 {
			t.Fatalf("after the exchange: rack 2 has %d flowers, seat %d to %s, questions %v", s.Seats[0].Racks[1].Flowers, s.Turn, s.Phase, tr.Questions())
		}
	})
	t.Run("chain", func(t *testing.T) {
		ft, tr := wpTable(t)
		steps := hands(ft, tr, 2*time.Second, take(0, 1, sim.In, "F"), put(0, 1, sim.On, "F"), put(0, 2, sim.In, "F"),
			take(0, 2, sim.In, "F"), put(0, 1, sim.On, "F"), put(0, 2, sim.In, "6D"))
		want := []string{act(flower(0, 1, "F", 1), game.Applied), act(flower(0, 1, "6D", 2), game.Applied)}
		if !slices.Equal(acts(steps), want) {
			t.Fatalf("played %v, want %v", acts(steps), want)
		}
		if n := tr.State().Seats[0].Racks[0].Flowers; n != 2 {
			t.Fatalf("%d flowers on rack 1, want 2", n)
		}
	})
	t.Run("picked in play", func(t *testing.T) {
		ft, tr := wpTable(t)
		hands(ft, tr, 2*time.Second, take(0, 1, sim.In, "F"), put(0, 1, sim.On, "F"), put(0, 1, sim.In, "7D"))
		hands(ft, tr, 2*time.Second, take(0, 2, sim.In, "5C"), lands("5C"))
		if s := tr.State(); s.Turn != 1 || s.Phase != game.PhaseDraw {
			t.Fatalf("seat %d to %s, want West to draw", s.Turn, s.Phase)
		}
		// Picked, laid on rack 2 and replaced before any rack settled: rack 2 reads first.
		steps := hands(ft, tr, 3*time.Second, put(1, 2, sim.On, "F"), put(1, 1, sim.In, "8D"))
		want := []string{act(game.Action{Seat: 1, Act: game.ActDraw, Tiles: []tile.Face{tile.Flower}, Rack: 1}, game.Applied),
			act(flower(1, 2, "8D", 1), game.Applied)}
		if !slices.Equal(acts(steps), want) {
			t.Fatalf("played %v, want %v", acts(steps), want)
		}
	})
	t.Run("replacement thrown at once", func(t *testing.T) {
		ft, tr := wpTable(t)
		// East lays the flower and throws its replacement as the first discard before
		// rack 1 settles: the camera's reading is the evidence, once the racks are still.
		steps := hands(ft, tr, 3*time.Second, take(0, 1, sim.In, "F"), put(0, 2, sim.On, "F"),
			lands("9D"))
		want := []string{act(flower(0, 2, "9D", 1), game.Applied),
			act(game.Action{Seat: 0, Act: game.ActDiscard, Tiles: []tile.Face{face("9D")}, Rack: 1}, game.Applied)}
		if !slices.Equal(acts(steps), want) {
			t.Fatalf("played %v, want %v", acts(steps), want)
		}
		if s := tr.State(); s.Turn != 1 || s.Phase != game.PhaseDraw || len(tr.Questions()) != 0 {
			t.Fatalf("seat %d to %s, questions %v", s.Turn, s.Phase, tr.Questions())
		}
	})
	t.Run("replacement thrown unnamed", func(t *testing.T) {
		ft, tr := wpTable(t)
		// The same, but the camera cannot name the tile: the flower gone is not taken for the
		// discard; the players are asked.
		ft.noise.Unknown = 1
		steps := hands(ft, tr, 10*time.Second, take(0, 1, sim.In, "F"), put(0, 2, sim.On, "F"),
			lands("9D"))
		if len(steps) != 0 || len(tr.Questions()) == 0 {
			t.Fatalf("played %v, asked %v", acts(steps), tr.Questions())
		}
	})
	t.Run("not a flower", func(t *testing.T) {
		ft, tr := wpTable(t)
		// A 1B laid on the rack where a flower should lie: no exchange, a question.
		steps := hands(ft, tr, 10*time.Second, take(0, 1, sim.In, "1B"), put(0, 2, sim.On, "1B"), put(0, 1, sim.In, "9D"))
		if len(steps) != 0 || len(tr.Questions()) == 0 {
			t.Fatalf("played %v, asked %v", acts(steps), tr.Questions())
		}
	})
}

func face(s string) tile.Face {
	f, err := tile.Parse(s)
	if err != nil {
		panic(err)
	}
	return f
}
