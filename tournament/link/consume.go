package link

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Handler takes one message; nil or a Permanent error acknowledges it, any other error has it
// sent again after a while.
type Handler func(data []byte) error

// BatchHandler takes the messages that arrived together, in order, and returns an error (or
// nil) for each, as Handler does: the desk records a batch in one transaction.
type BatchHandler func(data [][]byte) []error

// Permanent wraps an error that will not go away however often the message comes (a message
// refused): the message is acknowledged and dropped.
func Permanent(err error) error { return permanent{err} }

type permanent struct{ error }

func (p permanent) Unwrap() error { return p.error }

// MaxBatch bounds the messages handed to a BatchHandler at once.
const MaxBatch = 1000

// Consume reads stream through the durable consumer name (filtered to subject, if given) and
// hands each message to h, in order, until ctx ends. The consumer is made if it is not there.
func (c *Conn) Consume(ctx context.Context, stream, name, subject string, h Handler) error {
	return c.ConsumeBatches(ctx, stream, name, subject, func(data [][]byte) []error {
		errs := make([]error, len(data))
		for i, d := range data {
			errs[i] = h(d)
		}
		return errs
	})
}

// ConsumeBatches is Consume handing over, at once, every message that has arrived while the
// previous batch was handled (at most MaxBatch): one at a time when they come slowly, many
// together under load.
func (c *Conn) ConsumeBatches(ctx context.Context, stream, name, subject string, h BatchHandler) error {
	cfg := jetstream.ConsumerConfig{
		Durable: name, AckPolicy: jetstream.AckExplicitPolicy, DeliverPolicy: jetstream.DeliverAllPolicy,
		AckWait: 30 * time.Second, MaxAckPending: 20000, Replicas: c.opt.Replicas,
		FilterSubject: subject,
	}
	var cons jetstream.Consumer
	for {
		var err error
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		cons, err = c.JS.CreateOrUpdateConsumer(cctx, stream, cfg)
		cancel()
		if err == nil {
			break
		}
		c.opt.Log.Warn("link: consumer not ready, trying again", "consumer", name, "err", err)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(time.Second):
		}
	}
	in := make(chan jetstream.Msg, MaxBatch)
	cc, err := cons.Consume(func(msg jetstream.Msg) {
		select {
		case in <- msg:
		case <-ctx.Done():
		}
	}, jetstream.PullMaxMessages(500), jetstream.ConsumeErrHandler(func(_ jetstream.ConsumeContext, err error) {
		c.opt.Log.Debug("link: consume", "consumer", name, "err", err)
	}))
	if err != nil {
		return fmt.Errorf("link: consuming %s: %w", name, err)
	}
	defer cc.Stop()
	for {
		var batch []jetstream.Msg
		select {
		case <-ctx.Done():
			return nil
		case m := <-in:
			batch = append(batch, m)
		}
	more:
		for len(batch) < MaxBatch {
			select {
			case m := <-in:
				batch = append(batch, m)
			default:
				break more
			}
		}
		data := make([][]byte, len(batch))
		for i, m := range batch {
			data[i] = m.Data()
		}
		errs := h(data)
		for i, m := range batch {
			c.settle(m, errs[i])
		}
	}
}

// settle acknowledges a handled message, drops a refused one, or has it sent again.
func (c *Conn) settle(msg jetstream.Msg, err error) {
	var p permanent
	switch {
	case err == nil:
		err = msg.Ack()
	case errors.As(err, &p):
		c.opt.Log.Warn("link: message refused", "subject", msg.Subject(), "err", err)
		err = msg.Term()
	default:
		c.opt.Log.Warn("link: message not taken, it comes again", "subject", msg.Subject(), "err", err)
		err = msg.NakWithDelay(time.Second)
	}
	if err != nil {
		c.opt.Log.Warn("link: acknowledging", "subject", msg.Subject(), "err", err)
	}
}
