package daemon

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/desk"
	"github.com/siamesetable/siamesed/internal/natstest"
	"github.com/siamesetable/siamesed/journal"
	tevent "github.com/siamesetable/siamesed/tournament/event"
	"github.com/siamesetable/siamesed/tournament/link"
	"github.com/siamesetable/siamesed/tournament/table"
)

// TestTournamentTable: a simulated table given an event and its table number turns each game it
// finishes into a result (its journal's hash, scores, Mah Jonggs) in its outbox; sent through a
// NATS server, the desk records each once, under the event's players for that table.
func TestTournamentTable(t *testing.T) {
	if testing.Short() {
		t.Skip("plays games and starts a NATS server")
	}
	evPath, _ := filepath.Abs("../configs/events/siamese-pairs.yaml")
	ev, err := tevent.Load(evPath, tevent.ConfigsRules)
	if err != nil {
		t.Fatal(err)
	}
	cl := natstest.Start(t, 1)
	data := t.TempDir()
	cfg := fastConfig(2, 0)
	cfg.MQTT.Broker = "none"
	cfg.Rules = ev.Rules
	cfg.Tournament = TournamentConfig{Event: evPath, Table: 3, NATS: cl.URLs(), Replicas: 1}
	if err := cfg.Check(); err != nil {
		t.Fatal(err)
	}
	if err := Run(context.Background(), cfg, Options{DataDir: data}); err != nil {
		t.Fatal(err)
	}
	// The ledger holds a result per game finished, named by its journal's hash.
	tb, err := table.Open(ev, 3, data, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	played := tb.Sheet(1).Played
	logs, _ := filepath.Glob(filepath.Join(data, "games", "*"+journal.LogExt))
	if len(played) != 2 || len(logs) < 2 {
		t.Fatalf("%d results for %d game logs", len(played), len(logs))
	}
	hashes := map[string]bool{}
	for _, p := range logs {
		h, _ := table.JournalHash(p)
		hashes[h] = true
	}
	for _, g := range played {
		if !hashes[g.Journal] || g.Seats[0] != "Eve" || g.Seats[1] != "Flo" {
			t.Errorf("result %s: journal %s not a game log's, or seats %v not table 3's", g.ID, g.Journal, g.Seats)
		}
	}
	// The desk gets them once the table reaches the cluster (here: after the daemon stopped,
	// from its outbox).
	d, err := desk.Open(ev, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dc, _ := link.Dial(link.Options{URLs: cl.URLs(), Replicas: 1})
	defer dc.Close()
	go d.Serve(ctx, dc)
	tc, _ := link.Dial(link.Options{URLs: cl.URLs(), Replicas: 1})
	defer tc.Close()
	go tc.RunTable(ctx, tb)
	deadline := time.Now().Add(30 * time.Second)
	for tb.Pending() > 0 || len(d.View().Tables[2].Sheets[0].Games) < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("outbox %d, desk has %d games", tb.Pending(), len(d.View().Tables[2].Sheets[0].Games))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestTournamentConfigProblems(t *testing.T) {
	c := Defaults()
	c.Tournament = TournamentConfig{Event: "e.yaml", NATS: []string{"http://x"}, Replicas: 2}
	err := c.Check()
	for _, want := range []string{"tournament.table: 0", `tournament.nats[0]: "http://x"`, "tournament.replicas: 2"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("no %q in %v", want, err)
		}
	}
}
