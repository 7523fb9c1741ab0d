package desk

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/siamesetable/siamesed/tournament/link"
	"github.com/siamesetable/siamesed/tournament/wire"
)

// DeskConsumer is the desk's durable consumer on the tables' stream.
const DeskConsumer = link.DeskConsumer

// Serve takes the tables' messages from the cluster until ctx ends: each recorded before it is
// acknowledged, so a desk stopped at any moment is sent again what it had not recorded, and
// counts it once. Rulings go to their tables on the desk's stream; every recorded ruling is
// sent again at start (a table keeps each once).
func (d *Desk) Serve(ctx context.Context, c *link.Conn) error {
	for { // each try bounded: a request sent before the cluster has a leader may never be answered
		try, cancel := context.WithTimeout(ctx, 30*time.Second)
		err := c.Prepare(try, d.ev.Tables())
		cancel()
		if err == nil {
			break
		}
		if ctx.Err() != nil {
			return nil
		}
		d.log.Warn("desk: the cluster's streams and consumers are not ready yet", "err", err)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(time.Second):
		}
	}
	d.Rulings = func(m wire.Message) error {
		b, err := wire.Encode(m)
		if err != nil {
			return err
		}
		return c.PublishOnce(ctx, link.OutSubject(m.Table), m.ID, b)
	}
	if err := d.Resend(); err != nil {
		d.log.Warn("desk: rulings not all sent again", "err", err)
	}
	sub, err := c.NC.Subscribe(link.AnyProgressSubject, func(msg *nats.Msg) {
		m, err := wire.Decode(msg.Data)
		if err == nil && m.Kind != wire.KindProgress {
			err = fmt.Errorf("a %s on the progress subject", m.Kind)
		}
		if err == nil {
			err = sentBy(msg.Subject, m)
		}
		if err != nil {
			d.log.Debug("desk: progress refused", "subject", msg.Subject, "err", err)
			return
		}
		d.Receive(m)
	})
	if err != nil {
		return err
	}
	defer sub.Unsubscribe()
	return c.ConsumeBatches(ctx, link.InStream, DeskConsumer, func(msgs []link.Msg) []error {
		errs := make([]error, len(msgs))
		var ms []wire.Message
		var raw [][]byte
		var at []int
		for i, msg := range msgs {
			m, err := wire.Decode(msg.Data)
			if err == nil {
				err = sentBy(msg.Subject, m)
			}
			if err != nil {
				errs[i] = link.Permanent(err)
				continue
			}
			ms, raw, at = append(ms, m), append(raw, msg.Data), append(at, i)
		}
		began := time.Now()
		_, rerrs := d.receiveAll(ms, raw)
		if d.Batched != nil {
			d.Batched(len(ms), time.Since(began))
		}
		for k, err := range rerrs {
			if errors.Is(err, ErrRefused) {
				d.log.Warn("desk: message refused", "id", ms[k].ID, "table", ms[k].Table, "err", err)
				err = link.Permanent(err)
			}
			errs[at[k]] = err
		}
		return errs
	})
}

// sentBy checks that a message is the table's whose subject it came on: the cluster lets
// table N publish on table N's subjects only, so the subject names the sender, and a table
// cannot speak for another by writing another's number in the message.
func sentBy(subject string, m wire.Message) error {
	table, kind, ok := link.FromIn(subject)
	if !ok {
		table, ok = link.FromProgress(subject)
		kind = wire.KindProgress
	}
	switch {
	case !ok:
		return fmt.Errorf("%w: message %s on %s, not a table's subject", ErrRefused, m.ID, subject)
	case m.Table != table || m.Kind != kind:
		return fmt.Errorf("%w: a %s for table %d (%s) on %s: table %d's subject, for its %ss", ErrRefused, m.Kind, m.Table, m.ID, subject, table, kind)
	}
	return nil
}
