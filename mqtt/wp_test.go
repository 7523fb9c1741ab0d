package mqtt

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/engine/track"
)

// TestPublicFlowerAndRoll: a flower exchange goes out as the flower laid on its rack, its
// replacement (drawn from the flower wall into the rack) only counted; a bouquet's verdict
// goes with it; a roll shows its die.
func TestPublicFlowerAndRoll(t *testing.T) {
	repl := tile.Number(tile.Dots, 7)
	fl := track.Step{Action: game.Action{Seat: 1, Act: game.ActFlower, Rack: 2, To: 1, Tiles: []tile.Face{repl}}, Source: "sensors",
		Verdicts: []game.Verdict{{Kind: game.Legal, Seat: 1}, {Kind: game.Bouquet, Seat: 1, Rack: 2, Points: 500}}}
	p := PublicStep(fl)
	if len(p.Tiles) != 1 || p.Tiles[0] != tile.Flower || p.Count != 1 || p.Rack != 2 || p.Outcome != game.Applied {
		t.Fatalf("flower exchange in public: %+v", p)
	}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), `"`+repl.String()+`"`) || !strings.Contains(string(b), `"bouquet"`) {
		t.Fatalf("flower exchange in public: %s", b)
	}
	roll := PublicStep(track.Step{Action: game.Action{Seat: 0, Act: game.ActRoll, For: "prevailing", Dice: []int{4}}, Source: "command"})
	if roll.For != "prevailing" || len(roll.Dice) != 1 || roll.Dice[0] != 4 {
		t.Fatalf("roll in public: %+v", roll)
	}
}

// TestParseRollAndFlowerCommands: the acts a Wright-Patterson table enters by hand, as the
// seat view sends them, reach the tracker as that seat's acts.
func TestParseRollAndFlowerCommands(t *testing.T) {
	for _, tc := range []struct {
		seat    int
		payload string
		want    game.Action
	}{
		{1, `{"kind":"act","action":{"act":"roll","for":"east","dice":[5]}}`, game.Action{Seat: 1, Act: game.ActRoll, For: "east", Dice: []int{5}}},
		{0, `{"kind":"act","action":{"act":"roll","for":"prevailing","dice":[4]}}`, game.Action{Seat: 0, Act: game.ActRoll, For: "prevailing", Dice: []int{4}}},
		{0, `{"kind":"act","action":{"act":"flower","tiles":["7d"],"rack":2}}`, game.Action{Seat: 0, Act: game.ActFlower, Tiles: []tile.Face{tile.Number(tile.Dots, 7)}, Rack: 2}},
	} {
		c, _, err := ParseCommand(tc.seat, []byte(tc.payload), at)
		if err != nil {
			t.Fatalf("%s: %v", tc.payload, err)
		}
		if c.Kind != track.CmdAct || c.Action == nil || c.Action.String() != tc.want.String() {
			t.Errorf("%s: got %+v, want %v", tc.payload, c.Action, tc.want)
		}
	}
	if _, _, err := ParseCommand(0, []byte(`{"kind":"act","action":{"act":"roll","for":"east","dice":[7]}}`), at); err == nil {
		t.Error("a die of 7 was taken")
	}
}
