package players

import (
	"testing"

	"github.com/siamesetable/siamesed/engine/game"
)

// TestSoakStatsMatchFaultsBySeatAndRule: a fault named for the seat and rule committed is
// found; one named that nobody committed is false; one committed and not named is missed; a
// dead hand from exposures is no fault; two warnings of one act under one rule count once.
func TestSoakStatsMatchFaultsBySeatAndRule(t *testing.T) {
	w := func(seq, seat int, kind game.Kind, rule string) game.Warning {
		return game.Warning{Seq: seq, Seat: seat, Kind: kind, Rule: rule}
	}
	played := game.State{Warnings: []game.Warning{
		w(10, 0, game.Infraction, "siamese tile-count"),
		w(10, 0, game.Infraction, "siamese tile-count"),
		w(20, 1, game.Infraction, "siamese joker"),
		w(30, 1, game.DeadHand, "siamese dead-exposures"),
	}}
	tracked := game.State{Warnings: []game.Warning{
		w(11, 0, game.Infraction, "siamese tile-count"),
		w(25, 0, game.Infraction, "siamese joker"),
		w(30, 1, game.DeadHand, "siamese dead-exposures"),
	}}
	var s Stats
	if err := s.Add(tracked, played, 2, nil); err != nil {
		t.Fatalf("the two games have the same racks: %v", err)
	}
	want := Stats{Games: 1, Exact: 1, Committed: 2, Found: 1, False: 1, Missed: 1}
	if s != want {
		t.Fatalf("got %+v, want %+v", s, want)
	}
}

// TestSameGameComparesFlowersAndRolls: a game tracked with a flower on the wrong rack, or a
// roll otherwise than played, is not the game played.
func TestSameGameComparesFlowersAndRolls(t *testing.T) {
	played := game.State{Seats: make([]game.Seat, 2), EastRoll: [4]int{5, 2}, Prevailing: 4}
	played.Seats[0].Racks[1].Flowers = 1
	if err := SameGame(played, played); err != nil {
		t.Fatalf("a game is not itself: %v", err)
	}
	for name, change := range map[string]func(*game.State){
		"flower on the other rack": func(s *game.State) { s.Seats[0].Racks[1].Flowers, s.Seats[0].Racks[0].Flowers = 0, 1 },
		"roll for East":            func(s *game.State) { s.EastRoll[1] = 3 },
		"prevailing roll":          func(s *game.State) { s.Prevailing = 3 },
	} {
		tracked := played
		tracked.Seats = []game.Seat{played.Seats[0], played.Seats[1]}
		change(&tracked)
		if err := SameGame(tracked, played); err == nil {
			t.Errorf("%s: taken for the game played", name)
		}
	}
}
