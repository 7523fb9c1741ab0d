package table_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/tournament/event"
	"github.com/siamesetable/siamesed/tournament/link"
	"github.com/siamesetable/siamesed/tournament/simtable"
	"github.com/siamesetable/siamesed/tournament/table"
	"github.com/siamesetable/siamesed/tournament/wire"
)

func pairs(t testing.TB) *event.Event {
	t.Helper()
	ev, err := event.Load("../../configs/events/siamese-pairs.yaml", event.ConfigsRules)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

var start = time.Date(2026, 11, 23, 19, 0, 0, 0, time.UTC)

// TestSheetRoundsAndSignatures: results fill the rounds in order; only a Mah Jongg signs its
// game; each player initials their own total, West for East; the round stays current until
// initialed; the same game finished again makes no second result; the ledger survives a restart.
func TestSheetRoundsAndSignatures(t *testing.T) {
	ev := pairs(t)
	dir := t.TempDir()
	st, err := simtable.Open(ev, 2, dir, 1, func() time.Time { return start })
	if err != nil {
		t.Fatal(err)
	}
	m1, s1, err := st.Play(start)
	if err != nil {
		t.Fatal(err)
	}
	if m1.Round != 1 || m1.Result.Game != 1 || m1.Result.Seats[0] != "Cy" || m1.Result.Seats[1] != "Dee" {
		t.Errorf("first result %+v", m1.Result)
	}
	if again, err := st.Finished(m1.Result.GameID, m1.Result.Journal, "siamese", s1); err != nil || again.ID != m1.ID || len(st.Sheet(0).Played) != 1 {
		t.Errorf("the same game again: %v, %d games", err, len(st.Sheet(0).Played))
	}
	signers := m1.Result.Signers()
	for seat := range 2 {
		err := st.Sign(seat, m1.ID)
		mj := seat == signers[0] || (len(signers) > 1 && seat == signers[1])
		if mj != (err == nil) || (!mj && !errors.Is(err, table.ErrNotYours)) {
			t.Errorf("seat %d signs (Mah Jongg: %v): %v", seat, mj, err)
		}
	}
	if _, _, err := st.Play(start.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if sh := st.Sheet(0); sh.Round != 1 || len(sh.Played) != 2 {
		t.Errorf("after round 1's games, not yet initialed: round %d, %d games", sh.Round, len(sh.Played))
	}
	if err := st.Initial(1, 0, 0); !errors.Is(err, table.ErrNotYours) {
		t.Errorf("East initials her own total: %v", err)
	}
	for _, in := range [][2]int{{0, 1}, {1, 1}} {
		if err := st.Initial(1, in[0], in[1]); err != nil {
			t.Fatal(err)
		}
	}
	sh := st.Sheet(0)
	if sh.Round != 2 || sh.Players[1] != "Bea" || len(sh.Played) != 0 {
		t.Errorf("round 2 at table 2: %+v", sh)
	}
	if r1 := st.Sheet(1); len(r1.Next) != 2 || r1.Next[1].Player != "Dee" || r1.Next[1].To != 3 {
		t.Errorf("round 1's moves from table 2: %+v", r1.Next)
	}
	pending := st.Pending()
	st.Close()
	// A torn last line (a stop mid-append) is cut; the rest is kept.
	ledger := filepath.Join(table.Dir(dir, ev, 2), "ledger.jsonl")
	f, _ := os.OpenFile(ledger, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"schema":1,"id":"s-0-r-`)
	f.Close()
	again, err := table.Open(ev, 2, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if len(again.Warnings) != 1 || again.Pending() != pending || len(again.Sheet(1).Played) != 2 {
		t.Errorf("reopened: warnings %v, pending %d (was %d)", again.Warnings, again.Pending(), pending)
	}
}

// TestOutboxWaitsAndSendsInOrder: while the cluster refuses, nothing is lost; once it takes
// messages, they go in the order made, each once marked sent.
func TestOutboxWaitsAndSendsInOrder(t *testing.T) {
	ev := pairs(t)
	st, err := simtable.Open(ev, 1, t.TempDir(), 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for g := range 2 {
		m, _, err := st.Play(start.Add(time.Duration(g) * time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range m.Result.Signers() {
			st.Sign(s, m.ID)
		}
	}
	want := st.Pending()
	var mu sync.Mutex
	var got []string
	up := false
	send := func(ctx context.Context, subject, id string, data []byte) error {
		mu.Lock()
		defer mu.Unlock()
		if !up {
			return errors.New("no responders")
		}
		m, err := wire.Decode(data)
		if err != nil || m.ID != id || subject != link.InSubject(1, m.Kind) {
			t.Errorf("sent %s on %s: %v", id, subject, err)
		}
		got = append(got, id)
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- st.Send(ctx, send, link.InSubject, nil) }()
	time.Sleep(600 * time.Millisecond)
	if st.Pending() != want {
		t.Errorf("pending %d while the cluster refuses, want %d", st.Pending(), want)
	}
	mu.Lock()
	up = true
	mu.Unlock()
	deadline := time.Now().Add(10 * time.Second)
	for st.Pending() > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if len(got) != want || got[0] != st.Sheet(1).Played[0].ID {
		t.Errorf("sent %v, want %d messages, the first game's result first", got, want)
	}
}
