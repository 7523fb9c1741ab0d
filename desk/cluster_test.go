package desk

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/internal/natstest"
	"github.com/siamesetable/siamesed/tournament/link"
	"github.com/siamesetable/siamesed/tournament/simtable"
	"github.com/siamesetable/siamesed/tournament/wire"
)

// signAll has each Mah Jongg sign its game and each total initialed (West for East).
func signAll(t testing.TB, st *simtable.Table, round int) {
	t.Helper()
	sh := st.Sheet(round)
	for _, g := range sh.Played {
		for _, s := range g.Signers {
			if err := st.Sign(s, g.ID); err != nil {
				t.Fatal(err)
			}
		}
	}
	for seat, by := range sh.Initial {
		if err := st.Initial(round, seat, by); err != nil {
			t.Fatal(err)
		}
	}
}

func waitFor(t testing.TB, what string, limit time.Duration, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("no %s after %v", what, limit)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestOverTheCluster: three tables play a round through a three-node cluster; a node killed
// and the desk restarted in the middle; every result counted once, standings as the games'
// scores add up; a ruling reaches its table.
func TestOverTheCluster(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a NATS cluster")
	}
	ev := pairs(t)
	cl := natstest.Start(t, 3)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	deskDir := t.TempDir()
	startDesk := func() (*Desk, context.CancelFunc, chan error) {
		d, err := Open(ev, deskDir, nil)
		if err != nil {
			t.Fatal(err)
		}
		c, err := link.Dial(link.Options{URLs: cl.URLs(), Name: "desk"})
		if err != nil {
			t.Fatal(err)
		}
		dctx, dcancel := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { done <- d.Serve(dctx, c); c.Close(); d.Close() }()
		return d, dcancel, done
	}
	d, stopDesk, deskDone := startDesk()
	var tables []*simtable.Table
	for n := 1; n <= ev.Tables(); n++ {
		st, err := simtable.Open(ev, n, t.TempDir(), uint64(n), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		c, err := link.Dial(link.Options{URLs: cl.URLs(), Name: fmt.Sprintf("table-%d", n)})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		go c.RunTable(ctx, st.Table)
		tables = append(tables, st)
	}
	play := func() {
		for _, st := range tables {
			if _, _, err := st.Play(time.Now()); err != nil {
				t.Fatal(err)
			}
		}
	}
	play()
	cl.Kill(1) // a node down mid-round
	stopDesk() // and the desk stopped
	if err := <-deskDone; err != nil {
		t.Fatal(err)
	}
	play()
	for _, st := range tables {
		signAll(t, st, 1)
	}
	d, stopDesk, deskDone = startDesk()
	defer func() { stopDesk(); <-deskDone }()
	cl.Restart(1)
	want := map[string]int{}
	for _, st := range tables {
		sh := st.Sheet(1)
		for i, p := range sh.Players {
			want[p] += sh.Totals[i]
		}
	}
	waitFor(t, "every game counted", 60*time.Second, func() bool {
		v := d.View()
		for _, tv := range v.Tables {
			if !tv.Sheets[0].Closed {
				return false
			}
		}
		return true
	})
	v := d.View()
	for _, s := range v.Standings {
		if s.Points != want[s.Player] || s.Games != 2 || s.Pending != 0 {
			t.Errorf("%s: %+v, want %d points over 2 games", s.Player, s, want[s.Player])
		}
	}
	all, _ := d.Changes(0)
	results := map[string]int{}
	for _, c := range all {
		if c.Kind == wire.KindResult {
			results[c.Ref]++
		}
	}
	if len(results) != 2*ev.Tables() {
		t.Errorf("%d results recorded, want %d", len(results), 2*ev.Tables())
	}
	// A ruling reaches its table.
	if _, err := d.Rule(2, 1, wire.Ruling{Director: "Jo", Text: "minus 10: miscalled tile", Penalty: &wire.Penalty{Game: 1, Seat: 1, Points: -10}}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the ruling at table 2", 30*time.Second, func() bool { return len(tables[1].Sheet(1).Rulings) == 1 })
	if tot := tables[1].Sheet(1).Totals[1]; tot != v.Tables[1].Sheets[0].Totals[1]-10 {
		t.Errorf("table 2's West total %d after the ruling; the desk had %d before it", tot, v.Tables[1].Sheets[0].Totals[1])
	}
}
