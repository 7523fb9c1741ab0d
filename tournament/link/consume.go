package link

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Msg is a message from a stream: the subject it was published on names its sender.
type Msg struct {
	Subject string
	Data    []byte
}

// Handler takes one message; nil or a Permanent error acknowledges it, any other error has it
// sent again after a while.
type Handler func(m Msg) error

// BatchHandler takes the messages that arrived together, in order, and returns an error (or
// nil) for each, as Handler does: the desk records a batch in one transaction.
type BatchHandler func(ms []Msg) []error

// Permanent wraps an error that will not go away however often the message comes (a message
// refused): the message is acknowledged and dropped.
func Permanent(err error) error { return permanent{err} }

type permanent struct{ error }

func (p permanent) Unwrap() error { return p.error }

// MaxBatch bounds the messages handed to a BatchHandler at once.
const MaxBatch = 1000

// MaxPull bounds the bytes one pull asks the server for, so that a batch of large messages
// stays within what a server holds for a client (natsauth.Limits.MaxPending).
const MaxPull = 8 << 20

// EnsureConsumer makes (or brings up to date) the durable consumer name on stream, filtered
// to subject if given: the desk's part, for its own consumer and each table's.
func (c *Conn) EnsureConsumer(ctx context.Context, stream, name, subject string) error {
	cfg := jetstream.ConsumerConfig{
		Durable: name, AckPolicy: jetstream.AckExplicitPolicy, DeliverPolicy: jetstream.DeliverAllPolicy,
		AckWait: 30 * time.Second, MaxAckPending: 20000, Replicas: c.opt.Replicas,
		FilterSubject: subject,
	}
	if _, err := c.JS.CreateOrUpdateConsumer(ctx, stream, cfg); err != nil {
		return fmt.Errorf("link: consumer %s on %s: %w", name, stream, err)
	}
	return nil
}

// Consume reads stream through its durable consumer name and hands each message to h, in
// order, until ctx ends.
func (c *Conn) Consume(ctx context.Context, stream, name string, h Handler) error {
	return c.ConsumeBatches(ctx, stream, name, func(ms []Msg) []error {
		errs := make([]error, len(ms))
		for i, m := range ms {
			errs[i] = h(m)
		}
		return errs
	})
}

// ConsumeBatches is Consume handing over, at once, every message that has arrived while the
// previous batch was handled (at most MaxBatch): one at a time when they come slowly, many
// together under load. The consumer must exist (EnsureConsumer): until it does (a table up
// before the desk made its consumer) it is looked for again, less often each time.
func (c *Conn) ConsumeBatches(ctx context.Context, stream, name string, h BatchHandler) error {
	var cons jetstream.Consumer
	wait := time.Second
	for {
		var err error
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		cons, err = c.JS.Consumer(cctx, stream, name)
		cancel()
		if err == nil {
			break
		}
		c.opt.Log.Warn("link: consumer not there yet, looking again", "consumer", name, "in", wait, "err", err)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
		wait = min(2*wait, 10*time.Second)
	}
	in := make(chan jetstream.Msg, MaxBatch)
	cc, err := cons.Consume(func(msg jetstream.Msg) {
		select {
		case in <- msg:
		case <-ctx.Done():
		}
	}, jetstream.PullMaxMessagesWithBytesLimit(500, MaxPull), jetstream.ConsumeErrHandler(func(_ jetstream.ConsumeContext, err error) {
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
		ms := make([]Msg, len(batch))
		for i, m := range batch {
			ms[i] = Msg{Subject: m.Subject(), Data: m.Data()}
		}
		errs := h(ms)
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
