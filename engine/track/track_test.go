package track

import (
	"fmt"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/engine/card"
	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/sim"
)

func loadRules(t testing.TB, spec string) *game.Ruleset {
	t.Helper()
	r, err := game.LoadRuleset(spec, func(name string) ([]byte, error) { return os.ReadFile("../../configs/rules/" + name + ".yaml") })
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func loadCard(t testing.TB) *card.Card { return loadCardFile(t, "example.yaml") }

// loadCardFile loads a card from configs/cards.
func loadCardFile(t testing.TB, name string) *card.Card {
	t.Helper()
	data, err := os.ReadFile("../../configs/cards/" + name)
	if err != nil {
		t.Fatal(err)
	}
	c, err := card.Parse(name, data)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// played is a game tracked from a fake table.
type played struct {
	truth   *sim.Game
	tracker *Tracker
	steps   []Step
}

// playTracked plays a virtual game at a fake table and tracks it from the readings alone
// (and the players' spoken commands).
func playTracked(t testing.TB, spec string, seed uint64, faults float64, noise tableNoise) played {
	t.Helper()
	return playTrackedCard(t, spec, loadCard(t), seed, faults, noise)
}

// playTrackedCard is playTracked with a card of one's own (a limit list).
func playTrackedCard(t testing.TB, spec string, c *card.Card, seed uint64, faults float64, noise tableNoise) played {
	t.Helper()
	r := loadRules(t, spec)
	g := sim.NewGame(r, c, seed, faults)
	ft := newFakeTable(seed, noise)
	cfg := DefaultConfig()
	cfg.CallWindow = 0 // the players say "wall game"
	if os.Getenv("TRACK_DEBUG") != "" {
		cfg.Debug = func(f string, a ...any) { t.Logf(f, a...) }
	}
	tr := New(cfg, game.New(r, c))
	var steps []Step
	for turns := 0; ; turns++ {
		if turns > 4000 {
			t.Fatalf("%s seed %d: the game did not end", spec, seed)
		}
		turn, ok := g.Next()
		if !ok {
			break
		}
		for _, o := range turn.Ops {
			ft.now = ft.now.Add(time.Duration(50+ft.rng.IntN(400)) * time.Millisecond)
			ft.do(o)
			steps = append(steps, ft.runUntil(tr, ft.now)...)
		}
		if len(turn.Undo) > 0 { // the referee refused it: the players put the tiles back
			steps = append(steps, ft.runUntil(tr, ft.now.Add(2*time.Second))...)
			for _, o := range turn.Undo {
				ft.now = ft.now.Add(300 * time.Millisecond)
				ft.do(o)
			}
		}
		pause := time.Duration(500+ft.rng.IntN(1000)) * time.Millisecond // a person's pace
		if turn.Act.Act == game.ActDraw || turn.Act.Act == game.ActDeal {
			pause += 800 * time.Millisecond // a player looks at the tile racked before throwing
		}
		if noise.Hurried && turn.Act.Act == game.ActDraw && alone(&g.State, turn.Act.Seat) {
			pause = time.Duration(100+ft.rng.IntN(200)) * time.Millisecond // thrown at once
		}
		steps = append(steps, ft.runUntil(tr, ft.now.Add(pause))...)
	}
	steps = append(steps, ft.runUntil(tr, ft.now.Add(10*time.Second))...)
	return played{truth: g, tracker: tr, steps: steps}
}

// alone: every other seat is dead; seat plays on by itself.
func alone(s *game.State, seat int) bool {
	for i := range s.Seats {
		if i != seat && (s.Seats[i].Racks[0].Live() || s.Seats[i].Racks[1].Live()) {
			return false
		}
	}
	return true
}

// sameGame compares the tracked game with the true one: every rack, exposure and discard, and
// the result.
func sameGame(a, b game.State) error {
	for i := range a.Seats {
		for r := range a.Seats[i].Racks {
			ra, rb := &a.Seats[i].Racks[r], &b.Seats[i].Racks[r]
			if ra.Concealed != rb.Concealed || len(ra.Exposures) != len(rb.Exposures) || ra.Dead != rb.Dead {
				return fmt.Errorf("seat %d rack %d: tracked %v %v %q, true %v %v %q", i, r+1, ra.Concealed, ra.Exposures, ra.Dead, rb.Concealed, rb.Exposures, rb.Dead)
			}
		}
	}
	if !reflect.DeepEqual(a.Discards, b.Discards) {
		return fmt.Errorf("discards: tracked %v, true %v", a.Discards, b.Discards)
	}
	if a.Phase != b.Phase || !reflect.DeepEqual(a.Result, b.Result) {
		return fmt.Errorf("phase %s / %s, result %+v / %+v", a.Phase, b.Phase, a.Result, b.Result)
	}
	return nil
}

// faultsOf counts the faulty verdicts of a tracked game.
func faultsOf(steps []Step) int {
	n := 0
	for _, s := range steps {
		if game.HasFaults(s.Verdicts) {
			n++
		}
	}
	return n
}

// TestTrackedGamesEqualTheTrueGame: whole games played by virtual players at a fake table with
// readings late and out of order, zones briefly unreadable and discards the camera cannot name;
// the tracker, from the readings alone, plays the same game.
func TestTrackedGamesEqualTheTrueGame(t *testing.T) {
	games := 12
	if testing.Short() {
		games = 3
	}
	noise := tableNoise{Jitter: 400 * time.Millisecond, Unreadable: 0.03, Unknown: 0.1}
	for _, spec := range []string{"siamese", "siamese-masters", "royale-4", "royale-3"} {
		for seed := uint64(1); seed <= uint64(games); seed++ {
			p := playTracked(t, spec, seed, 0, noise)
			if err := sameGame(p.tracker.State(), p.truth.State); err != nil {
				t.Fatalf("%s seed %d: %v\nquestions: %+v", spec, seed, err, p.tracker.Questions())
			}
			if n := faultsOf(p.steps); n != 0 {
				for _, s := range p.steps {
					if game.HasFaults(s.Verdicts) {
						t.Logf("%v %+v", s.Action, s.Verdicts)
					}
				}
				t.Fatalf("%s seed %d: %d false infractions", spec, seed, n)
			}
		}
	}
}

// TestHurriedPlayers: players who throw a tile as soon as they drew one and play on quickly,
// so a rack is seldom still for the grace period; rules broken on purpose leave one seat to play
// on alone, faster still. Every game is tracked as played, every fault found.
func TestHurriedPlayers(t *testing.T) {
	games := 100
	if testing.Short() {
		games = 20
	}
	for seed := uint64(1); seed <= uint64(games); seed++ {
		p := playTracked(t, "siamese", seed, 0.03, tableNoise{Jitter: 200 * time.Millisecond, Hurried: true})
		if err := sameGame(p.tracker.State(), p.truth.State); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if got, want := faultsOf(p.steps), len(p.truth.Deliberate); got != want {
			t.Fatalf("seed %d: %d faults found, %d committed: %+v", seed, got, want, p.truth.Deliberate)
		}
	}
}

// TestDeliberateInfractionsAreCaught: players break rules on purpose (a second draw, a draw
// out of turn, an exposure on the wrong rack, a joker taken from an exposed Mah Jongg); each
// is played and named by the referee, and nothing else is.
func TestDeliberateInfractionsAreCaught(t *testing.T) {
	games := 12
	if testing.Short() {
		games = 3
	}
	caught := map[string]int{}
	for _, spec := range []string{"siamese", "royale-4"} {
		for seed := uint64(1); seed <= uint64(games); seed++ {
			p := playTracked(t, spec, seed, 0.03, tableNoise{Jitter: 200 * time.Millisecond})
			if err := sameGame(p.tracker.State(), p.truth.State); err != nil {
				t.Fatalf("%s seed %d: %v", spec, seed, err)
			}
			if got, want := faultsOf(p.steps), len(p.truth.Deliberate); got != want {
				t.Fatalf("%s seed %d: %d faults found, %d committed: %+v", spec, seed, got, want, p.truth.Deliberate)
			}
			for _, d := range p.truth.Deliberate {
				caught[d.Kind]++
			}
		}
	}
	t.Logf("caught %v", caught)
	if caught[sim.DrawTwice] == 0 || caught[sim.DrawOutOfTurn] == 0 {
		t.Errorf("the games broke too few kinds of rule to test: %v", caught)
	}
}

// BenchmarkTrackedGame tracks one whole Siamese game at the fake table from its readings (noise
// as in TestTrackedGamesEqualTheTrueGame): the tracker's work on every settled reading, camera
// report and tick of a game. The fake table's own work is included.
func BenchmarkTrackedGame(b *testing.B) {
	noise := tableNoise{Jitter: 400 * time.Millisecond, Unreadable: 0.03, Unknown: 0.1}
	acts := 0
	for i := range b.N {
		p := playTracked(b, "siamese", uint64(i%12+1), 0, noise)
		acts += len(p.steps)
	}
	b.ReportMetric(float64(acts)/float64(b.N), "acts/game")
}
