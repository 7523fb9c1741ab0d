package desk

import (
	"context"
	"errors"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/siamesetable/siamesed/tournament/link"
	"github.com/siamesetable/siamesed/tournament/wire"
)

// DeskConsumer is the desk's durable consumer on the tables' stream.
const DeskConsumer = "desk"

// Serve takes the tables' messages from the cluster until ctx ends: each recorded before it is
// acknowledged, so a desk stopped at any moment is sent again what it had not recorded, and
// counts it once. Rulings go to their tables on the desk's stream; every recorded ruling is
// sent again at start (a table keeps each once).
func (d *Desk) Serve(ctx context.Context, c *link.Conn) error {
	for { // each try bounded: a request sent before the cluster has a leader may never be answered
		try, cancel := context.WithTimeout(ctx, 10*time.Second)
		err := c.EnsureStreams(try)
		cancel()
		if err == nil {
			break
		}
		if ctx.Err() != nil {
			return nil
		}
		d.log.Warn("desk: the cluster's streams are not ready yet", "err", err)
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
		return c.Publish(ctx, link.OutSubject(m.Table), m.ID, b)
	}
	if err := d.Resend(); err != nil {
		d.log.Warn("desk: rulings not all sent again", "err", err)
	}
	sub, err := c.NC.Subscribe("siamese.desk.progress.*", func(msg *nats.Msg) {
		m, err := wire.Decode(msg.Data)
		if err != nil || m.Kind != wire.KindProgress {
			return
		}
		d.Receive(m)
	})
	if err != nil {
		return err
	}
	defer sub.Unsubscribe()
	return c.ConsumeBatches(ctx, link.InStream, DeskConsumer, "", func(data [][]byte) []error {
		errs := make([]error, len(data))
		var ms []wire.Message
		var raw [][]byte
		var at []int
		for i, b := range data {
			m, err := wire.Decode(b)
			if err != nil {
				errs[i] = link.Permanent(err)
				continue
			}
			ms, raw, at = append(ms, m), append(raw, b), append(at, i)
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
