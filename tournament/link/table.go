package link

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/siamesetable/siamesed/tournament/table"
	"github.com/siamesetable/siamesed/tournament/wire"
	"golang.org/x/sync/errgroup"
)

// ProgressEvery is how often a table says where it is, besides after each change.
const ProgressEvery = 5 * time.Second

// RunTable connects a table to the cluster until ctx ends: its outbox sent in order, the
// desk's rulings received through its own durable consumer, its progress said every few
// seconds.
func (c *Conn) RunTable(ctx context.Context, t *table.Table) error {
	log := c.opt.Log.With("table", t.Number)
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		for {
			ectx, cancel := context.WithTimeout(ctx, 10*time.Second)
			err := c.EnsureStreams(ectx)
			cancel()
			if err == nil || ctx.Err() != nil {
				break
			}
			log.Warn("tournament: the cluster's streams are not ready yet", "err", err)
			select {
			case <-ctx.Done():
			case <-time.After(time.Second):
			}
		}
		return t.Send(ctx, c.Publish, InSubject, log)
	})
	g.Go(func() error {
		name := fmt.Sprintf("table-%d", t.Number)
		return c.Consume(ctx, OutStream, name, OutSubject(t.Number), func(data []byte) error {
			m, err := wire.Decode(data)
			if err != nil {
				return Permanent(err)
			}
			if err := t.Ruling(m); err != nil {
				return err
			}
			log.Info("tournament: the director's ruling", "ruling", m.ID, "text", m.Ruling.Text)
			return nil
		})
	})
	g.Go(func() error {
		tick := time.NewTicker(ProgressEvery)
		defer tick.Stop()
		for {
			b, err := json.Marshal(t.Progress())
			if err != nil {
				return err
			}
			c.NC.Publish(ProgressSubject(t.Number), b) // a glance: one missed is sent again soon
			select {
			case <-ctx.Done():
				return nil
			case <-tick.C:
			}
		}
	})
	return g.Wait()
}
