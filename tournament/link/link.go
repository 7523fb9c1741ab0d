// Package link carries a tournament's messages over a NATS cluster with JetStream: tables
// publish results, signatures, initials and calls onto a durable, replicated stream, which the
// desk reads with a durable consumer and acknowledges only once a message is in its record;
// the desk's rulings go back on a second stream that each table reads with a durable consumer
// of its own. A node down, or the desk down, loses nothing: the stream keeps every message
// until it is acknowledged, and each carries its id for JetStream's duplicate window (the desk's
// record dedupes beyond it). Progress (a table at a glance) goes on plain NATS: it is sent
// again every few seconds and nothing is lost if one is missed.
package link

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Streams and subjects.
const (
	InStream  = "SIAMESE_DESK_IN"  // tables -> desk
	OutStream = "SIAMESE_DESK_OUT" // desk -> tables (rulings)
	inPrefix  = "siamese.desk.in."
	outPrefix = "siamese.desk.out."
	progress  = "siamese.desk.progress."
)

// InSubject is where table publishes messages of kind.
func InSubject(table int, kind string) string {
	return inPrefix + "t" + strconv.Itoa(table) + "." + kind
}

// OutSubject is where the desk's rulings for table go.
func OutSubject(table int) string { return outPrefix + "t" + strconv.Itoa(table) }

// ProgressSubject is where table says where it is.
func ProgressSubject(table int) string { return progress + "t" + strconv.Itoa(table) }

// Options are how to reach the cluster.
type Options struct {
	URLs []string // the nodes' client URLs, tried in turn
	Name string   // the connection's name, seen in the servers' monitoring
	// Replicas of each stream: 3 on a three-node cluster (the default), 1 on a single server.
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
	if opt.Replicas == 0 {
		opt.Replicas = 3
	}
	if opt.Log == nil {
		opt.Log = slog.New(slog.DiscardHandler)
	}
	log := opt.Log
	nc, err := nats.Connect(strings.Join(opt.URLs, ","),
		nats.Name(opt.Name),
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

// EnsureStreams makes both streams if they are not there (the desk and tables alike call it;
// an existing stream is left as it is).
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
// then may the sender forget it. id is its JetStream message id.
func (c *Conn) Publish(ctx context.Context, subject, id string, data []byte) error {
	_, err := c.JS.Publish(ctx, subject, data, jetstream.WithMsgID(id))
	if err != nil {
		return fmt.Errorf("link: publishing %s: %w", id, err)
	}
	return nil
}
