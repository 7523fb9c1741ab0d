package link

import (
	"context"
	"fmt"

	"golang.org/x/sync/errgroup"
)

// Prepare makes what the desk owns on the cluster, if it is not there: both streams, the
// desk's consumer on the tables' stream, and each of tables 1 to tables its consumer of its
// own rulings. Tables may make none of these (package natsauth): a table waits for them.
func (c *Conn) Prepare(ctx context.Context, tables int) error {
	if err := c.EnsureStreams(ctx); err != nil {
		return err
	}
	if err := c.EnsureConsumer(ctx, InStream, DeskConsumer, ""); err != nil {
		return err
	}
	st, err := c.JS.Stream(ctx, OutStream)
	if err != nil {
		return fmt.Errorf("link: stream %s: %w", OutStream, err)
	}
	have := map[string]bool{}
	names := st.ConsumerNames(ctx)
	for n := range names.Name() {
		have[n] = true
	}
	if err := names.Err(); err != nil {
		return fmt.Errorf("link: the consumers of %s: %w", OutStream, err)
	}
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(8)
	for n := 1; n <= tables; n++ {
		if have[TableConsumer(n)] {
			continue
		}
		g.Go(func() error { return c.EnsureConsumer(ctx, OutStream, TableConsumer(n), OutSubject(n)) })
	}
	return g.Wait()
}
