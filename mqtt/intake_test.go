package mqtt

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/configs"
	"github.com/siamesetable/siamesed/engine/track"
	"github.com/siamesetable/siamesed/sim"
)

// midGame is a Siamese game some acts in (the deal done, discards made), with a tracker that
// believes it, as the daemon's table loop holds it.
func midGame(t testing.TB, acts int) *track.Tracker {
	t.Helper()
	rules, err := configs.LoadRuleset("siamese")
	if err != nil {
		t.Fatal(err)
	}
	c, err := configs.LoadCard("")
	if err != nil {
		t.Fatal(err)
	}
	g := sim.NewGame(rules, c.Card, 7, 0)
	for range acts {
		if _, ok := g.Next(); !ok {
			t.Fatal("the game ended early")
		}
	}
	return track.New(track.Config{AskAfter: 5 * time.Second, Grace: time.Second}, g.State)
}

// replies records what the intake replied.
type replies struct{ public, seat []Event }

func (r *replies) Event(e Event) bool               { r.public = append(r.public, e); return true }
func (r *replies) SeatEvent(seat int, e Event) bool { r.seat = append(r.seat, e); return true }

// tableOf is the table loop's submit for a tracker: Vet, then the tracker.
func tableOf(tr *track.Tracker) Submit {
	return func(_ context.Context, c track.Command) error {
		if err := Vet(tr.State(), c); err != nil {
			return err
		}
		_, err := tr.Command(c)
		return err
	}
}

func snapshot(tr *track.Tracker) string {
	s := tr.State()
	b, _ := json.Marshal([]any{s.PublicView(), s.SeatView(0), s.SeatView(1), tr.Questions()})
	return string(b)
}

// TestCommandsRefusedChangeNothing: a malformed, another seat's, or out-of-turn command gets
// an error event naming what was wrong, and the game is as before.
func TestCommandsRefusedChangeNothing(t *testing.T) {
	tr := midGame(t, 40)
	s := tr.State()
	other := 1 - s.Turn
	topics := TopicsFor("t1")
	var r replies
	in := NewIntake(topics, tableOf(tr), &r, time.Now, nil)
	before := snapshot(tr)
	for _, tc := range []struct {
		seat          int
		payload, want string
	}{
		{other, `{"kind":"act","action":{"act":"discard","tiles":["5B"],"rack":1}}`, "turn"},
		{other, `{"kind":"act","action":{"act":"draw","tiles":["5B"],"rack":1}}`, "drew"},
		{s.Turn, `{"kind":"act","action":{"act":"discard","tiles":["J"],"rack":1},"id":"x"}`, ""},
		{s.Turn, `{"kind":"act"`, "unexpected EOF"},
		{s.Turn, `{"kind":"act","action":{"seat":1,"act":"discard","tiles":["5B"],"rack":1}}`, "no seat"},
		{s.Turn, `{"kind":"answer","question":99,"option":"x"}`, "no open question 99"},
		{s.Turn, `{"kind":"teleport"}`, "unknown kind"},
	} {
		r = replies{}
		err := in.Handle(context.Background(), topics.Cmd(tc.seat), []byte(tc.payload))
		if err == nil {
			// a legal act the seat does not hold the tile for is impossible: refused too
			t.Errorf("%s from seat %d: taken", tc.payload, tc.seat)
			continue
		}
		if !errors.Is(err, track.ErrCommand) && !errors.Is(err, ErrPayload) {
			t.Errorf("%s: %v is neither ErrCommand nor ErrPayload", tc.payload, err)
		}
		if len(r.seat) != 1 || r.seat[0].Type != EventError || !strings.Contains(r.seat[0].Error, tc.want) {
			t.Errorf("%s: seat events %+v, want one error naming %q", tc.payload, r.seat, tc.want)
		}
		if len(r.public) != 1 || r.public[0].Type != EventRefused || r.public[0].Error != "" {
			t.Errorf("%s: public events %+v, want one refusal without its reason", tc.payload, r.public)
		}
		if after := snapshot(tr); after != before {
			t.Fatalf("%s changed the game", tc.payload)
		}
	}
}

// FuzzCommandIntake: any payload on any seat's command topic, judged like the daemon judges
// it, never panics, and a refused one leaves the game exactly as it was.
func FuzzCommandIntake(f *testing.F) {
	for _, s := range []string{`{"kind":"mahjong","rack":1}`, `{"kind":"answer","question":1,"option":"discarded"}`,
		`{"kind":"act","action":{"act":"discard","tiles":["5B"],"rack":1}}`, `{"kind":"act","action":{"act":"move","tiles":["5B"],"rack":1,"to":2}}`,
		`{"kind":"act","action":{"act":"call","tiles":["5B","5B","5B"],"rack":2}}`, `{"kind":"wall_game"}`, `{"kind":"act","action":{"act":"mahjong"}}`} {
		f.Add(uint8(0), []byte(s))
		f.Add(uint8(1), []byte(s))
	}
	topics := TopicsFor("t1")
	f.Fuzz(func(t *testing.T, seat uint8, payload []byte) {
		tr := midGame(t, 40)
		before := snapshot(tr)
		var r replies
		in := NewIntake(topics, tableOf(tr), &r, time.Now, nil)
		if err := in.Handle(context.Background(), topics.Cmd(int(seat%MaxSeats)), payload); err != nil {
			if after := snapshot(tr); after != before {
				t.Fatalf("refused (%v) yet the game changed", err)
			}
			if len(r.seat) != 1 || r.seat[0].Error == "" {
				t.Fatalf("refused (%v) without an error event", err)
			}
		}
	})
}
