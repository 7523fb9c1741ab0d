package game

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/siamesetable/siamesed/engine/card"
	"github.com/siamesetable/siamesed/engine/tile"
)

// randomGame plays a whole game with random but possible actions (players draw, call pairs into
// pungs, exchange jokers, move tiles, declare Mah Jongg when the card says so, discard) and
// returns the log. check is called after every action with the states before and after.
func randomGame(t testing.TB, rng *rand.Rand, r *Ruleset, c *card.Card, check func(before, after State, a Action)) []Action {
	set := r.TileSet().Count
	wall := set.Faces()
	rng.Shuffle(len(wall), func(i, j int) { wall[i], wall[j] = wall[j], wall[i] })
	pop := func() tile.Face { f := wall[len(wall)-1]; wall = wall[:len(wall)-1]; return f }
	s := New(r, c)
	var log []Action
	do := func(a Action) bool {
		n, _, err := Apply(s, a)
		if err != nil {
			t.Fatalf("action %d %v: %v", len(log)+1, a, err)
		}
		check(s, n, a)
		s = n
		log = append(log, a)
		return s.Phase != PhaseOver
	}
	for seat := range s.Seats {
		n := s.dealFor(seat)
		var tiles []tile.Face
		for i := 0; i < n; i++ {
			tiles = append(tiles, pop())
		}
		k := rng.IntN(n)
		do(Action{Seat: seat, Act: ActDeal, Tiles: tiles[:k+1], Rack: 1})
		if k+1 < n {
			do(Action{Seat: seat, Act: ActDeal, Tiles: tiles[k+1:], Rack: 2})
		}
	}
	for steps := 0; steps < 2000 && s.Phase != PhaseOver; steps++ {
		seat := s.Turn
		if r.FlowerWall && len(wall) > 0 && (s.Phase == PhaseFlowers || s.Phase == PhaseDiscard) && holdsFlower(&s.Seats[seat]) {
			// Flowers are laid on a rack and replaced from the flower wall (wright-patterson).
			if !do(Action{Seat: seat, Act: ActFlower, Tiles: []tile.Face{pop()}, Rack: 1 + rng.IntN(2)}) {
				break
			}
			continue
		}
		if s.Phase == PhaseDraw || (s.Phase == PhaseDeal && r.EastDraws) {
			if called := tryCall(rng, &s, do); called {
				continue
			}
			if len(wall) == 0 {
				do(Action{Seat: seat, Act: ActWallEnd})
				break
			}
			if !do(Action{Seat: seat, Act: ActDraw, Tiles: []tile.Face{pop()}, Rack: 1 + rng.IntN(2)}) {
				break
			}
			continue
		}
		st := &s.Seats[seat]
		for r := 1; r <= 2; r++ {
			rk := &st.Racks[r-1]
			if rk.Live() && rk.Count() == 14 && len(c.Match(card.Rack{Concealed: rk.Concealed, Exposed: rk.cardExposures()})) > 0 {
				if !do(Action{Seat: seat, Act: ActMahJongg, Rack: r}) {
					return log
				}
				st = &s.Seats[seat]
			}
		}
		tryExchange(rng, &s, do)
		if s.Phase == PhaseOver {
			break
		}
		st = &s.Seats[seat]
		if from := 1 + rng.IntN(2); st.Racks[from-1].Concealed.Total() > 0 && rng.IntN(4) == 0 {
			fs := st.Racks[from-1].Concealed.Faces()
			do(Action{Seat: seat, Act: ActMove, Tiles: fs[:1], Rack: from, To: 3 - from})
			st = &s.Seats[seat]
		}
		var all []tile.Face
		for r := range st.Racks {
			all = append(all, st.Racks[r].Concealed.Faces()...)
		}
		if len(all) == 0 { // everything exposed: nothing to discard, the random game stops here
			break
		}
		if !do(Action{Seat: seat, Act: ActDiscard, Tiles: []tile.Face{all[rng.IntN(len(all))]}}) {
			break
		}
	}
	return log
}

// tryCall lets some other seat call the last discard into a pung when it holds a pair of it.
func tryCall(rng *rand.Rand, s *State, do func(Action) bool) bool {
	if s.Last == nil || rng.IntN(3) != 0 {
		return false
	}
	f := s.Last.Tile
	for seat := range s.Seats {
		st := &s.Seats[seat]
		held := st.Racks[0].Concealed[f] + st.Racks[1].Concealed[f]
		if seat == s.Last.Seat || f == tile.Joker || held < 2 || !st.Live() {
			continue
		}
		r := 1
		if !st.Racks[0].Live() {
			r = 2
		}
		do(Action{Seat: seat, Act: ActCall, Tiles: []tile.Face{f, f, f}, Rack: r})
		return true
	}
	return false
}

// tryExchange swaps a held natural tile for a joker in some exposure, when one fits.
func tryExchange(rng *rand.Rand, s *State, do func(Action) bool) {
	seat := s.Turn
	for ts := range s.Seats {
		for tr := 1; tr <= 2; tr++ {
			for ei, e := range s.Seats[ts].Racks[tr-1].Exposures {
				for _, f := range e.Tiles {
					st := &s.Seats[seat]
					if f != tile.Joker && st.Racks[0].Concealed[f]+st.Racks[1].Concealed[f] > 0 && containsJoker(e.Tiles) && rng.IntN(2) == 0 {
						do(Action{Seat: seat, Act: ActExchange, Tiles: []tile.Face{f}, Target: &Target{Seat: ts, Rack: tr, Exposure: ei}})
						return
					}
				}
			}
		}
	}
}

func containsJoker(fs []tile.Face) bool {
	for _, f := range fs {
		if f == tile.Joker {
			return true
		}
	}
	return false
}

// tilesOnTable is every tile the state accounts for: racks, discards and the unseen wall.
func tilesOnTable(s State) tile.Counts {
	all := s.Unseen
	for _, st := range s.Seats {
		for _, rk := range st.Racks {
			all.Add(&rk.Concealed)
			all[tile.Flower] += uint8(rk.Flowers)
			for _, e := range rk.Exposures {
				c, _ := tile.CountsOf(e.Tiles)
				all.Add(&c)
			}
		}
	}
	d, _ := tile.CountsOf(s.Discards)
	all.Add(&d)
	return all
}

func TestRandomGamesConserveTilesAndReplay(t *testing.T) {
	games := 300
	if fewerGames() {
		games = 30
	}
	for _, spec := range []string{"siamese", "siamese-masters", "royale-4", "royale-3", "siamese+nmjl-tournament", "wright-patterson-siamese"} {
		r := loadRules(t, spec)
		c := cardFor(t, r)
		set := r.TileSet().Count
		rng := rand.New(rand.NewPCG(11, uint64(len(spec))))
		endings := map[string]int{}
		for g := 0; g < games; g++ {
			log := randomGame(t, rng, r, c, func(before, after State, a Action) {
				if got := tilesOnTable(after); got != set {
					t.Fatalf("%s game %d: after %v tiles are %v, want the %s set", spec, g, a, got, r.Set)
				}
				if after.Seq != before.Seq+1 {
					t.Fatalf("seq %d -> %d", before.Seq, after.Seq)
				}
			})
			// Replaying the log from scratch gives the same state (and Apply never changed a
			// state it was given, or the replay would differ).
			s1, _, err := Replay(New(r, c), log)
			if err != nil {
				t.Fatal(err)
			}
			s2, _, _ := Replay(New(r, c), log)
			j1, _ := json.Marshal(s1)
			j2, _ := json.Marshal(s2)
			if string(j1) != string(j2) || !reflect.DeepEqual(s1.Seats, s2.Seats) {
				t.Fatalf("%s game %d: replays differ", spec, g)
			}
			if s1.Result != nil {
				endings[s1.Result.Reason]++
			}
		}
		t.Logf("%s: %d games, endings %v", spec, games, endings)
	}
}

func BenchmarkReplay(b *testing.B) {
	benchReplay(b, loadRules(b, "siamese"), loadCard(b))
}

// benchReplay replays 20 random games of r over and over.
func benchReplay(b *testing.B, r *Ruleset, c *card.Card) {
	rng := rand.New(rand.NewPCG(5, 5))
	var logs [][]Action
	for len(logs) < 20 {
		logs = append(logs, randomGame(b, rng, r, c, func(State, State, Action) {}))
	}
	b.ReportAllocs()
	b.ResetTimer()
	acts := 0
	for i := 0; i < b.N; i++ {
		l := logs[i%len(logs)]
		if _, _, err := Replay(New(r, c), l); err != nil {
			b.Fatal(err)
		}
		acts += len(l)
	}
	b.ReportMetric(float64(acts)/b.Elapsed().Seconds(), "actions/s")
}
