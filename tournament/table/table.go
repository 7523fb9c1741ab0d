// Package table is a tournament table's side: given the event and its table number, it turns
// each finished game into a result, keeps the score sheet the players sign (each Mah Jongg
// signs its game; each player initials the round's total, West for East), raises East's call
// for the director, keeps the director's rulings, and sends what it made to the desk through
// its outbox when the cluster is reachable. The daemon and the simulated tables use it alike.
package table

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/tournament/event"
	"github.com/siamesetable/siamesed/tournament/wire"
)

// Errors a caller may test with errors.Is.
var (
	ErrEventOver = errors.New("table: the event's rounds are all played")
	ErrNotYours  = errors.New("table: not this seat's to sign")
)

// Table is one table of an event. Its methods are safe for concurrent use.
type Table struct {
	Event  *event.Event
	Number int
	now    func() time.Time
	mu     sync.Mutex
	l      *ledger
	wake   chan struct{}
	// Warnings are what opening found and cut (a torn last line).
	Warnings []string
}

// Dir is where a table keeps an event's ledger in its data directory.
func Dir(dataDir string, ev *event.Event, number int) string {
	return filepath.Join(dataDir, "tournament", ev.Hash[:16]+"-t"+strconv.Itoa(number))
}

// Open opens the table's ledger for the event in dataDir.
func Open(ev *event.Event, number int, dataDir string, now func() time.Time) (*Table, error) {
	if number < 1 || number > ev.Tables() {
		return nil, fmt.Errorf("table: table %d: event %q has tables 1 to %d", number, ev.Name, ev.Tables())
	}
	if now == nil {
		now = time.Now
	}
	l, warns, err := openLedger(Dir(dataDir, ev, number))
	if err != nil {
		return nil, err
	}
	return &Table{Event: ev, Number: number, now: now, l: l, wake: make(chan struct{}, 1), Warnings: warns}, nil
}

// Close closes the ledger.
func (t *Table) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.l.close()
}

func (t *Table) message(kind, id string, round int) wire.Message {
	return wire.Message{Schema: wire.Schema, ID: id, Kind: kind, Event: t.Event.Name, Table: t.Number, Round: round, At: t.now().UTC()}
}

// put records a message of the table's own and wakes the sender.
func (t *Table) put(m wire.Message) error {
	if err := m.Check(); err != nil {
		return err
	}
	if err := t.l.add(m); err != nil {
		return err
	}
	select {
	case t.wake <- struct{}{}:
	default:
	}
	return nil
}

// has reports whether the ledger holds a message with id.
func (t *Table) has(id string) bool {
	for _, m := range t.l.lines {
		if m.ID == id {
			return true
		}
	}
	return false
}

// results are the table's results in order.
func (t *Table) results() []wire.Message {
	var out []wire.Message
	for _, m := range t.l.lines {
		if m.Kind == wire.KindResult {
			out = append(out, m)
		}
	}
	return out
}

// JournalHash is the SHA-256 of a game's log file: the result's identity.
func JournalHash(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("table: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("table: %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Finished makes the result of a finished game (its id, the log's hash, the engine's final
// state) as the table's next game of the event, and puts it in the outbox. The same game
// finished again (a daemon restarted before it recorded the game) changes nothing.
func (t *Table) Finished(gameID, journal string, rules string, s game.State) (wire.Message, error) {
	if s.Phase != game.PhaseOver || s.Result == nil {
		return wire.Message{}, fmt.Errorf("table: game %s is not over", gameID)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	id := wire.ResultID(journal)
	done := t.results()
	for _, m := range done {
		if m.ID == id {
			return m, nil
		}
	}
	k := len(done)
	if k >= t.Event.Rounds*t.Event.GamesPerRound {
		return wire.Message{}, fmt.Errorf("%w (%d games of %d rounds): game %s is not the event's", ErrEventOver, k, t.Event.Rounds, gameID)
	}
	round, number := k/t.Event.GamesPerRound+1, k%t.Event.GamesPerRound+1
	players := t.Event.Seating(round)[t.Number-1]
	r := &wire.Result{Game: number, GameID: gameID, Journal: journal, Seats: players, Rules: rules, Reason: s.Result.Reason,
		Scores: append([]int(nil), s.Result.Scores...)}
	for _, st := range s.Seats {
		r.Penalty = append(r.Penalty, st.Penalties)
	}
	for _, mj := range s.Result.MahJonggs {
		r.MahJong = append(r.MahJong, wire.MahJong{Seat: mj.Seat, Rack: mj.Rack, Hand: mj.Hand, Points: mj.Points, SelfPicked: mj.SelfPicked, Jokerless: mj.Jokerless})
	}
	m := t.message(wire.KindResult, id, round)
	m.Result = r
	return m, t.put(m)
}
