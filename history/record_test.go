package history

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/journal"
)

// TestRecordIsIdempotent: recording a game twice (a daemon restarted after recording it) keeps
// the first record and counts it once.
func TestRecordIsIdempotent(t *testing.T) {
	db := newDB(t)
	g := rec("g1", "s", at(19, 45), four, 50, -10, -20, -20)
	for i, want := range []bool{true, false} {
		again := g
		again.Finished = g.Finished.Add(time.Duration(i) * time.Hour)
		added, err := db.Record(again)
		if err != nil || added != want {
			t.Fatalf("record %d: added %v, %v", i+1, added, err)
		}
	}
	got, err := db.Get("g1")
	if err != nil {
		t.Fatal(err)
	}
	if !got.Finished.Equal(g.Finished) || !reflect.DeepEqual(got.Result, g.Result) || got.Day() != "2026-11-23" {
		t.Errorf("got %+v, want the first record", got)
	}
	for _, f := range []Filter{{}, {Session: "s"}, {Day: "2026-11-23"}} {
		if list, err := db.List(f); err != nil || len(list) != 1 {
			t.Errorf("list %+v: %d games, %v", f, len(list), err)
		}
	}
	if has, err := db.Has("g1"); !has || err != nil {
		t.Errorf("Has(g1) = %v, %v", has, err)
	}
	if has, err := db.Has("g2"); has || err != nil {
		t.Errorf("Has(g2) = %v, %v", has, err)
	}
	if _, err := db.Get("g2"); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), `"g2"`) {
		t.Errorf("Get(g2): %v", err)
	}
}

// TestRecordRefusesBadGames: a game that is not whole is not recorded, and what was recorded
// before is all still there.
func TestRecordRefusesBadGames(t *testing.T) {
	db := newDB(t)
	good := rec("g1", "s", at(19, 45), four, 50, -10, -20, -20)
	mustRecord(t, db, good)
	for _, c := range []struct {
		name string
		edit func(g *Game)
		want string
	}{
		{"no id", func(g *Game) { g.ID = "" }, "no game id"},
		{"a path as id", func(g *Game) { g.ID = "../x" }, "game id"},
		{"no session", func(g *Game) { g.Session = "" }, "no session name"},
		{"a control character in the session", func(g *Game) { g.Session = "a\x00b" }, "control character"},
		{"a long session", func(g *Game) { g.Session = strings.Repeat("s", 101) }, "more than 100"},
		{"one seat", func(g *Game) { g.Seats = g.Seats[:1] }, "1 seats"},
		{"scores for other seats", func(g *Game) { g.Result.Scores = g.Result.Scores[:2] }, "2 scores for 4 seats"},
		{"no result", func(g *Game) { g.Result.Reason = "" }, "no result"},
		{"no finish time", func(g *Game) { g.Finished = time.Time{} }, "no finish time"},
		{"no rules", func(g *Game) { g.Rules = "" }, "no rules"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := rec("g2", "s", at(20, 30), slices.Clone(four), 1, 2, 3, 4)
			c.edit(&g)
			added, err := db.Record(g)
			if err == nil || added || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("added %v, err %v, want %q", added, err, c.want)
			}
		})
	}
	list, err := db.List(Filter{})
	if err != nil || !reflect.DeepEqual(ids(list), []string{"g1"}) {
		t.Errorf("after refused records: %v, %v", ids(list), err)
	}
}

// TestGameOf: a replayed log becomes a record: header facts, result, faults, actions.
func TestGameOf(t *testing.T) {
	g, err := journal.Load("../engine/game/testdata/scenarios/siamese-18C-drew-out-of-turn.jsonl",
		journal.Sources{CardPath: "../engine/game/testdata/card.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	r, err := GameOf(g, "", at(21, 5))
	if err != nil {
		t.Fatal(err)
	}
	faults := 0
	for _, v := range g.Verdicts {
		if v.Faulty() {
			faults++
		}
	}
	want := Game{
		ID: "siamese-18C-drew-out-of-turn", Path: g.Path, Rules: "siamese", Card: g.Header.Card,
		Seats: []string{"Ann", "Bea"}, Session: "2026-11-23", Finished: at(21, 5),
		Result: *g.State.Result, Faults: faults, Actions: len(g.Actions),
	}
	if !reflect.DeepEqual(r, want) || faults == 0 {
		t.Errorf("record\n %+v\nwant\n %+v", r, want)
	}
	g.Header.Game, g.Header.Started = "2026-11-23T19-04-11Z", "2026-11-23T19:04:11Z"
	if r, err = GameOf(g, "Tuesday", at(21, 5)); err != nil || r.ID != g.Header.Game || r.Session != "Tuesday" || r.Started.Hour() != 19 {
		t.Errorf("with id and start: %+v, %v", r, err)
	}
	g.Header.Started = "at seven"
	if _, err := GameOf(g, "", at(21, 5)); err == nil || !strings.Contains(err.Error(), "header started") {
		t.Errorf("bad start: %v", err)
	}
	g.State.Phase, g.State.Result = "draw", nil
	if _, err := GameOf(g, "", at(21, 5)); err == nil || !strings.Contains(err.Error(), "not over") {
		t.Errorf("a game not over: %v", err)
	}
}

// FuzzDecodeGame: whatever bytes a damaged history holds, reading a record never panics, and a
// record read is one that writes back to the same record.
func FuzzDecodeGame(f *testing.F) {
	good, err := encodeGame(rec("g1", "s", at(19, 45), four, 50, -10, -20, -20))
	if err != nil {
		f.Fatal(err)
	}
	f.Add([]byte("g1"), good)
	f.Add([]byte("g1"), []byte(`{"v":2,"id":"g1"}`))
	f.Add([]byte("g1"), []byte(`{"v":1,"id":"g2"}`))
	f.Add([]byte("g1"), []byte(`{`))
	f.Fuzz(func(t *testing.T, id, b []byte) {
		g, err := decodeGame(id, b)
		if err != nil {
			if !strings.Contains(err.Error(), "game ") {
				t.Errorf("error %q names no game", err)
			}
			return
		}
		again, err := encodeGame(g)
		if err != nil {
			t.Fatal(err)
		}
		g2, err := decodeGame(id, again)
		if err != nil || !reflect.DeepEqual(g, g2) {
			t.Errorf("round trip: %v\n %+v\n %+v", err, g, g2)
		}
	})
}

// FuzzCheckSession: an accepted session name cannot break the index keys, which end it with a
// NUL byte, nor be longer than the limit.
func FuzzCheckSession(f *testing.F) {
	for _, s := range []string{"2026-11-23", "Tuesday club", "a\x00b", "", "é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if CheckSession(s) != nil {
			return
		}
		if s == "" || strings.ContainsRune(s, 0) || len(s) > MaxSessionLen {
			t.Errorf("accepted %q", s)
		}
	})
}
