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
