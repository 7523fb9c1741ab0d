package daemon

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/configs"
	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/engine/track"
	"github.com/siamesetable/siamesed/internal/clock"
	"github.com/siamesetable/siamesed/setup"
	"github.com/siamesetable/siamesed/sim/players"
)

// owner is a client of the set-up page, logged in with the owner's password.
type owner struct {
	t    testing.TB
	base string
	c    *http.Client
}

func logIn(t testing.TB, base, dataDir string) *owner {
	t.Helper()
	pw, err := os.ReadFile(setup.OwnerFile(dataDir))
	if err != nil {
		t.Fatal(err)
	}
	jar, _ := cookiejar.New(nil)
	o := &owner{t: t, base: base, c: &http.Client{Jar: jar, Timeout: waitFor}}
	if code, out := o.call("POST", "api/setup/login", map[string]string{"password": strings.TrimSpace(string(pw))}); code != 200 {
		t.Fatalf("owner's login: %d %v", code, out)
	}
	return o
}

func (o *owner) call(method, path string, body any) (int, map[string]any) {
	o.t.Helper()
	var rd io.Reader = http.NoBody
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, o.base+path, rd)
	req.Header.Set("Content-Type", "application/json")
	resp, err := o.c.Do(req)
	if err != nil {
		o.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	raw, _ := io.ReadAll(resp.Body)
	json.Unmarshal(raw, &out)
	return resp.StatusCode, out
}

func publicState(t testing.TB, base string) (State, string) {
	t.Helper()
	resp, err := http.Get(base + "api/state")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var s State
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatalf("state %s: %v", raw, err)
	}
	return s, string(raw)
}

func clubCard(t testing.TB) string {
	b, err := configs.Files.ReadFile(configs.ExampleCard)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Replace(string(b), "name: Siamese Table Example Card", "name: Club Card", 1)
}

// quietTable is a simulated table nobody plays at (sim.players: none): its game has no act.
func quietTable() Config {
	c := liveConfig()
	c.Sim.Players = "none"
	return c
}

// TestSettingsFromTheSetupPage: on a table whose game has no act yet, settings saved on the
// set-up page apply at once (the empty game begins afresh: one journal, not two); they win
// over the configuration at the next start; "use the configuration file" brings its settings
// back. The set-up calls need the owner's session on the daemon's own port.
func TestSettingsFromTheSetupPage(t *testing.T) {
	dir := t.TempDir()
	cfg := quietTable()
	addr, _ := runDaemon(t, cfg, dir)
	base := "http://" + addr + "/"
	for _, path := range []string{"api/setup/status", "api/setup/seats", "api/setup/seats/0/qr.svg"} {
		if resp, err := http.Get(base + path); err != nil || resp.StatusCode != 401 {
			t.Fatalf("GET %s without the session: %v %v", path, resp.StatusCode, err)
		}
	}
	o := logIn(t, base, dir)
	before, _ := publicState(t, base)
	code, out := o.call("POST", "api/setup/table", setup.Form{Rules: "siamese", Options: []string{"nmjl-tournament"}, Names: []string{"Ann", "Bea"}, Card: setup.CardForm{Text: clubCard(t)}})
	if code != 200 {
		t.Fatalf("save: %d %v", code, out)
	}
	applied := out["applied"].(map[string]any)
	if applied["names"] != "now" || applied["rules"] != "now" {
		t.Fatalf("a game with no act: applied %v", applied)
	}
	after, _ := publicState(t, base)
	if after.Game == before.Game || after.Card != "Club Card" || after.View.Rules != "siamese+nmjl-tournament" || after.Seats[0] != "Ann" || after.Seats[1] != "Bea" {
		t.Fatalf("state after saving: game %s (was %s), card %q, rules %q, seats %v", after.Game, before.Game, after.Card, after.View.Rules, after.Seats)
	}
	games, _ := filepath.Glob(filepath.Join(dir, "games", "*.jsonl"))
	if len(games) != 1 || !strings.Contains(games[0], after.Game) {
		t.Fatalf("journals: %v, want only the new game's", games)
	}
	_, st := o.call("GET", "api/setup/status", nil)
	if st["ready"] != true {
		t.Errorf("status after saving: %v", st)
	}
}

// TestSavedSettingsWinAtStart: a daemon started again plays the saved settings, not its
// configuration's; the configuration's come back when the saved ones are removed.
func TestSavedSettingsWinAtStart(t *testing.T) {
	dir := t.TempDir()
	cfg := quietTable()
	cfg.Seats = []SeatConfig{{Name: "Yaml East", Racks: []string{"p1a", "p1b"}}, {Name: "Yaml West", Racks: []string{"p2a", "p2b"}}}
	if _, err := setup.SaveSettings(dir, setup.Settings{Rules: "siamese+nmjl-tournament", Names: []string{"Ann", "Bea"}, CardName: "Club Card"}, []byte(clubCard(t))); err != nil {
		t.Fatal(err)
	}
	addr, _ := runDaemon(t, cfg, dir)
	base := "http://" + addr + "/"
	s, _ := publicState(t, base)
	if s.Card != "Club Card" || s.View.Rules != "siamese+nmjl-tournament" || s.Seats[0] != "Ann" {
		t.Fatalf("started with saved settings: card %q, rules %q, seats %v", s.Card, s.View.Rules, s.Seats)
	}
	o := logIn(t, base, dir)
	if code, out := o.call("DELETE", "api/setup/table", nil); code != 200 {
		t.Fatalf("forget: %d %v", code, out)
	}
	s, _ = publicState(t, base)
	if s.Card != "Siamese Table Example Card" || s.View.Rules != "siamese" || s.Seats[0] != "Yaml East" {
		t.Fatalf("after forgetting: card %q, rules %q, seats %v", s.Card, s.View.Rules, s.Seats)
	}
	if _, err := os.Stat(setup.SettingsFile(dir)); !os.IsNotExist(err) {
		t.Errorf("the settings file is left: %v", err)
	}
}

// TestSettingsThatDoNotFit: a form the racks cannot seat, or with a card's mistake, is refused
// with its reason and changes nothing.
func TestSettingsThatDoNotFit(t *testing.T) {
	dir := t.TempDir()
	addr, _ := runDaemon(t, quietTable(), dir)
	base := "http://" + addr + "/"
	o := logIn(t, base, dir)
	before, _ := publicState(t, base)
	code, out := o.call("POST", "api/setup/table", setup.Form{Rules: "royale-4", Names: []string{"A", "B", "C", "D"}, Card: setup.CardForm{Builtin: true}})
	if code != 422 || !strings.Contains(fmt.Sprint(out["error"]), "racks") {
		t.Fatalf("four players at a two-seat table: %d %v", code, out)
	}
	code, out = o.call("POST", "api/setup/table", setup.Form{Rules: "siamese", Names: []string{"A", "B"}, Card: setup.CardForm{Text: "name: x\nyear: 2026\nhands:\n  - pattern: \"FFF 7Q\"\n    value: 25\n"}})
	if code != 422 || fmt.Sprint(out["problems"]) == "" {
		t.Fatalf("a card with a mistake: %d %v", code, out)
	}
	after, _ := publicState(t, base)
	if after.Game != before.Game || after.Seats[0] != before.Seats[0] {
		t.Errorf("a refused form changed the table: %s %v -> %s %v", before.Game, before.Seats, after.Game, after.Seats)
	}
	if _, err := os.Stat(setup.SettingsFile(dir)); !os.IsNotExist(err) {
		t.Errorf("a refused form was saved: %v", err)
	}
}

// lockedLog collects a daemon's log lines.
type lockedLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func (l *lockedLog) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(l, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// TestSettingsApplyFromTheNextGame: once a game has an act, saved settings wait for the next
// game (the game in play keeps its names, card and rules, and its journal); the next game
// takes them. A simulated table's virtual players keep their rules and card until the next
// start.
func TestSettingsApplyFromTheNextGame(t *testing.T) {
	dir := t.TempDir()
	cfg := quietTable()
	cfg.Sim.Fast, cfg.Sim.Pace = true, Duration(400*time.Millisecond)
	log := slog.New(slog.DiscardHandler)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	now := time.Date(2026, 11, 23, 19, 0, 0, 0, time.UTC)
	d := &daemon{cfg: cfg, configured: cfg, opt: Options{DataDir: dir, Log: log}, log: log, ctx: ctx, events: make(chan event, 64),
		clk: clock.NewFake(now), wall: clock.Real{}}
	if err := d.build(); err != nil {
		t.Fatal(err)
	}
	defer d.close()
	d.started = started{rules: d.table.rules, card: d.table.card}
	go func() { // the table loop, for onLoop
		for {
			select {
			case e := <-d.events:
				d.handle(e)
			case <-ctx.Done():
				return
			}
		}
	}()
	faces, err := tile.ParseList("9C 9C 9C 9C 9D 9D 9D 9D 8D 8D 8D 8D 7D 7D 7D 7D 6D 6D 6D 6D 8C 8C 8C 8C 7C 7C 7C 7C")
	if err != nil {
		t.Fatal(err)
	}
	deal := &game.Action{Seat: 0, Act: "deal", Tiles: faces}
	if err := d.onLoop(func() {
		if err := d.table.Command(track.Command{Seat: 0, Kind: track.CmdAct, Action: deal, At: now}); err != nil {
			t.Errorf("the deal by hand: %v", err)
		}
	}); err != nil || t.Failed() {
		t.Fatal(err)
	}
	first := d.table.GameID()
	plan, err := setup.CheckForm(setup.Form{Rules: "siamese", Options: []string{"nmjl-tournament"}, Names: []string{"Ann", "Bea"}, Card: setup.CardForm{Text: clubCard(t)}}, setup.InUse{Builtin: true})
	if err != nil {
		t.Fatal(err)
	}
	plan.Settings, _ = setup.SaveSettings(dir, plan.Settings, plan.CardData)
	a, err := setupTable{d}.Apply(&plan)
	if err != nil || a.Names != setup.NextGame || a.Rules != setup.NextGame {
		t.Fatalf("applied %+v, %v", a, err)
	}
	playing, _ := setupTable{d}.Playing()
	if playing.Game != first || playing.Names[0] != "East" || playing.Card == "Club Card" || playing.Pending == nil || playing.Acts != 1 {
		t.Fatalf("the game in play: %+v", playing)
	}
	d.onLoop(func() {
		d.table.waiting = true // the game is over and the racks are clear
		if err := d.table.NewGame(now.Add(time.Minute)); err != nil {
			t.Error(err)
		}
	})
	playing, _ = setupTable{d}.Playing()
	if playing.Game == first || playing.Names[0] != "Ann" || playing.Card != "Club Card" || playing.Rules != "siamese+nmjl-tournament" || playing.Pending != nil {
		t.Fatalf("the next game: %+v", playing)
	}
	if _, err := os.Stat(d.table.dir.GamePath(first)); err != nil {
		t.Errorf("the game played before the settings lost its journal: %v", err)
	}

	// Virtual players play the rules they started with, and any card.
	d.players = &players.Players{}
	if ok, why := d.sameStart(d.started.rules); !ok {
		t.Errorf("the rules started with: %s", why)
	}
	if ok, why := d.sameStart(plan.Rules); ok || !strings.Contains(why, "virtual players") {
		t.Errorf("other rules under virtual players: %v %s", ok, why)
	}
	d.players = nil
	noJokers, _ := configs.LoadRuleset("siamese+no-jokers")
	if ok, why := d.sameStart(noJokers); ok || !strings.Contains(why, "racks and camera") {
		t.Errorf("rules with other tiles: %v %s", ok, why)
	}
}

// TestOwnerPasswordOnFirstStart: the first start makes the owner's password, keeps it in a
// file only its user reads and hands it to Options.OwnerCreated (siamesed run prints it); the
// log names the file, never the password; a later start keeps it and hands nothing.
func TestOwnerPasswordOnFirstStart(t *testing.T) {
	dir := t.TempDir()
	start := func() (heard string, logged string) {
		var log lockedLog
		ctx, cancel := context.WithCancel(context.Background())
		listening, finished := make(chan string, 1), make(chan error, 1)
		go func() {
			finished <- Run(ctx, quietTable(), Options{DataDir: dir, Log: log.logger(), Listening: listening,
				OwnerCreated: func(pw string) { heard = pw }})
		}()
		select {
		case <-listening:
		case err := <-finished:
			t.Fatalf("the daemon stopped at start: %v", err)
		}
		cancel()
		if err := <-finished; err != nil {
			t.Fatalf("the daemon: %v", err)
		}
		return heard, log.String()
	}
	heard, logged := start()
	b, err := os.ReadFile(setup.OwnerFile(dir))
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(setup.OwnerFile(dir)); st.Mode().Perm() != 0o600 {
		t.Errorf("the owner's password file: mode %v", st.Mode().Perm())
	}
	if heard == "" || strings.TrimSpace(string(b)) != heard {
		t.Fatalf("heard %q, the file holds %q", heard, b)
	}
	if strings.Contains(logged, heard) || !strings.Contains(logged, setup.OwnerFile(dir)) {
		t.Errorf("the log shows the password, or does not name its file:\n%s", logged)
	}
	again, _ := start()
	if b2, _ := os.ReadFile(setup.OwnerFile(dir)); again != "" || string(b2) != string(b) {
		t.Errorf("a later start: heard %q, the file %q (was %q)", again, b2, b)
	}
}
