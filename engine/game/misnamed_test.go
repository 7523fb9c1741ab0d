package game

import (
	"reflect"
	"slices"
	"testing"

	"github.com/siamesetable/siamesed/engine/tile"
)

// replayScenario replays the first n actions of a scenario file under its rules line.
func replayScenario(t *testing.T, name, spec string, n int) State {
	t.Helper()
	sc := readScenario(t, "testdata/scenarios/"+name+".jsonl")
	if sc.spec != spec {
		t.Fatalf("%s is played by %s, not %s", name, sc.spec, spec)
	}
	s, _, err := Replay(sc.start, sc.log.Actions[:n])
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func concealed(s State, seat int, f tile.Face) int {
	return int(s.Seats[seat].Racks[0].Concealed[f]) + int(s.Seats[seat].Racks[1].Concealed[f])
}

// TestMisnamedReplacedByNamedTile: masters, the discarder's N replaces its misnamed 9C, which goes
// back to its rack; the caller exposes the N and no tile is created or lost.
func TestMisnamedReplacedByNamedTile(t *testing.T) {
	s := replayScenario(t, "siamese-masters-misnamed-exposure-replaced", "siamese-masters", 5)
	if got := concealed(s, 0, face(t, "9C")); got != 4 {
		t.Errorf("East holds %d 9C after the replacement, want 4 (the discard returned)", got)
	}
	if got := concealed(s, 0, face(t, "N")); got != 0 {
		t.Errorf("East still holds %d N, want 0 (it replaced the discard)", got)
	}
	ex := s.Seats[1].Racks[0].Exposures
	if len(ex) != 1 || !slices.Equal(ex[0].Tiles, mustFaces(t, "N N N J")) {
		t.Errorf("opponent's exposures %v, want N N N J", ex)
	}
	if len(s.Discards) != 0 {
		t.Errorf("discards %v, want none (the N was called away)", s.Discards)
	}
	if got := tilesOnTable(s); got != s.Rules.TileSet().Count {
		t.Errorf("tiles on the table %v, want the set", got)
	}
}

// TestMisnamedClaimRefused: the claim for the named face leaves the table as it was, and the
// discard is from then on named for what it is.
func TestMisnamedClaimRefused(t *testing.T) {
	before := replayScenario(t, "siamese-masters-misnamed-exposure-not-held", "siamese-masters", 4)
	after := replayScenario(t, "siamese-masters-misnamed-exposure-not-held", "siamese-masters", 5)
	if !slices.Equal(before.Discards, after.Discards) || !reflect.DeepEqual(before.Seats, after.Seats) {
		t.Errorf("a refused claim changed the table")
	}
	nine := face(t, "9C")
	if after.Last == nil || after.Last.Tile != nine || after.Last.Named != nine {
		t.Errorf("last discard %+v, want 9C named 9C", after.Last)
	}
}

func mustFaces(t *testing.T, s string) []tile.Face {
	t.Helper()
	fs, err := tile.ParseList(s)
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

func face(t *testing.T, s string) tile.Face {
	t.Helper()
	f, err := tile.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
