package game

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/siamesetable/siamesed/engine/card"
	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/internal/race"
)

// step is one act of a random game with the states around it.
type step struct {
	before, after State
	act           Action
	verdicts      []Verdict
	err           error
}

// playLegal plays a whole game by choosing among LegalActions (Mah Jongg whenever the card
// allows it, calls now and then), with a fault now and then at rate faults (a draw out of turn,
// a discard by the wrong seat, an exchange out of turn, a covered call, an impossible tile), so
// every path of Apply is walked. visit sees every act, applied, refused or impossible.
func playLegal(t testing.TB, rng *rand.Rand, r *Ruleset, c *card.Card, faults float64, visit func(step)) State {
	return playLegalWith(t, rng, r, c, faults, nil, visit)
}

// playLegalWith is playLegal with pre, if not nil, called just before each Apply.
func playLegalWith(t testing.TB, rng *rand.Rand, r *Ruleset, c *card.Card, faults float64, pre func(State, Action), visit func(step)) State {
	t.Helper()
	s := New(r, c)
	do := func(a Action) {
		if pre != nil {
			pre(s, a)
		}
		n, vs, err := Apply(s, a)
		visit(step{before: s, after: n, act: a, verdicts: vs, err: err})
		if err == nil {
			s = n
		}
	}
	deal(rng, &s, do)
	for steps := 0; steps < 1500 && s.Phase != PhaseOver; steps++ {
		if rng.Float64() < faults {
			do(randomFault(rng, &s))
			continue
		}
		acts := LegalActions(&s)
		if len(acts) == 0 {
			t.Fatalf("no legal act in phase %s, turn %d", s.Phase, s.Turn)
		}
		do(chooseAct(rng, &s, acts))
	}
	return s
}

// deal deals a shuffled wall: each seat its tiles, split at random between its racks.
func deal(rng *rand.Rand, s *State, do func(Action)) {
	wall := s.Unseen.Faces()
	rng.Shuffle(len(wall), func(i, j int) { wall[i], wall[j] = wall[j], wall[i] })
	for seat := range s.Seats {
		n := s.dealFor(seat)
		tiles := wall[:n]
		wall = wall[n:]
		k := 1 + rng.IntN(n)
		do(Action{Seat: seat, Act: ActDeal, Tiles: tiles[:k], Rack: 1})
		if k < n {
			do(Action{Seat: seat, Act: ActDeal, Tiles: tiles[k:], Rack: 2})
		}
	}
}

// chooseAct picks a sensible act: Mah Jongg when it is there, a call a third of the time, a draw
// of a tile taken at random from the unseen ones, else anything listed. It keeps indices into
// acts, not copies: copying every listed act was a quarter of the random games' time.
func chooseAct(rng *rand.Rand, s *State, acts []Action) Action {
	var draws, calls, others []int
	for i := range acts {
		switch a := &acts[i]; a.Act {
		case ActMahJongg, ActWallEnd:
			return *a
		case ActDraw:
			draws = append(draws, i)
		case ActCall:
			if a.For != "mahjong" {
				calls = append(calls, i)
			}
		default:
			others = append(others, i)
		}
	}
	switch {
	case len(calls) > 0 && rng.IntN(3) == 0:
		return acts[calls[rng.IntN(len(calls))]]
	case len(draws) > 0 && (len(others) == 0 || rng.IntN(8) != 0):
		unseen := s.Unseen.Faces()
		f := unseen[rng.IntN(len(unseen))]
		for _, i := range draws {
			if acts[i].Tiles[0] == f {
				return acts[i]
			}
		}
		return acts[draws[0]]
	case len(others) > 0:
		// Discards and moves mostly; exchanges and rack fixes when listed.
		return acts[others[rng.IntN(len(others))]]
	}
	return acts[draws[0]]
}

// randomFault makes an act that breaks a rule, or cannot have happened.
func randomFault(rng *rand.Rand, s *State) Action {
	seat := rng.IntN(len(s.Seats))
	held := append(s.Seats[seat].Racks[0].Concealed.Faces(), s.Seats[seat].Racks[1].Concealed.Faces()...)
	any := tile.Face(rng.IntN(int(tile.NumFaces)))
	switch rng.IntN(5) {
	case 0:
		return Action{Seat: seat, Act: ActDraw, Tiles: []tile.Face{any}, Rack: 1 + rng.IntN(2)}
	case 1:
		if len(held) > 0 {
			return Action{Seat: seat, Act: ActDiscard, Tiles: []tile.Face{held[rng.IntN(len(held))]}}
		}
	case 2:
		return Action{Seat: seat, Act: ActExchange, Tiles: []tile.Face{any}, Target: &Target{Seat: rng.IntN(len(s.Seats)), Rack: 1 + rng.IntN(2)}}
	case 3:
		if len(s.Discards) > 0 {
			f := s.Discards[len(s.Discards)-1]
			return Action{Seat: seat, Act: ActCall, Tiles: []tile.Face{f, f, f}, Rack: 1 + rng.IntN(2)}
		}
	}
	return Action{Seat: seat, Act: ActMahJongg, Rack: rng.IntN(3)}
}

// deepCopy copies v and everything it points to, sharing nothing: the purity test's reference,
// written apart from State.clone so that a missing clone cannot hide in both.
func deepCopy(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		n := reflect.New(v.Elem().Type())
		n.Elem().Set(deepCopy(v.Elem()))
		return n
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		n := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := 0; i < v.Len(); i++ {
			n.Index(i).Set(deepCopy(v.Index(i)))
		}
		return n
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		n := reflect.MakeMapWithSize(v.Type(), v.Len())
		for it := v.MapRange(); it.Next(); {
			n.SetMapIndex(it.Key(), deepCopy(it.Value()))
		}
		return n
	case reflect.Struct:
		n := reflect.New(v.Type()).Elem()
		for i := 0; i < v.NumField(); i++ {
			if n.Field(i).CanSet() {
				n.Field(i).Set(deepCopy(v.Field(i)))
			}
		}
		return n
	case reflect.Array:
		n := reflect.New(v.Type()).Elem()
		for i := 0; i < v.Len(); i++ {
			n.Index(i).Set(deepCopy(v.Index(i)))
		}
		return n
	}
	return v
}

// copyState deep-copies a state but for its ruleset and card, which are shared and read-only.
func copyState(s State) State {
	rules, c := s.Rules, s.Card
	s.Rules, s.Card = nil, nil
	n := deepCopy(reflect.ValueOf(s)).Interface().(State)
	n.Rules, n.Card = rules, c
	return n
}

// fewerGames is true for -short and under -race: the property tests over random games then
// play a tenth to a quarter of their games. scripts/test.sh runs this package once more
// without -race, so every full count still runs in CI.
func fewerGames() bool { return testing.Short() || race.Enabled }

var allRulesets = []string{"siamese", "siamese-masters", "royale-4", "royale-3", "siamese+nmjl-tournament", "siamese-masters+nmjl-tournament",
	"wright-patterson-siamese", "wright-patterson-siamese+no-jokers+four-flowers"}
