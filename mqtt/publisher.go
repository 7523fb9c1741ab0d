package mqtt

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
)

// ClientConfig is how the daemon reaches its broker.
type ClientConfig struct {
	Broker   string // tcp://host:port
	Username string
	Password string
	ClientID string
	// QueueSize bounds the events waiting for the broker (default 4096: many games' worth).
	QueueSize int
	// Reconnect is the longest wait between attempts to reach the broker (default 500ms),
	// which bounds how stale the retained state is after a broker comes back.
	Reconnect time.Duration
}

// Publisher puts the table on MQTT. The table loop calls State, Private, Health, Event and
// SeatEvent, which never block; one goroutine (Run) publishes. State and events go at QoS 1;
// the retained topics are published again after every reconnect (a restarted broker may have
// lost them); events that the broker did not acknowledge are sent again.
type Publisher struct {
	topics Topics
	cfg    ClientConfig
	out    *Outbox
	log    *slog.Logger
	client paho.Client

	mu      sync.Mutex
	current map[string][]byte // every retained topic's latest payload, for republishing
	numbers map[string]uint64 // events topic -> the last event number given

	connected  chan struct{} // a (re)connection: republish what is retained
	commands   func(topic string, payload []byte)
	reconnects atomic.Int64
	published  atomic.Uint64
	open       atomic.Bool
}

// Batch is how many events the publisher sends before waiting for their acknowledgements.
const Batch = 256

// NewPublisher makes a publisher; Run connects it. commands, when set, hears every message on
// the command topics (from paho's goroutine: it must not block).
func NewPublisher(t Topics, cfg ClientConfig, log *slog.Logger, commands func(topic string, payload []byte)) *Publisher {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if cfg.QueueSize <= 0 {
		cfg.QueueSize = 4096
	}
	if cfg.Reconnect <= 0 {
		cfg.Reconnect = 500 * time.Millisecond
	}
	p := &Publisher{topics: t, cfg: cfg, out: NewOutbox(cfg.QueueSize, log), log: log,
		current: map[string][]byte{t.Status(): []byte("online")}, numbers: map[string]uint64{},
		connected: make(chan struct{}, 1), commands: commands}
	o := paho.NewClientOptions().AddBroker(cfg.Broker).SetClientID(cfg.ClientID).
		SetUsername(cfg.Username).SetPassword(cfg.Password).
		SetCleanSession(true).       // commands sent while the daemon was away are not played later
		SetStore(newPrivateStore()). // see privateStore: paho's own races on reconnect
		SetAutoReconnect(true).SetConnectRetry(true).
		SetConnectRetryInterval(cfg.Reconnect).SetMaxReconnectInterval(cfg.Reconnect).
		SetConnectTimeout(5*time.Second).SetKeepAlive(10*time.Second).SetOrderMatters(false).
		SetBinaryWill(t.Status(), []byte("offline"), 1, true).
		SetOnConnectHandler(p.onConnect).
		SetConnectionLostHandler(func(_ paho.Client, err error) {
			p.open.Store(false)
			p.log.Warn("mqtt: connection to the broker lost", "broker", cfg.Broker, "err", err)
		})
	p.client = paho.NewClient(o)
	return p
}

// onConnect subscribes to the commands first, then lets the state out: once a display sees
// the state, the table hears commands.
func (p *Publisher) onConnect(c paho.Client) {
	if p.commands != nil {
		// Wait for the broker's answer however long it takes (a token also ends when the
		// connection is lost): a subscription given up on after a timeout let the state out
		// while the table could not hear a command (seen under load, over WebSocket).
		tok := c.Subscribe(p.topics.CmdFilter(), 1, p.command)
		if tok.Wait(); tok.Error() != nil {
			p.log.Error("mqtt: cannot subscribe to the command topics", "filter", p.topics.CmdFilter(), "err", tok.Error())
		}
	}
	p.open.Store(true)
	if n := p.reconnects.Add(1); n == 1 {
		p.log.Info("mqtt: connected", "broker", p.cfg.Broker, "user", p.cfg.Username)
	} else {
		p.log.Info("mqtt: reconnected", "broker", p.cfg.Broker, "times", n-1)
	}
	select {
	case p.connected <- struct{}{}:
	default:
	}
}

// command hands a message on a command topic to the intake. A command the broker kept
// retained is refused and cleared: it was sent before this connection, and docs/mqtt.md
// promises that a command sent while the daemon is away is not played later (the embedded
// broker keeps none; Mosquitto keeps what a seat publishes retained). An empty message is
// such a clearing, not a command.
func (p *Publisher) command(c paho.Client, m paho.Message) {
	switch {
	case m.Retained() && len(m.Payload()) > 0:
		p.log.Warn("mqtt: a retained command refused and cleared: commands are never played later", "topic", m.Topic(), "bytes", len(m.Payload()))
		c.Publish(m.Topic(), 1, true, []byte{})
	case len(m.Payload()) > 0:
		p.commands(m.Topic(), m.Payload())
	}
}

// DaemonClientID is the daemon's MQTT client id: its table's name and a tag made from its
// password, which nobody else can make. Mosquitto lets any user connect with any client id
// and drops the client that held it; with an id no one else can know, no one can knock the
// daemon off its broker (the embedded broker also keeps each user's ids apart).
func DaemonClientID(table, password string) string {
	mac := hmac.New(sha256.New, []byte(password))
	mac.Write([]byte("siamesed client id"))
	return "siamesed-" + table + "-" + hex.EncodeToString(mac.Sum(nil))[:16]
}

// State sets the retained public state.
func (p *Publisher) State(payload []byte) { p.retain(p.topics.State(), payload) }

// Health sets the retained health.
func (p *Publisher) Health(payload []byte) { p.retain(p.topics.Health(), payload) }

// Private sets a seat's retained private view.
func (p *Publisher) Private(seat int, payload []byte) { p.retain(p.topics.SeatPrivate(seat), payload) }

func (p *Publisher) retain(topic string, payload []byte) {
	p.mu.Lock()
	p.current[topic] = payload
	p.mu.Unlock()
	p.out.Retain(topic, payload)
}

// Event numbers and queues an event on the public events topic; false: it was dropped (the
// queue is full), counted and logged.
func (p *Publisher) Event(e Event) bool { return p.event(p.topics.Events(), e) }

// SeatEvent numbers and queues an event on a seat's own events topic.
func (p *Publisher) SeatEvent(seat int, e Event) bool { return p.event(p.topics.SeatEvents(seat), e) }

func (p *Publisher) event(topic string, e Event) bool {
	p.mu.Lock()
	defer p.mu.Unlock() // numbers are given in queue order
	p.numbers[topic]++
	e.N = p.numbers[topic]
	b, err := json.Marshal(e)
	if err != nil {
		p.log.Error("mqtt: event dropped: it does not encode", "topic", topic, "type", e.Type, "err", err)
		return false
	}
	return p.out.Event(topic, b)
}

// PublisherStats is the publisher's part of the health topic.
type PublisherStats struct {
	Stats
	Connected  bool   `json:"connected"`
	Reconnects int64  `json:"reconnects"`
	Published  uint64 `json:"published"`
}

// Stats says how publishing goes.
func (p *Publisher) Stats() PublisherStats {
	return PublisherStats{Stats: p.out.Stats(), Connected: p.open.Load(), Reconnects: max(0, p.reconnects.Load()-1), Published: p.published.Load()}
}

// Run connects and publishes until ctx ends, then says offline and disconnects.
func (p *Publisher) Run(ctx context.Context) error {
	p.client.Connect() // retries in the background until it connects
	defer p.shutdown()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-p.connected:
			p.republish()
		case <-p.out.Wake():
		}
		if !p.open.Load() {
			continue // wait for the connection; what comes meanwhile stays in the outbox
		}
		p.flush(ctx)
	}
}

// republish queues every retained topic again, status first.
func (p *Publisher) republish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for t, b := range p.current {
		p.out.Retain(t, b)
	}
}

// flush publishes what the outbox holds and waits for the acknowledgements; what the broker
// did not take goes back into the outbox for the next connection.
func (p *Publisher) flush(ctx context.Context) {
	retained, events := p.out.Take(Batch)
	if len(retained) == 0 && len(events) == 0 {
		return
	}
	rt := make([]paho.Token, len(retained))
	for i, m := range retained {
		rt[i] = p.client.Publish(m.Topic, 1, true, m.Payload)
	}
	et := make([]paho.Token, len(events))
	for i, m := range events {
		et[i] = p.client.Publish(m.Topic, 1, false, m.Payload)
	}
	var failedR, failedE []Message
	var firstErr error
	for i, t := range rt {
		if err := wait(ctx, t); err != nil {
			failedR, firstErr = append(failedR, retained[i]), cmpErr(firstErr, err)
		}
	}
	for i, t := range et {
		if err := wait(ctx, t); err != nil {
			failedE, firstErr = append(failedE, events[i]), cmpErr(firstErr, err)
		}
	}
	p.published.Add(uint64(len(retained) + len(events) - len(failedR) - len(failedE)))
	if firstErr != nil {
		p.out.Putback(failedR, failedE)
		p.log.Warn("mqtt: publishing failed; kept for the next connection", "retained", len(failedR), "events", len(failedE), "err", firstErr)
		if !p.client.IsConnectionOpen() {
			p.open.Store(false)
		}
	}
}

func cmpErr(first, err error) error {
	if first == nil {
		return err
	}
	return first
}

// ackTimeout bounds the wait for one acknowledgement; a message past it is sent again.
const ackTimeout = 10 * time.Second

func wait(ctx context.Context, t paho.Token) error {
	timer := time.NewTimer(ackTimeout)
	defer timer.Stop()
	select {
	case <-t.Done():
		return t.Error()
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return errors.New("no acknowledgement in time")
	}
}

// shutdown publishes what is left (for a little while), says offline (the will covers a
// crash) and disconnects. Events still queued after that are counted as dropped and logged.
func (p *Publisher) shutdown() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for p.client.IsConnectionOpen() && ctx.Err() == nil {
		if st := p.out.Stats(); st.Queued == 0 && !p.out.hasRetained() {
			break
		}
		p.flush(ctx)
	}
	if st := p.out.Stats(); st.Queued > 0 {
		p.log.Warn("mqtt: events left unpublished at shutdown", "events", st.Queued)
	}
	if p.client.IsConnectionOpen() {
		t := p.client.Publish(p.topics.Status(), 1, true, []byte("offline"))
		if !t.WaitTimeout(2*time.Second) || t.Error() != nil {
			p.log.Warn("mqtt: could not say offline", "err", fmt.Errorf("mqtt: status: %v", t.Error()))
		}
	}
	p.client.Disconnect(250)
}
