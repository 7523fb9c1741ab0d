package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/configs"
	"github.com/siamesetable/siamesed/desk"
	"github.com/siamesetable/siamesed/internal/natstest"
	"github.com/siamesetable/siamesed/journal"
	"github.com/siamesetable/siamesed/mqtt"
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

// TestTournamentSheetRoutes: the score sheet is served beside the display, and its signatures
// need the seat's own MQTT password.
func TestTournamentSheetRoutes(t *testing.T) {
	evPath, _ := filepath.Abs("../configs/events/siamese-pairs.yaml")
	data := t.TempDir()
	cfg := Defaults()
	cfg.Rules = "siamese+nmjl-tournament"
	cfg.Tournament = TournamentConfig{Event: evPath, Table: 1, NATS: []string{"nats://127.0.0.1:1"}}
	rules, err := configs.LoadRuleset(cfg.Rules)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := openTournament(cfg, rules, data, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer tr.close()
	creds, _, err := mqtt.LoadOrCreateCredentials(mqtt.CredentialsFile(data))
	if err != nil {
		t.Fatal(err)
	}
	display := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("display")) })
	srv := httptest.NewServer(tr.routes(display, func() ([]byte, []byte) { return []byte(`{"seq":1}`), nil }))
	defer srv.Close()
	res, err := http.Get(srv.URL + "/api/sheet")
	if err != nil {
		t.Fatal(err)
	}
	var sh struct {
		Players []string `json:"players"`
	}
	json.NewDecoder(res.Body).Decode(&sh)
	res.Body.Close()
	if fmt.Sprint(sh.Players) != "[Ann Bea]" {
		t.Errorf("the sheet's players %v", sh.Players)
	}
	post := func(body string) int {
		res, err := http.Post(srv.URL+"/api/sheet/call", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if code := post(`{"seat":0,"password":"wrong","note":"x"}`); code != http.StatusForbidden {
		t.Errorf("a call with a wrong password: %d", code)
	}
	if code := post(fmt.Sprintf(`{"seat":1,"password":%q}`, creds.Seats[1])); code != http.StatusForbidden {
		t.Errorf("West calling the director: %d, want 403 (East calls)", code)
	}
	if code := post(fmt.Sprintf(`{"seat":0,"password":%q,"note":"a question"}`, creds.Seats[0])); code != http.StatusOK {
		t.Errorf("East's call: %d", code)
	}
	if sheet := tr.table.Sheet(0); len(sheet.Calls) != 1 || string(sheet.Calls[0].Call.State) != `{"seq":1}` {
		t.Errorf("the call with the table's state: %+v", sheet.Calls)
	}
	if body := get(t, srv.URL+"/index.html"); body != "display" {
		t.Errorf("the display behind the sheet: %q", body)
	}
}

func get(t *testing.T, url string) string {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return string(b)
}
