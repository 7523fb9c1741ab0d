package history

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/engine/game"
)

// newDB opens a new history in a temporary directory.
func newDB(t testing.TB) *DB {
	t.Helper()
	db, err := Open(Path(t.TempDir()), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Error(err)
		}
	})
	return db
}

// at is a time on 2026-11-23 at the table, in UTC-5.
func at(hour, minute int) time.Time {
	return time.Date(2026, 11, 23, hour, minute, 0, 0, time.FixedZone("table", -5*3600))
}

// rec is a finished game with these scores.
func rec(id, session string, finished time.Time, seats []string, scores ...int) Game {
	return Game{
		ID: id, Path: filepath.Join("/data/games", id+".jsonl"), Rules: "royale-4",
		Card:  game.CardRef{Name: "Example Card", Year: 2026, SHA256: "3f1c0000000000000000000000000000000000000000000000000000000000aa"},
		Seats: seats, Session: session, Started: finished.Add(-40 * time.Minute), Finished: finished,
		Result:  game.Result{Reason: "second_mahjong", Scores: scores, Payouts: []game.Payout{}, MahJonggs: []game.SeatMahJong{}, Dead: []game.SeatDead{}},
		Actions: 120,
	}
}

var four = []string{"Ann", "Bea", "Cy", "Dee"}

func mustRecord(t testing.TB, db *DB, games ...Game) {
	t.Helper()
	for _, g := range games {
		if _, err := db.Record(g); err != nil {
			t.Fatal(err)
		}
	}
}

func ids(games []Game) []string {
	out := []string{}
	for _, g := range games {
		out = append(out, g.ID)
	}
	return out
}
