package mqtt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/track"
)

// MaxCommandSize bounds a command payload: the largest real one (an act with an exposure) is
// well under a kilobyte.
const MaxCommandSize = 4096

// ErrPayload is wrapped by every command refused for its payload alone.
var ErrPayload = errors.New("bad command payload")

// CommandPayload is what a phone or display publishes on cmd/<seat> (docs/mqtt.md).
type CommandPayload struct {
	// Schema, when given, must be one this siamesed reads (docs/mqtt.md).
	Schema SchemaVersion `json:"schema,omitzero"`
	// ID is the sender's name for the command, echoed in the reply so it can match them.
	ID       string            `json:"id,omitempty"`
	Kind     track.CommandKind `json:"kind"`
	Rack     int               `json:"rack,omitempty"`
	Question int               `json:"question,omitempty"`
	Option   string            `json:"option,omitempty"`
	// Action is an act entered by hand, without a seat: the seat is the topic's.
	Action json.RawMessage `json:"action,omitempty"`
}

// ParseCommand reads a command payload for seat (from its topic), strictly: unknown fields,
// a seat in the action, trailing data and oversized payloads are errors naming the problem.
// The id is returned even when the rest is bad, so the refusal can name it.
func ParseCommand(seat int, payload []byte, at time.Time) (track.Command, string, error) {
	if len(payload) > MaxCommandSize {
		return track.Command{}, "", fmt.Errorf("%w: %d bytes, at most %d", ErrPayload, len(payload), MaxCommandSize)
	}
	var p CommandPayload
	dec := json.NewDecoder(bytes.NewReader(payload))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return track.Command{}, idOf(payload), fmt.Errorf("%w: %v", ErrPayload, err)
	}
	if dec.More() {
		return track.Command{}, p.ID, fmt.Errorf("%w: data after the command", ErrPayload)
	}
	if len(p.ID) > 64 {
		return track.Command{}, "", fmt.Errorf("%w: id longer than 64 bytes", ErrPayload)
	}
	c := track.Command{Seat: seat, Kind: p.Kind, Rack: p.Rack, Question: p.Question, Option: p.Option, At: at}
	bad := func(format string, a ...any) (track.Command, string, error) {
		return track.Command{}, p.ID, fmt.Errorf("%w: %s: %s", ErrPayload, p.Kind, fmt.Sprintf(format, a...))
	}
	if p.Rack < 0 || p.Rack > 2 {
		return bad("rack %d: want 1, 2, or 0 for both", p.Rack)
	}
	switch p.Kind {
	case track.CmdMahJongg, track.CmdWallGame:
		if p.Question != 0 || p.Option != "" || p.Action != nil {
			return bad("takes only a rack")
		}
		if p.Kind == track.CmdWallGame && p.Rack != 0 {
			return bad("takes no rack")
		}
	case track.CmdRacksRight:
		if p.Rack != 0 || p.Question != 0 || p.Option != "" || p.Action != nil {
			return bad("takes nothing: the racks as they stand are the players' word")
		}
	case track.CmdTakeBack:
		if p.Rack != 0 || p.Question != 0 || p.Option != "" || p.Action != nil {
			return bad("takes nothing: it takes back the last act the table recorded")
		}
	case track.CmdAnswer:
		if p.Question <= 0 || p.Option == "" || p.Action != nil || p.Rack != 0 {
			return bad("needs a question (its id) and an option (its key), nothing else")
		}
	case track.CmdAct:
		if p.Action == nil || p.Rack != 0 || p.Question != 0 || p.Option != "" {
			return bad("needs an action, nothing else")
		}
		a, err := parseAction(seat, p.Action)
		if err != nil {
			return bad("%v", err)
		}
		c.Action = &a
	case "":
		return bad("no kind: want mahjong, answer, act, wall_game, racks_right or take_back")
	default:
		return bad("unknown kind: want mahjong, answer, act, wall_game, racks_right or take_back")
	}
	return c, p.ID, nil
}

// parseAction reads an act entered by hand: a game-log action without a seat.
func parseAction(seat int, raw json.RawMessage) (game.Action, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return game.Action{}, fmt.Errorf("action: %w", err)
	}
	if _, ok := fields["seat"]; ok {
		return game.Action{}, errors.New("action: no seat: a seat acts only on its own topic")
	}
	a, err := game.ParseAction(raw)
	if err != nil {
		return game.Action{}, err
	}
	if a.Act == game.ActTakeBack {
		return game.Action{}, errors.New("action: a take_back is not entered as an act: send the command kind take_back")
	}
	a.Seat = seat
	return a, nil
}

// idOf digs the id out of a payload that did not parse, for the refusal.
func idOf(payload []byte) string {
	var p struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(payload, &p) != nil || len(p.ID) > 64 {
		return ""
	}
	return p.ID
}
