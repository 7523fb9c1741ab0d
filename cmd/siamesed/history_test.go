package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/history"
	"github.com/siamesetable/siamesed/journal"
)

// historyData is a data directory with a history of four games over two sessions and a pot
// set for one.
func historyData(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	db, err := history.Open(history.Path(dir), history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	zone := time.FixedZone("table", -5*3600)
	card := game.CardRef{Name: "Example Card", Year: 2026, SHA256: strings.Repeat("3f1c", 16)}
	add := func(id, session, rules string, hour, minute int, seats []string, reason string, scores ...int) {
		fin := time.Date(2026, 11, 23, hour, minute, 0, 0, zone)
		g := history.Game{
			ID: id, Path: "/var/lib/siamesed/games/" + id + ".jsonl", Rules: rules, Card: card, Seats: seats,
			Session: session, Started: fin.Add(-35 * time.Minute), Finished: fin, Actions: 180, Faults: len(id) % 3,
			Result: game.Result{Reason: reason, Scores: scores, Payouts: pairwise(scores)},
		}
		if _, err := db.Record(g); err != nil {
			t.Fatal(err)
		}
	}
	four := []string{"Ann", "Bea", "Cy", "Dee"}
	add("2026-11-23T23-10-00Z", "2026-11-23", "royale-4", 18, 10, four, "second_mahjong", 50, -10, -20, -20)
	add("2026-11-24T00-05-00Z", "2026-11-23", "royale-4", 19, 5, []string{"Ann", "Bea", "Cyril", "Dee"}, "wall_game", 10, 10, 10, 10)
	add("2026-11-24T01-00-00Z", "2026-11-23", "royale-4+nmjl-tournament", 20, 0, four, "two_dead", -40, 80, -20, -20)
	add("2026-11-23T20-00-00Z", "club", "siamese", 15, 0, []string{"Eve", "Flo"}, "second_mahjong", 120, -120)
	if err := db.SetPot("2026-11-23", history.Pot{Cents: 2000}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// pairwise settles scores as a game's result does: each seat pays each higher scorer the
// difference.
func pairwise(scores []int) []game.Payout {
	out := []game.Payout{}
	for i := range scores {
		for j := i + 1; j < len(scores); j++ {
			switch d := scores[i] - scores[j]; {
			case d > 0:
				out = append(out, game.Payout{From: j, To: i, Points: d})
			case d < 0:
				out = append(out, game.Payout{From: i, To: j, Points: -d})
			}
		}
	}
	return out
}

// TestHistoryGolden: the list, one game, and the tallies, for people and as JSON.
func TestHistoryGolden(t *testing.T) {
	dir := historyData(t)
	for _, c := range []struct {
		golden string
		cmd    string // the command's words; --data goes after them
		args   []string
	}{
		{"history-list.txt", "history", nil},
		{"history-list-club.txt", "history", []string{"--session", "club"}},
		{"history-list.json", "history", []string{"--json", "--day", "2026-11-23"}},
		{"history-show.txt", "history show", []string{"2026-11-23T23-10-00Z"}},
		{"history-show.json", "history show", []string{"--json", "2026-11-23T23-10-00Z"}},
		{"history-tally.txt", "history tally", nil},
		{"history-tally-triple.txt", "history tally", []string{"--session", "2026-11-23", "--pot", "1001", "--triple"}},
		{"history-tally-day.txt", "history tally", []string{"--day", "2026-11-23"}},
		{"history-tally.json", "history tally", []string{"--json", "--session", "club", "--pot", "500"}},
	} {
		t.Run(c.golden, func(t *testing.T) {
			args := append(strings.Fields(c.cmd), "--data", dir)
			args = append(args, c.args...)
			code, out, errs := run(t, args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			golden(t, c.golden, out)
		})
	}
}

// TestHistoryMistakes: what a user gets wrong is said plainly, with the right exit status.
func TestHistoryMistakes(t *testing.T) {
	dir := historyData(t)
	empty := t.TempDir()
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"history", "--data", empty}, 0, "no games recorded yet in " + empty},
		{[]string{"history", "--json", "--data", empty}, 0, "[]"},
		{[]string{"history", "tally", "--data", empty}, 0, "no games recorded yet in " + empty},
		{[]string{"history", "show", "--data", empty, "g1"}, 1, "no games recorded yet in " + empty},
		{[]string{"history", "show", "--data", dir, "g1"}, 1, `no such game "g1"`},
		{[]string{"history", "show", "--data", dir}, 2, "needs one game id"},
		{[]string{"history", "tally", "--data", dir, "--session", "fri"}, 1, "no games recorded for the session fri in " + history.Path(dir)},
		{[]string{"history", "tally", "--data", dir, "--day", "2026-11-25"}, 1, "no games recorded for the day 2026-11-25"},
		{[]string{"history", "tally", "--data", dir, "--day", "23.11.2026"}, 2, "not a date like 2026-11-23"},
		{[]string{"history", "tally", "--data", dir, "--day", "2026-11-23", "--session", "club"}, 2, "not both"},
		{[]string{"history", "tally", "--data", dir, "--triple"}, 2, "--triple goes with --pot"},
		{[]string{"history", "tally", "--data", dir, "--pot", "-5"}, 2, "not negative"},
		{[]string{"history", "--data", dir, "g1"}, 2, "did you mean history show g1"},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			code, out, errs := run(t, c.args...)
			if code != c.code || !strings.Contains(out+errs, c.want) {
				t.Errorf("exit %d (want %d)\nstdout %q\nstderr %q\nwant %q", code, c.code, out, errs, c.want)
			}
		})
	}
}

// TestHistoryDefaultData: without --data the history is read from $SIAMESED_DATA (the tests
// never read a user's own).
func TestHistoryDefaultData(t *testing.T) {
	dir := historyData(t)
	t.Setenv("SIAMESED_DATA", dir)
	code, out, errs := run(t, "history", "--session", "club")
	if code != 0 || !strings.Contains(out, "Eve, Flo") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// TestHistoryWhileTheDaemonRecords: while another process holds the history, the command
// says so and exits instead of hanging.
func TestHistoryWhileTheDaemonRecords(t *testing.T) {
	dir := historyData(t)
	db, err := history.Open(history.Path(dir), history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	old := historyTimeout
	historyTimeout = 50 * time.Millisecond
	defer func() { historyTimeout = old }()
	code, _, errs := run(t, "history", "--data", dir)
	if code != 1 || !strings.Contains(errs, history.Path(dir)+" is locked by another process") || !strings.Contains(errs, "stop the daemon") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

// TestHistoryOfAJournalledGame: a game kept in the journal layout and recorded is shown with
// the path of its log, and that log replays with the card copy beside it.
func TestHistoryOfAJournalledGame(t *testing.T) {
	dir := t.TempDir()
	d, err := journal.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(scenarioDir + "siamese-18C-drew-out-of-turn.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	card, err := os.ReadFile("../../engine/game/testdata/card.yaml")
	if err != nil {
		t.Fatal(err)
	}
	l, err := game.ParseHeader([]byte(strings.SplitN(string(src), "\n", 2)[0]))
	if err != nil {
		t.Fatal(err)
	}
	logPath := d.GamePath("g1")
	for path, b := range map[string][]byte{logPath: src, filepath.Join(dir, journal.CardsDir, l.Card.SHA256+".yaml"): card} {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g, err := journal.Load(logPath, journal.Sources{})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := history.GameOf(g, "", time.Date(2026, 11, 23, 21, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	db, err := history.Open(history.Path(dir), history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Record(rec); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	code, out, errs := run(t, "history", "show", "--data", dir, "g1")
	if code != 0 || !strings.Contains(out, "log: "+logPath) || !strings.Contains(out, "result: two dead") {
		t.Fatalf("show: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	code, out, errs = run(t, "replay", logPath)
	if code != 0 || !strings.Contains(out, "result: two dead") {
		t.Errorf("replay of the recorded log: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}
