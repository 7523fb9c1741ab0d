package table

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"github.com/siamesetable/siamesed/tournament/wire"
)

// Sender publishes a message durably and returns once the cluster has it (link.Conn.Publish).
type Sender func(ctx context.Context, subject, id string, data []byte) error

// Subjects names where a table's message goes (link.InSubject).
type Subjects func(table int, kind string) string

// Pending is how many of the table's messages wait for the cluster (the outbox).
func (t *Table) Pending() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := 0
	for _, m := range t.l.lines[t.l.sent:] {
		if m.Kind != wire.KindRuling {
			n++
		}
	}
	return n
}

// next is the first message not yet sent, and its index; ok false when none.
func (t *Table) next() (wire.Message, int, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for i := t.l.sent; i < len(t.l.lines); i++ {
		if t.l.lines[i].Kind != wire.KindRuling {
			return t.l.lines[i], i, true
		}
	}
	return wire.Message{}, 0, false
}

func (t *Table) acked(i int) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.l.markSent(i + 1)
}

// Send empties the outbox in order until ctx ends: each message is sent until the cluster
// has it, waiting longer after each failure (250 ms, doubling, at most 5 s), then marked sent.
func (t *Table) Send(ctx context.Context, send Sender, subject Subjects, log *slog.Logger) error {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	wait := 250 * time.Millisecond
	for {
		m, i, ok := t.next()
		if !ok {
			select {
			case <-ctx.Done():
				return nil
			case <-t.wake:
				continue
			}
		}
		data, err := json.Marshal(m)
		if err != nil {
			return err
		}
		sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		err = send(sctx, subject(t.Number, m.Kind), m.ID, data)
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			log.Warn("tournament: the desk's cluster did not take a message; it waits in the outbox", "id", m.ID, "kind", m.Kind, "pending", t.Pending(), "retry_in", wait, "err", err)
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(wait):
			}
			wait = min(2*wait, 5*time.Second)
			continue
		}
		wait = 250 * time.Millisecond
		if err := t.acked(i); err != nil {
			return err
		}
		log.Debug("tournament: sent", "id", m.ID, "kind", m.Kind)
	}
}
