// Package game is the rules engine: a pure state machine, State + Action -> State + Verdicts,
// with no I/O, clock or goroutines, so the live table, journal replay and scenario tests share it.
//
// The table is the truth: an act that breaks a rule but happened at the table (a player draws
// twice) is applied and reported as an infraction, with the rule and its source. Only an act that
// cannot have happened (a tile the player does not hold, a seat that does not exist) is refused
// with an error, leaving the state unchanged.
package game

import (
	"encoding/json"
	"fmt"

	"github.com/siamesetable/siamesed/engine/tile"
)

// Act names an action in the game log.
type Act string

// The actions of the game log (docs/game-log.md).
const (
	ActDeal     Act = "deal"      // tiles dealt to a seat (into rack 1 unless rack is given)
	ActDraw     Act = "draw"      // a tile drawn from the wall
	ActDiscard  Act = "discard"   // a tile discarded (named: what the player called it, if not that)
	ActCall     Act = "call"      // the last discard called: for an exposure (tiles) or for Mah Jongg
	ActExchange Act = "exchange"  // a natural tile swapped for a joker in an exposure
	ActMove     Act = "move"      // concealed tiles moved from rack to rack
	ActMahJongg Act = "mahjong"   // Mah Jongg declared on a rack (rack 0: both at once)
	ActFixRack  Act = "fix_rack"  // an exposure moved to the other rack before the turn's discard
	ActWallEnd  Act = "wall_end"  // the wall is used up and the last discard made: game over
	ActFlower   Act = "flower"    // a flower laid on a rack and replaced from the flower wall (flower_wall)
	ActRoll     Act = "roll"      // a die rolled: for East, or by East for the prevailing wind (rolls)
	ActTakeBack Act = "take_back" // the last act in effect never happened: the game goes back to before it
)

// Acts lists every act of the game log, in the order docs/game-log.md gives them.
var Acts = []Act{ActDeal, ActDraw, ActDiscard, ActCall, ActExchange, ActMove, ActMahJongg, ActFixRack, ActWallEnd, ActFlower, ActRoll, ActTakeBack}

// Action is one line of the game log.
type Action struct {
	Seat  int         `json:"seat"`
	Act   Act         `json:"act"`
	Tiles []tile.Face `json:"tiles,omitempty"`
	Rack  int         `json:"rack,omitempty"` // 1 or 2; 0 where the act needs none
	To    int         `json:"to,omitempty"`   // move: the rack the tiles go to
	// For, on a call: "exposure" (default) or "mahjong".
	For string `json:"for,omitempty"`
	// Named, on a discard: the tile the player announced, when it differs from the tile.
	Named *tile.Face `json:"named,omitempty"`
	// Target, on an exchange or fix_rack: the exposure acted on.
	Target *Target `json:"target,omitempty"`
	// Rivals, on a call: the other seats that called the same discard, which the call won.
	Rivals []Rival `json:"rivals,omitempty"`
	// Both, on a call for Mah Jongg: the tile completes Mah Jonggs on both racks at once (a
	// double Siamese Mah Jongg, first in masters' claim priority).
	Both bool `json:"both,omitempty"`
	// Dice, on a roll: the die's face, 1 to 6 (For says what the roll is for: east or
	// prevailing).
	Dice []int `json:"dice,omitempty"`
}

// Rival is another claim on the same discard.
type Rival struct {
	Seat int    `json:"seat"`
	For  string `json:"for,omitempty"` // exposure (default) or mahjong
	Both bool   `json:"both,omitempty"`
}

// Target names one exposure on the table.
type Target struct {
	Seat     int `json:"seat"`
	Rack     int `json:"rack"`
	Exposure int `json:"exposure"` // 0-based, in the order the exposures were made on that rack
}

// ParseAction reads one game-log line, strictly: unknown fields are an error.
func ParseAction(line []byte) (Action, error) {
	var a Action
	if err := strictUnmarshal(line, &a); err != nil {
		return a, fmt.Errorf("game: bad action: %w", err)
	}
	return a, a.check()
}

// check validates the shape of an action (not its legality in a state).
func (a Action) check() error {
	need := func(cond bool, format string, args ...any) error {
		if !cond {
			return fmt.Errorf("game: %s: %s", a.Act, fmt.Sprintf(format, args...))
		}
		return nil
	}
	for _, f := range a.Tiles {
		if f >= tile.NumFaces {
			return fmt.Errorf("game: %s: bad tile %v", a.Act, f)
		}
	}
	if a.Rack < 0 || a.Rack > 2 || a.To < 0 || a.To > 2 {
		return fmt.Errorf("game: %s: rack must be 1 or 2", a.Act)
	}
	switch a.Act {
	case ActDeal:
		return need(len(a.Tiles) > 0, "needs tiles")
	case ActDraw, ActDiscard:
		return need(len(a.Tiles) == 1, "needs exactly one tile")
	case ActCall:
		if a.For != "" && a.For != "exposure" && a.For != "mahjong" {
			return need(false, "for must be exposure or mahjong, got %q", a.For)
		}
		for _, r := range a.Rivals {
			if r.For != "" && r.For != "exposure" && r.For != "mahjong" {
				return need(false, "rival for must be exposure or mahjong, got %q", r.For)
			}
		}
		if a.For == "mahjong" {
			return need(len(a.Tiles) == 1 && a.Rack != 0, "for mahjong needs the called tile and the rack")
		}
		return need(len(a.Tiles) >= 3 && a.Rack != 0, "needs the exposure's tiles (3 or more, the called tile among them) and the rack")
	case ActExchange:
		return need(len(a.Tiles) == 1 && a.Target != nil, "needs one natural tile and a target exposure")
	case ActMove:
		return need(len(a.Tiles) > 0 && a.Rack != 0 && a.To != 0 && a.Rack != a.To, "needs tiles, rack and a different to")
	case ActMahJongg:
		return nil
	case ActFixRack:
		return need(a.Target != nil, "needs the target exposure")
	case ActWallEnd:
		return nil
	case ActFlower:
		return need(len(a.Tiles) == 1 && a.Rack != 0, "needs the rack the flower is laid on and the one tile that replaces it")
	case ActRoll:
		if a.For != "east" && a.For != "prevailing" {
			return need(false, "for must be east or prevailing, got %q", a.For)
		}
		return need(len(a.Dice) == 1 && a.Dice[0] >= 1 && a.Dice[0] <= 6, "needs one die, 1 to 6")
	case ActTakeBack:
		return need(len(a.Tiles) == 0 && a.Rack == 0 && a.To == 0 && a.For == "" && a.Named == nil && a.Target == nil && len(a.Rivals) == 0 && !a.Both && len(a.Dice) == 0,
			"takes only the seat whose act it takes back")
	}
	return fmt.Errorf("game: unknown act %q", a.Act)
}

// MarshalJSON keeps the log's field order stable.
func (a Action) String() string {
	b, err := json.Marshal(a)
	if err != nil {
		return fmt.Sprintf("%+v", a.Act)
	}
	return string(b)
}
