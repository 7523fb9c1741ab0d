package daemon

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
	var s SoakStats
	if err := s.add(tracked, played, 2); err != nil {
		t.Fatalf("the two games have the same racks: %v", err)
	}
	want := SoakStats{Games: 1, Exact: 1, Committed: 2, Found: 1, False: 1, Missed: 1}
	if s != want {
		t.Fatalf("got %+v, want %+v", s, want)
	}
}
