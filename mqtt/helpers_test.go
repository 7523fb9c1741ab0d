package mqtt

import (
	"fmt"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
)

// waitFor is how long a test waits for something that should happen at once: generous, as
// the machine may be busy.
const waitFor = 30 * time.Second

var clientIDs atomic.Int64

// received collects what a test client receives.
type received struct {
	mu   sync.Mutex
	msgs []Message
	kept []Message // those the broker gave as retained: kept for a subscriber arriving later
	more chan struct{}
}

func (r *received) add(m paho.Message) {
	msg := Message{Topic: m.Topic(), Payload: append([]byte(nil), m.Payload()...)}
	r.mu.Lock()
	r.msgs = append(r.msgs, msg)
	if m.Retained() {
		r.kept = append(r.kept, msg)
	}
	r.mu.Unlock()
	select {
	case r.more <- struct{}{}:
	default:
	}
}

func (r *received) all() []Message {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Message(nil), r.msgs...)
}

// retained is what the broker delivered as retained, not live: at a subscription, what it kept.
func (r *received) retained() []Message {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Message(nil), r.kept...)
}

// untilKept waits for a message the broker gave as retained, failing the test past the
// deadline: a broker may deliver what it kept after a live message sent later.
func (r *received) untilKept(t testing.TB, what string) {
	t.Helper()
	deadline := time.After(waitFor)
	for len(r.retained()) == 0 {
		select {
		case <-r.more:
		case <-deadline:
			t.Fatalf("no %s within %v; received %d messages: %s", what, waitFor, len(r.all()), r.all())
		}
	}
}

// until waits for a message for which ok holds, failing the test past the deadline.
func (r *received) until(t testing.TB, what string, ok func(Message) bool) Message {
	t.Helper()
	deadline := time.After(waitFor)
	for {
		for _, m := range r.all() {
			if ok(m) {
				return m
			}
		}
		select {
		case <-r.more:
		case <-deadline:
			t.Fatalf("no %s within %v; received %d messages: %s", what, waitFor, len(r.all()), r.all())
		}
	}
}

// clientOpts are a test client's options: a fresh client id, quick reconnects.
func clientOpts(url, user, pass string) *paho.ClientOptions {
	return paho.NewClientOptions().AddBroker(url).SetClientID(fmt.Sprintf("test-%d", clientIDs.Add(1))).
		SetUsername(user).SetPassword(pass).SetConnectTimeout(10 * time.Second).
		SetAutoReconnect(true).SetMaxReconnectInterval(200 * time.Millisecond).SetConnectRetryInterval(200 * time.Millisecond)
}

// connect connects a client, or returns the error the broker gave.
func connect(t testing.TB, o *paho.ClientOptions) (paho.Client, error) {
	t.Helper()
	c := paho.NewClient(o)
	tok := c.Connect()
	if !tok.WaitTimeout(waitFor) {
		return nil, fmt.Errorf("connect timed out")
	}
	if err := tok.Error(); err != nil {
		return nil, err
	}
	t.Cleanup(func() { c.Disconnect(50) })
	return c, nil
}

// subscribe connects user and subscribes to filter (and more), collecting every message.
func subscribe(t testing.TB, url, user, pass, filter string, more ...string) (*received, paho.Client) {
	t.Helper()
	r := &received{more: make(chan struct{}, 1)}
	c, err := connect(t, clientOpts(url, user, pass))
	if err != nil {
		t.Fatalf("%s connects: %v", user, err)
	}
	filters := map[string]byte{filter: 1}
	for _, f := range more {
		filters[f] = 1
	}
	tok := c.SubscribeMultiple(filters, func(_ paho.Client, m paho.Message) { r.add(m) })
	if !tok.WaitTimeout(waitFor) || tok.Error() != nil {
		t.Fatalf("%s subscribes to %s: %v", user, filter, tok.Error())
	}
	return r, c
}

// publish publishes and waits for the broker's acknowledgement.
func publish(t testing.TB, c paho.Client, topic string, payload string) {
	t.Helper()
	tok := c.Publish(topic, 1, false, payload)
	if !tok.WaitTimeout(waitFor) || tok.Error() != nil {
		t.Fatalf("publish %s: %v", topic, tok.Error())
	}
}

// testLog logs to stderr when MQTT_DEBUG is set.
func testLog() *slog.Logger {
	if os.Getenv("MQTT_DEBUG") == "" {
		return slog.New(slog.DiscardHandler)
	}
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
}
