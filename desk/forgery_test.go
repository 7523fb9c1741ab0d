package desk

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/siamesetable/siamesed/internal/natstest"
	"github.com/siamesetable/siamesed/tournament/link"
	"github.com/siamesetable/siamesed/tournament/simtable"
	"github.com/siamesetable/siamesed/tournament/wire"
)

// TestForgedByATable: table 1, with its own key, tries to speak for table 2 on the subjects it
// may use: messages that say they are table 2's, ids of table 2's messages (JetStream's
// message-id header included, so that the stream would drop table 2's own as duplicates), a
// progress of table 2's. The desk records none of it, and every message table 2 sends itself
// is counted: its sheet closes with its own players' initials.
func TestForgedByATable(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a NATS server")
	}
	ev := pairs(t)
	cl := natstest.Start(t, 1, ev.Tables())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	d, err := Open(ev, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	dc, err := link.Dial(cl.Desk())
	if err != nil {
		t.Fatal(err)
	}
	defer dc.Close()
	served := make(chan error, 1)
	go func() { served <- d.Serve(ctx, dc) }()
	defer func() { cancel(); <-served }()
	forger, err := link.Dial(cl.Table(1))
	if err != nil {
		t.Fatal(err)
	}
	defer forger.Close()
	victim, err := simtable.Open(ev, 2, t.TempDir(), 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer victim.Close()
	vc, err := link.Dial(cl.Table(2))
	if err != nil {
		t.Fatal(err)
	}
	defer vc.Close()
	go vc.RunTable(ctx, victim.Table)
	for range ev.GamesPerRound {
		if _, _, err := victim.Play(time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	sh := victim.Sheet(1)
	for _, g := range sh.Played {
		for _, s := range g.Signers {
			if err := victim.Sign(s, g.ID); err != nil {
				t.Fatal(err)
			}
		}
	}
	waitFor(t, "table 2's games at the desk", 30*time.Second, func() bool { return len(d.View().Tables[1].Sheets[0].Games) == ev.GamesPerRound })

	// Before table 2 initials its totals, table 1 sends what would take their place.
	publish := func(subject string, m wire.Message, msgID string) {
		t.Helper()
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		var opts []jetstream.PublishOpt
		if msgID != "" {
			opts = append(opts, jetstream.WithMsgID(msgID))
		}
		if _, err := forger.JS.Publish(ctx, subject, b, opts...); err != nil {
			t.Fatalf("table 1 publishing on its own subject %s: %v", subject, err)
		}
	}
	for seat, by := range sh.Initial {
		id := wire.InitialsID(2, 1, seat, sh.Totals[seat])
		m := wire.Message{Schema: wire.Schema, ID: id, Kind: wire.KindInitials, Event: ev.Name, Table: 2, Round: 1, At: time.Now(),
			Sign: &wire.Sign{Seat: seat, By: by, Name: "Mallory", Total: sh.Totals[seat]}}
		publish(link.InSubject(1, wire.KindInitials), m, id) // table 2's, on table 1's subject
		m.Table = 1
		publish(link.InSubject(1, wire.KindInitials), m, id) // table 1's, with table 2's id
	}
	call := wire.Message{Schema: wire.Schema, ID: wire.CallID(2, 1), Kind: wire.KindCall, Event: ev.Name, Table: 1, Round: 1, At: time.Now(),
		Call: &wire.Call{Game: 1, Note: "Mallory calls"}}
	publish(link.InSubject(1, wire.KindCall), call, "")
	forged := sh.Played[0].Result
	forged.Scores = []int{-500, 500}
	res := wire.Message{Schema: wire.Schema, ID: wire.ResultID(strings.Repeat("ab", 32)), Kind: wire.KindResult, Event: ev.Name, Table: 2, Round: 1, At: time.Now(), Result: &forged}
	res.Result.Journal, res.Result.Game = strings.Repeat("ab", 32), 2
	publish(link.InSubject(1, wire.KindResult), res, "")
	progress := wire.Message{Schema: wire.Schema, ID: wire.ProgressID(2, 1), Kind: wire.KindProgress, Event: ev.Name, Table: 2, Round: 3, At: time.Now().Add(time.Hour),
		Progress: &wire.Progress{Game: 1, Phase: "over", Waiting: "Mallory"}}
	b, _ := json.Marshal(progress)
	forger.NC.Publish(link.ProgressSubject(1), b)
	forger.NC.Flush()

	// Table 2 initials its own totals: each counted, none of table 1's.
	for seat, by := range sh.Initial {
		if err := victim.Initial(1, seat, by); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, "table 2's sheet closed by its own initials", 30*time.Second, func() bool { return d.View().Tables[1].Sheets[0].Closed })
	time.Sleep(time.Second) // anything forged still on its way has arrived
	all, err := d.Changes(0)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range all {
		if strings.Contains(string(c.Body), "Mallory") || c.Table != 2 {
			t.Errorf("recorded: %s %s by %s (table %d): %s", c.Kind, c.Ref, c.Who, c.Table, c.Body)
		}
	}
	v := d.View()
	if g := v.Tables[1].Glance; g.Waiting == "Mallory" || g.Round == 3 {
		t.Errorf("table 2 at a glance: %+v, table 1's forgery", g)
	}
	if len(v.Tables[1].Sheets[0].Games) != ev.GamesPerRound {
		t.Errorf("table 2's sheet has %d games", len(v.Tables[1].Sheets[0].Games))
	}
}
