package history

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/engine/game"
)

// TestListOrderAndFilters: games come back in the order they finished, whatever the order
// they were recorded in; a session or a day picks its own; the day is the table's, not UTC's.
func TestListOrderAndFilters(t *testing.T) {
	db := newDB(t)
	mustRecord(t, db,
		rec("c", "fri", at(21, 0), four, 0, 0, 0, 0),
		rec("a", "fri", at(19, 0), four, 0, 0, 0, 0),
		rec("late", "fri", at(23, 30), four, 0, 0, 0, 0), // 04:30 UTC on the 24th
		rec("b", "club", at(20, 0), four, 0, 0, 0, 0),
		rec("next", "sat", at(23, 30).Add(24*time.Hour), four, 0, 0, 0, 0),
	)
	for _, c := range []struct {
		f    Filter
		want string
	}{
		{Filter{}, "a b c late next"},
		{Filter{Session: "fri"}, "a c late"},
		{Filter{Session: "fr"}, ""},
		{Filter{Day: "2026-11-23"}, "a b c late"},
		{Filter{Day: "2026-11-24"}, "next"},
		{Filter{Day: "2026-11-25"}, ""},
	} {
		list, err := db.List(c.f)
		if got := strings.Join(ids(list), " "); err != nil || got != c.want {
			t.Errorf("List(%+v) = %q, %v; want %q", c.f, got, err, c.want)
		}
	}
	for _, f := range []Filter{{Day: "23/11/2026"}, {Session: "a\nb"}, {Session: "s", Day: "2026-11-23"}} {
		if _, err := db.List(f); err == nil {
			t.Errorf("List(%+v): no error", f)
		}
	}
	if g, err := db.Latest(); err != nil || g.ID != "next" {
		t.Errorf("Latest() = %s, %v", g.ID, err)
	}
}

// TestTally: cumulative scores by seat position over a session, the names seen at each seat,
// a session's pot paid out (royale 16, no cent lost), and the end-of-day tally across sessions.
func TestTally(t *testing.T) {
	db := newDB(t)
	mustRecord(t, db,
		rec("g1", "fri", at(19, 0), four, 50, -10, -20, -20),
		rec("g2", "fri", at(20, 0), []string{"Ann", "Bea", "Cyril", "Dee"}, -30, 60, -10, -20),
		rec("g3", "club", at(21, 0), four, 5, 5, 5, -15),
	)
	tl, err := db.Tally("fri")
	if err != nil {
		t.Fatal(err)
	}
	want := Tally{
		Session: "fri", Games: []string{"g1", "g2"}, Rules: []string{"royale-4"},
		Seats: []SeatTotal{
			{0, []string{"Ann"}, 20, 0}, {1, []string{"Bea"}, 50, 0},
			{2, []string{"Cy", "Cyril"}, -30, 0}, {3, []string{"Dee"}, -40, 0},
		},
	}
	if !reflect.DeepEqual(tl, want) {
		t.Errorf("tally\n %+v\nwant\n %+v", tl, want)
	}
	if err := db.SetPot("fri", Pot{Cents: 1001, Triple: true}); err != nil {
		t.Fatal(err)
	}
	if tl, err = db.Tally("fri"); err != nil {
		t.Fatal(err)
	}
	wantShares := game.Pot([]int{20, 50, -30, -40}, 1001, true)
	sum := 0
	for _, s := range tl.Shares {
		sum += s.Amount
	}
	if tl.Pot == nil || *tl.Pot != (Pot{1001, true}) || !reflect.DeepEqual(tl.Shares, wantShares) || sum != 1001 {
		t.Errorf("pot %+v shares %+v (sum %d), want %+v", tl.Pot, tl.Shares, sum, wantShares)
	}
	if err := db.SetPot("fri", Pot{}); err != nil {
		t.Fatal(err)
	}
	if tl, err = db.Tally("fri"); err != nil || tl.Pot != nil || tl.Shares != nil {
		t.Errorf("pot removed: %+v %+v, %v", tl.Pot, tl.Shares, err)
	}
	day, err := db.TallyDay("2026-11-23")
	if err != nil {
		t.Fatal(err)
	}
	var totals []int
	for _, s := range day.Seats {
		totals = append(totals, s.Total)
	}
	if !reflect.DeepEqual(totals, []int{25, 55, -25, -55}) || len(day.Games) != 3 || day.Day != "2026-11-23" {
		t.Errorf("day tally %+v", day)
	}
	if err := db.SetPot("fri", Pot{Cents: -1}); err == nil {
		t.Error("a negative pot was set")
	}
}

// TestTallyMixedTables: a session with a two-player and a three-player game adds up by
// position; a seat only some games had counts what those games gave it.
func TestTallyMixedTables(t *testing.T) {
	tl := TallyOf([]Game{
		rec("g1", "s", at(19, 0), []string{"Ann", "Bea"}, 40, -40),
		rec("g2", "s", at(20, 0), []string{"Ann", "Bea", "Cy"}, 10, 20, -30),
	})
	want := []SeatTotal{{0, []string{"Ann"}, 50, 0}, {1, []string{"Bea"}, -20, 0}, {2, []string{"Cy"}, -30, 0}}
	if !reflect.DeepEqual(tl.Seats, want) {
		t.Errorf("seats %+v, want %+v", tl.Seats, want)
	}
	if empty := TallyOf(nil); len(empty.Seats) != 0 || empty.Games == nil {
		t.Errorf("empty tally %+v", empty)
	}
}

// TestListOrderAcrossClockChanges: games are ordered by the instant they finished, even when
// the table's clock went back an hour between them (the end of summer time) or a finish time
// has fractions of a second.
func TestListOrderAcrossClockChanges(t *testing.T) {
	db := newDB(t)
	edt, est := time.FixedZone("EDT", -4*3600), time.FixedZone("EST", -5*3600)
	mustRecord(t, db,
		rec("second", "s", time.Date(2026, 11, 1, 1, 10, 0, 0, est), four, 0, 0, 0, 0), // 06:10 UTC
		rec("first", "s", time.Date(2026, 11, 1, 1, 30, 0, 0, edt), four, 0, 0, 0, 0),  // 05:30 UTC
		rec("third", "s", time.Date(2026, 11, 1, 1, 10, 0, 500, est), four, 0, 0, 0, 0),
	)
	list, err := db.List(Filter{Session: "s"})
	if got := strings.Join(ids(list), " "); err != nil || got != "first second third" {
		t.Errorf("List = %q, %v; want first second third", got, err)
	}
}

// TestTallyWallPot: Wright-Patterson games feed and take a wall pot in the order they finished,
// whatever order they are given in; its moves count in the seats' nets (money), never in their
// scores (points), and a pot left is refunded. The nets sum to zero.
func TestTallyWallPot(t *testing.T) {
	two := []string{"Ann", "Bea"}
	wall := func(id string, f time.Time) Game {
		g := rec(id, "wp", f, two, 0, 0)
		g.Rules, g.Result.Reason, g.Result.WallPot = "wright-patterson-siamese", "wall_game", &game.WallPotMove{PaidIn: 50}
		return g
	}
	taker := 1
	won := rec("g3", "wp", at(21, 0), two, 500, 1500)
	won.Rules, won.Result.WallPot = "wright-patterson-siamese", &game.WallPotMove{Taker: &taker}
	won.Result.Payouts = []game.Payout{{From: 0, To: 1, Points: 1000}}
	won.Result.PaidAtOnce = []game.Payout{{From: 1, To: 0, Points: 500}} // Ann's bouquet
	tl := TallyOf([]Game{won, wall("g4", at(22, 0)), wall("g2", at(20, 0)), wall("g1", at(19, 0))})
	var totals, nets []int
	for _, s := range tl.Seats {
		totals, nets = append(totals, s.Total), append(nets, s.Net)
	}
	// g1, g2: 100 in from each seat; g3: Ann pays 1000 but was paid 500 at once, Bea takes
	// the 200; g4: 50 each, refunded at the end. Ann -100 -1000 +500 = -600, Bea +600.
	if fmt.Sprint(totals) != "[500 1500]" || fmt.Sprint(nets) != "[-600 600]" || tl.WallPot == nil || fmt.Sprint(tl.WallPot.Net) != "[-100 100]" || tl.WallPot.Left != 0 {
		t.Errorf("scores %v, nets %v, wall pot %+v; want scores [500 1500], nets [-600 600]", totals, nets, tl.WallPot)
	}
	if got := strings.Join(tl.Games, " "); got != "g1 g2 g3 g4" {
		t.Errorf("games %s, want them in the order they finished", got)
	}
	if plain := TallyOf([]Game{rec("g1", "s", at(19, 0), two, 40, -40)}); plain.WallPot != nil {
		t.Errorf("a game without a pot gives a wall pot: %+v", plain.WallPot)
	}
}
