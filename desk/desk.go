package desk

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/siamesetable/siamesed/desk/store"
	"github.com/siamesetable/siamesed/tournament/event"
	"github.com/siamesetable/siamesed/tournament/wire"
)

// ErrRefused marks a message the desk will never count (another event's, a table or round the
// event has not, a signature by the wrong seat): it is logged and dropped, not retried.
var ErrRefused = errors.New("desk: refused")

// Desk is the director's program's state: the record and the book computed from it.
type Desk struct {
	ev    *event.Event
	log   *slog.Logger
	st    *store.Store
	now   func() time.Time
	mu    sync.RWMutex
	book  *Book
	glnce map[int]Glance // table -> its latest progress
	// Changed, when set, hears every change recorded (the pages' live updates, benchmarks).
	Changed func(store.Change)
	// Batched, when set, hears how many messages from the cluster were recorded together and
	// how long that took (the benchmark's breakdown).
	Batched func(n int, took time.Duration)
	// Rulings, when set, sends a ruling to its table (the link); it is called again for every
	// ruling at Resend.
	Rulings func(wire.Message) error
}

// Glance is a table's latest progress.
type Glance struct {
	wire.Progress
	Round int
	At    time.Time
}

// Path is the desk's database in its data directory.
func Path(dataDir string) string { return filepath.Join(dataDir, "desk.db") }

// Open opens (or creates) the event's record in dataDir and computes the book from it.
func Open(ev *event.Event, dataDir string, log *slog.Logger) (*Desk, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if err := os.MkdirAll(dataDir, 0o755); err != nil {
		return nil, fmt.Errorf("desk: %w", err)
	}
	st, err := store.Open(Path(dataDir), ev.Name)
	if err != nil {
		return nil, fmt.Errorf("desk: %w", err)
	}
	d := &Desk{ev: ev, log: log, st: st, now: time.Now, book: NewBook(ev), glnce: map[int]Glance{}}
	all, err := st.Since(0)
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("desk: %w", err)
	}
	for _, c := range all {
		if err := d.book.Apply(c); err != nil {
			st.Close()
			return nil, err
		}
	}
	log.Info("desk open", "event", ev.Name, "changes", len(all), "file", Path(dataDir))
	return d, nil
}

// Close closes the record.
func (d *Desk) Close() error { return d.st.Close() }

// Event is the desk's event.
func (d *Desk) Event() *event.Event { return d.ev }

// Receive takes one message from a table: checked against the event, recorded (once: a
// message seen before changes nothing) and applied. An error wrapping ErrRefused will never
// succeed; any other is the record failing, and the message should come again.
func (d *Desk) Receive(m wire.Message) (added bool, err error) {
	a, errs := d.ReceiveAll([]wire.Message{m})
	return a[0], errs[0]
}

// ReceiveAll is Receive for messages that arrived together: recorded in one transaction.
func (d *Desk) ReceiveAll(ms []wire.Message) (added []bool, errs []error) {
	return d.receiveAll(ms, nil)
}

// receiveAll is ReceiveAll; raw, when given, holds each message as it arrived (kept as the
// change's body rather than encoded again).
func (d *Desk) receiveAll(ms []wire.Message, raw [][]byte) (added []bool, errs []error) {
	added, errs = make([]bool, len(ms)), make([]error, len(ms))
	var changes []store.Change
	var at []int // index in ms of each change
	var decoded []wire.Message
	for i, m := range ms {
		var err error
		if err = d.vet(m); err != nil {
			errs[i] = fmt.Errorf("%w: %v", ErrRefused, err)
			continue
		}
		if m.Kind == wire.KindProgress {
			d.mu.Lock()
			if g, ok := d.glnce[m.Table]; !ok || !m.At.Before(g.At) {
				d.glnce[m.Table] = Glance{Progress: *m.Progress, Round: m.Round, At: m.At}
			}
			d.mu.Unlock()
			continue
		}
		var body []byte
		if raw != nil {
			body = raw[i]
		} else if body, err = json.Marshal(m); err != nil {
			errs[i] = fmt.Errorf("desk: %w", err)
			continue
		}
		changes = append(changes, store.Change{At: d.now(), Who: who(m, d.ev), Why: why(m), Kind: m.Kind, Ref: m.ID, Table: m.Table, Round: m.Round, Body: body})
		at = append(at, i)
		decoded = append(decoded, m)
	}
	if len(changes) == 0 {
		return added, errs
	}
	got, err := d.record(changes, decoded)
	for k, i := range at {
		if err != nil {
			errs[i] = err
		} else {
			added[i] = got[k]
		}
	}
	return added, errs
}

// record appends changes (ms: their bodies, decoded) and applies those that are new, under the
// lock so the book follows the record's order.
func (d *Desk) record(cs []store.Change, ms []wire.Message) ([]bool, error) {
	d.mu.Lock()
	added, ns, err := d.st.AppendAll(cs)
	if err != nil {
		d.mu.Unlock()
		return nil, err
	}
	var applied []store.Change
	for i, c := range cs {
		if !added[i] {
			continue
		}
		c.N = ns[i]
		d.book.apply(c, ms[i])
		applied = append(applied, c)
	}
	d.mu.Unlock()
	for _, c := range applied {
		d.log.Debug("recorded", "n", c.N, "kind", c.Kind, "table", c.Table, "round", c.Round, "who", c.Who, "why", c.Why)
		if d.Changed != nil {
			d.Changed(c)
		}
	}
	return added, nil
}

// vet checks a table's message against the event.
func (d *Desk) vet(m wire.Message) error {
	if err := m.Check(); err != nil {
		return err
	}
	switch {
	case m.Event != d.ev.Name:
		return fmt.Errorf("message %s is for event %q, not %q", m.ID, m.Event, d.ev.Name)
	case m.Table > d.ev.Tables():
		return fmt.Errorf("message %s from table %d: the event has %d tables", m.ID, m.Table, d.ev.Tables())
	case m.Round > d.ev.Rounds:
		return fmt.Errorf("message %s for round %d: the event has %d rounds", m.ID, m.Round, d.ev.Rounds)
	case m.Kind == wire.KindRuling:
		return fmt.Errorf("message %s: a ruling comes from the director, not a table", m.ID)
	}
	switch m.Kind {
	case wire.KindResult:
		r := m.Result
		if len(r.Seats) != d.ev.Seats || r.Game > d.ev.GamesPerRound || m.ID != wire.ResultID(r.Journal) {
			return fmt.Errorf("result %s: %d seats, game %d (the event: %d seats, %d games a round), id not its journal's", m.ID, len(r.Seats), r.Game, d.ev.Seats, d.ev.GamesPerRound)
		}
	case wire.KindSign, wire.KindInitials:
		s := m.Sign
		if s.Seat >= d.ev.Seats {
			return fmt.Errorf("signature %s: seat %d of %d", m.ID, s.Seat, d.ev.Seats)
		}
		if m.Kind == wire.KindInitials && s.By != Initialer(s.Seat, d.ev.Seats) {
			return fmt.Errorf("initials %s: seat %d's total is initialed by seat %d, not %d (each their own, West for East)", m.ID, s.Seat, Initialer(s.Seat, d.ev.Seats), s.By)
		}
		if m.Kind == wire.KindSign {
			d.mu.RLock()
			g := d.book.results[s.Result]
			d.mu.RUnlock()
			// A signature may overtake its result on the way; it is kept, and counts once the
			// result arrives. A signature by a seat that made no Mah Jongg is refused.
			if g != nil && !isSigner(g, s.Seat) {
				return fmt.Errorf("signature %s: seat %d made no Mah Jongg in game %d", m.ID, s.Seat, g.Number)
			}
		}
	}
	return nil
}

func isSigner(g *Game, seat int) bool {
	for _, s := range g.Result.Signers() {
		if s == seat {
			return true
		}
	}
	return false
}

func who(m wire.Message, ev *event.Event) string {
	switch m.Kind {
	case wire.KindSign, wire.KindInitials:
		return fmt.Sprintf("table %d, seat %d (%s)", m.Table, m.Sign.By, m.Sign.Name)
	case wire.KindCall:
		return fmt.Sprintf("table %d, East", m.Table)
	}
	return fmt.Sprintf("table %d", m.Table)
}

func why(m wire.Message) string {
	switch m.Kind {
	case wire.KindResult:
		return fmt.Sprintf("game %d of round %d finished (%s)", m.Result.Game, m.Round, m.Result.Reason)
	case wire.KindSign:
		return fmt.Sprintf("Mah Jongg signs game %d", m.Sign.Game)
	case wire.KindInitials:
		return fmt.Sprintf("round %d total %d initialed", m.Round, m.Sign.Total)
	case wire.KindCall:
		if m.Call.Note != "" {
			return "call for the director: " + m.Call.Note
		}
		return "call for the director"
	}
	return m.Kind
}
