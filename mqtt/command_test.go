package mqtt

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/engine/track"
)

var at = time.Date(2026, 11, 23, 19, 0, 0, 0, time.UTC)

func TestParseCommandTakesTheSeatFromTheTopic(t *testing.T) {
	c, id, err := ParseCommand(1, []byte(`{"id":"p1","kind":"act","action":{"act":"discard","tiles":["5b"],"rack":2}}`), at)
	if err != nil {
		t.Fatal(err)
	}
	want := game.Action{Seat: 1, Act: game.ActDiscard, Tiles: []tile.Face{tile.Number(tile.Bams, 5)}, Rack: 2}
	if id != "p1" || c.Seat != 1 || c.Kind != track.CmdAct || c.Action == nil || c.Action.String() != want.String() || !c.At.Equal(at) {
		t.Fatalf("got %q %+v %v, want seat 1 acting %v", id, c, c.Action, want)
	}
}

func TestParseCommandKinds(t *testing.T) {
	for _, tc := range []struct{ payload, want string }{
		{`{"kind":"mahjong","rack":1}`, "mahjong rack 1"},
		{`{"kind":"mahjong"}`, "mahjong rack 0"},
		{`{"kind":"wall_game"}`, "wall_game rack 0"},
		{`{"kind":"racks_right"}`, "racks_right rack 0"},
		{`{"kind":"take_back"}`, "take_back rack 0"},
		{`{"kind":"answer","question":3,"option":"discarded"}`, "answer q3 discarded"},
	} {
		c, _, err := ParseCommand(0, []byte(tc.payload), at)
		if err != nil {
			t.Errorf("%s: %v", tc.payload, err)
			continue
		}
		got := string(c.Kind) + " rack " + string(rune('0'+c.Rack))
		if c.Kind == track.CmdAnswer {
			got = "answer q" + string(rune('0'+c.Question)) + " " + c.Option
		}
		if got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.payload, got, tc.want)
		}
	}
}

// TestParseCommandRefuses: each bad payload is refused with an error naming what is wrong.
func TestParseCommandRefuses(t *testing.T) {
	for _, tc := range []struct{ payload, names string }{
		{``, "EOF"},
		{`not json`, "invalid character"},
		{`{"kind":"act","action":{"seat":0,"act":"discard","tiles":["5B"],"rack":1}}`, "no seat"},
		{`{"kind":"act","seat":0}`, "unknown field"},
		{`{"kind":"act"}`, "needs an action"},
		{`{"kind":"act","action":{"act":"discard","tiles":["ZZ"],"rack":1}}`, "ZZ"},
		{`{"kind":"act","action":{"act":"discard","rack":1}}`, "exactly one tile"},
		{`{"kind":"mahjong","rack":3}`, "rack 3"},
		{`{"kind":"answer","question":0,"option":"x"}`, "needs a question"},
		{`{"kind":"fly"}`, "unknown kind"},
		{`{}`, "no kind"},
		{`{"kind":"wall_game","rack":1}`, "takes no rack"},
		{`{"kind":"racks_right","rack":1}`, "takes nothing"},
		{`{"kind":"racks_right","question":2}`, "takes nothing"},
		{`{"kind":"take_back","rack":2}`, "takes nothing"},
		{`{"kind":"take_back","action":{"act":"draw","tiles":["5B"]}}`, "takes nothing"},
		{`{"kind":"act","action":{"act":"take_back"}}`, "command kind take_back"},
		{`{"kind":"mahjong"} {"kind":"mahjong"}`, "data after"},
		{`{"kind":"mahjong","id":"` + strings.Repeat("x", 65) + `"}`, "id longer"},
		{strings.Repeat(" ", MaxCommandSize+1), "at most"},
	} {
		_, _, err := ParseCommand(0, []byte(tc.payload), at)
		if err == nil || !errors.Is(err, ErrPayload) || !strings.Contains(err.Error(), tc.names) {
			t.Errorf("%.40q: got %v, want an ErrPayload naming %q", tc.payload, err, tc.names)
		}
	}
}

// FuzzParseCommand: any payload either parses to a command for the topic's seat with a
// well-formed action, or is refused with ErrPayload; never a panic.
func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{`{"kind":"mahjong","rack":1}`, `{"kind":"answer","question":3,"option":"discarded"}`,
		`{"id":"x","kind":"act","action":{"act":"call","tiles":["5B","5B","5B"],"rack":1}}`, `{"kind":"wall_game"}`, `{"kind":"act","action":{"seat":1}}`} {
		f.Add(uint8(1), []byte(s))
	}
	f.Fuzz(func(t *testing.T, seat uint8, payload []byte) {
		s := int(seat % MaxSeats)
		c, _, err := ParseCommand(s, payload, at)
		if err != nil {
			if !errors.Is(err, ErrPayload) {
				t.Fatalf("error without ErrPayload: %v", err)
			}
			return
		}
		if c.Seat != s || (c.Action != nil && c.Action.Seat != s) {
			t.Fatalf("seat %d from the topic, command for %d (action %v)", s, c.Seat, c.Action)
		}
	})
}
