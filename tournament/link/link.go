// Package link carries a tournament's messages over a NATS cluster with JetStream: tables
// publish results, signatures, initials and calls onto a durable, replicated stream, which the
// desk reads with a durable consumer and acknowledges only once a message is in its record;
// the desk's rulings go back on a second stream that each table reads through a durable
// consumer of its own, which the desk makes. A node down, or the desk down, loses nothing: the
// stream keeps every message until it is acknowledged, and the desk's record counts each once
// by its id. Progress (a table at a glance) goes on plain NATS: it is sent again every few
// seconds and nothing is lost if one is missed. Every client logs in with its nkey and may use
// only its own subjects (package natsauth says which).
package link

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nkeys"
)

// Options are how to reach the cluster, and as whom.
type Options struct {
	URLs []string // the nodes' client URLs, tried in turn
	Name string   // the connection's name, seen in the servers' monitoring
	// NKey is the client's nkey seed (natsauth): the servers admit no one without one.
	NKey string
	// Inbox is the prefix of the client's reply subjects (DeskInbox, TableInbox): the only
	// replies it may read.
	Inbox string
	// Replicas of each stream and consumer the desk makes: 3 on a three-node cluster (the
	// default), 1 on a single server.
	Replicas int
	Log      *slog.Logger
}

// Conn is a connection to the cluster with JetStream.
type Conn struct {
	NC  *nats.Conn
	JS  jetstream.JetStream
	opt Options
}

// Dial connects, retrying in the background while no node answers: a table starts whether or
// not the cluster is up, and its outbox waits.
func Dial(opt Options) (*Conn, error) {
	if len(opt.URLs) == 0 {
		return nil, errors.New("link: no NATS URLs")
	}
	if opt.Inbox == "" {
		return nil, errors.New("link: no inbox prefix (link.DeskInbox or link.TableInbox)")
	}
	kp, err := nkeys.FromSeed([]byte(opt.NKey))
	if err != nil {
		return nil, fmt.Errorf("link: the client's nkey: %w", err)
	}
	pub, err := kp.PublicKey()
	if err != nil {
		return nil, fmt.Errorf("link: the client's nkey: %w", err)
	}
	if opt.Replicas == 0 {
		opt.Replicas = 3
	}
	if opt.Log == nil {
		opt.Log = slog.New(slog.DiscardHandler)
	}
	log := opt.Log
	nc, err := nats.Connect(strings.Join(opt.URLs, ","),
		nats.Name(opt.Name),
		nats.Nkey(pub, kp.Sign),
		nats.CustomInboxPrefix(opt.Inbox),
		nats.RetryOnFailedConnect(true),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(250*time.Millisecond),
		nats.ReconnectJitter(100*time.Millisecond, time.Second),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if err != nil {
				log.Warn("nats: disconnected", "err", err)
			}
		}),
		nats.ReconnectHandler(func(c *nats.Conn) { log.Info("nats: connected", "server", c.ConnectedUrlRedacted()) }),
		// A permission refused (a subject this client may not use) comes back on its own.
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) { log.Warn("nats: the server refused", "err", err) }),
		nats.ClosedHandler(func(c *nats.Conn) {
			if err := c.LastError(); err != nil {
				log.Error("nats: connection closed", "err", err)
			}
		}),
	)
	if err != nil {
		return nil, fmt.Errorf("link: %w", err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("link: %w", err)
	}
	return &Conn{NC: nc, JS: js, opt: opt}, nil
}

// Close drains and closes the connection.
func (c *Conn) Close() { c.NC.Close() }

// EnsureStreams makes both streams if they are not there (the desk's part; an existing stream
// is left as it is).
func (c *Conn) EnsureStreams(ctx context.Context) error {
	for _, cfg := range []jetstream.StreamConfig{
		{Name: InStream, Subjects: []string{inPrefix + ">"}},
		{Name: OutStream, Subjects: []string{outPrefix + ">"}},
	} {
		cfg.Storage = jetstream.FileStorage
		cfg.Replicas = c.opt.Replicas
		cfg.Retention = jetstream.LimitsPolicy
		cfg.Duplicates = 2 * time.Hour
		cfg.MaxAge = 14 * 24 * time.Hour
		if _, err := c.JS.Stream(ctx, cfg.Name); err == nil {
			continue
		} else if !errors.Is(err, jetstream.ErrStreamNotFound) {
			return fmt.Errorf("link: stream %s: %w", cfg.Name, err)
		}
		if _, err := c.JS.CreateStream(ctx, cfg); err != nil && !errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
			return fmt.Errorf("link: creating stream %s: %w", cfg.Name, err)
		}
	}
	return nil
}

// Publish puts one message on a stream and waits for the stream to have it (replicated): only
// then may the sender forget it. id names it in errors. It carries no JetStream message id:
// the tables' stream is written by every table, and a table that took another's message id
// first would have the stream drop the other's message as a duplicate; the desk's record
// counts each message once by its id, which names its table.
func (c *Conn) Publish(ctx context.Context, subject, id string, data []byte) error {
	if _, err := c.JS.Publish(ctx, subject, data); err != nil {
		return fmt.Errorf("link: publishing %s: %w", id, err)
	}
	return nil
}

// PublishOnce is Publish with id as the message's JetStream id, so the stream drops the same
// message sent again within its duplicate window: for a stream only the publisher may write
// (the desk's rulings).
func (c *Conn) PublishOnce(ctx context.Context, subject, id string, data []byte) error {
	if _, err := c.JS.Publish(ctx, subject, data, jetstream.WithMsgID(id)); err != nil {
		return fmt.Errorf("link: publishing %s: %w", id, err)
	}
	return nil
}
