package desk

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/tournament/event"
	"github.com/siamesetable/siamesed/tournament/wire"
)

func pairs(t testing.TB) *event.Event {
	t.Helper()
	ev, err := event.Load("../configs/events/siamese-pairs.yaml", event.ConfigsRules)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

var at = time.Date(2026, 11, 23, 19, 0, 0, 0, time.UTC)

func resultMsg(table, round, game int, scores []int, mj ...int) wire.Message {
	h := sha256.Sum256([]byte{byte(table), byte(round), byte(game), byte(len(scores))})
	j := hex.EncodeToString(h[:])
	r := &wire.Result{Game: game, GameID: "g", Journal: j, Seats: []string{"x", "y"}, Rules: "siamese", Reason: "second_mahjong", Scores: scores, Penalty: []int{0, 0}}
	for _, s := range mj {
		r.MahJong = append(r.MahJong, wire.MahJong{Seat: s, Rack: 1, Hand: "h", Points: 25})
	}
	return wire.Message{Schema: wire.Schema, ID: wire.ResultID(j), Kind: wire.KindResult, Event: "Siamese pairs", Table: table, Round: round, At: at, Result: r}
}

func signMsg(r wire.Message, seat int) wire.Message {
	return wire.Message{Schema: wire.Schema, ID: wire.SignID(r.ID, seat), Kind: wire.KindSign, Event: r.Event, Table: r.Table, Round: r.Round, At: at,
		Sign: &wire.Sign{Game: r.Result.Game, Result: r.ID, Seat: seat, By: seat, Name: "p"}}
}

func initialsMsg(table, round, seat, by, total int) wire.Message {
	return wire.Message{Schema: wire.Schema, ID: wire.InitialsID(table, round, seat, total), Kind: wire.KindInitials, Event: "Siamese pairs", Table: table, Round: round, At: at,
		Sign: &wire.Sign{Seat: seat, By: by, Name: "p", Total: total}}
}

func mustReceive(t *testing.T, d *Desk, m wire.Message, added bool) {
	t.Helper()
	got, err := d.Receive(m)
	if err != nil || got != added {
		t.Fatalf("receive %s: added %v, %v; want %v", m.ID, got, err, added)
	}
}

func standing(v View, player string) Standing {
	for _, s := range v.Standings {
		if s.Player == player {
			return s
		}
	}
	return Standing{}
}

// TestCountsSignedOnceAndSurvivesRestart: a game counts once its Mah Jongg signs, once however
// often it arrives; a restart computes the same book from the record.
func TestCountsSignedOnceAndSurvivesRestart(t *testing.T) {
	ev := pairs(t)
	dir := t.TempDir()
	d, err := Open(ev, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	g1 := resultMsg(1, 1, 1, []int{50, -10}, 0, 0) // Ann twice
	g2 := resultMsg(1, 1, 2, []int{-20, 40}, 1)    // Bea
	mustReceive(t, d, signMsg(g2, 1), true)        // the signature overtook its result
	mustReceive(t, d, g1, true)
	mustReceive(t, d, g1, false) // redelivered
	if s := standing(d.View(), "Ann"); s.Points != 0 || s.Pending != 1 {
		t.Errorf("unsigned game counted: %+v", s)
	}
	mustReceive(t, d, signMsg(g1, 0), true)
	mustReceive(t, d, g2, true)
	v := d.View()
	if a, b := standing(v, "Ann"), standing(v, "Bea"); a.Points != 30 || a.MahJongs != 2 || b.Points != 30 || b.MahJongs != 1 || a.Games != 2 {
		t.Errorf("Ann %+v, Bea %+v; want 30 points each, 2 and 1 Mah Jonggs", a, b)
	}
	if v.Standings[0].Player != "Ann" || v.Standings[0].Rank != 1 || v.Standings[1].Rank != 2 {
		t.Errorf("equal points: Mah Jonggs break the tie: %+v", v.Standings[:2])
	}
	// Initials: Bea (West) for East and for herself; East may not initial.
	if _, err := d.Receive(initialsMsg(1, 1, 0, 0, 30)); !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "West for East") {
		t.Errorf("East initialing her own total: %v", err)
	}
	mustReceive(t, d, initialsMsg(1, 1, 0, 1, 30), true)
	mustReceive(t, d, initialsMsg(1, 1, 1, 1, 30), true)
	if sh := d.View().Tables[0].Sheets[0]; !sh.Closed || !sh.Initialed[0] {
		t.Errorf("sheet not closed after both games signed and both totals initialed: %+v", sh)
	}
	// The director's penalty reopens the totals: initials no longer match.
	if _, err := d.Rule(1, 1, wire.Ruling{Director: "Jo", Text: "miscalled tile for Mah Jongg", Penalty: &wire.Penalty{Game: 2, Seat: 0, Points: -25}}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Rule(1, 1, wire.Ruling{Director: "Jo", Text: "scored wrong", Correction: &wire.Correction{Result: g2.ID, Scores: []int{-20, 50}}}); err != nil {
		t.Fatal(err)
	}
	check := func(v View) {
		t.Helper()
		if a, b := standing(v, "Ann"), standing(v, "Bea"); a.Points != 5 || b.Points != 40 {
			t.Errorf("after penalty and correction: Ann %d, Bea %d; want 5, 40", a.Points, b.Points)
		}
		if v.Tables[0].Sheets[0].Closed {
			t.Error("a sheet stays closed after its totals changed")
		}
	}
	before := d.View()
	check(before)
	d.Close()
	d, err = Open(ev, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	after := d.View()
	check(after)
	if after.Changes != before.Changes || after.Last != before.Last {
		t.Errorf("restart: %d changes up to %d, before %d up to %d", after.Changes, after.Last, before.Changes, before.Last)
	}
}

func TestRefuses(t *testing.T) {
	d, err := Open(pairs(t), t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	g := resultMsg(1, 1, 1, []int{50, -10}, 0)
	mustReceive(t, d, g, true)
	other := g
	other.Event = "Spring open"
	bigTable := resultMsg(4, 1, 1, []int{1, 2})
	sign := signMsg(g, 1)
	for _, c := range []struct {
		m    wire.Message
		want string
	}{
		{other, `for event "Spring open"`},
		{bigTable, "the event has 3 tables"},
		{resultMsg(1, 1, 3, []int{1, 2}), "game 3"},
		{sign, "seat 1 made no Mah Jongg"},
	} {
		if _, err := d.Receive(c.m); !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.m.ID, err, c.want)
		}
	}
	if _, err := d.Rule(1, 1, wire.Ruling{Director: "Jo", Text: "x", Call: "c-nothing"}); err == nil {
		t.Error("a ruling on a call never made")
	}
}
