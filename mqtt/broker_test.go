package mqtt

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	mochi "github.com/mochi-mqtt/server/v2"

	"github.com/siamesetable/siamesed/engine/track"
)

// startBroker runs an embedded broker on a free loopback port.
func startBroker(t testing.TB) (*Broker, Credentials, Topics) {
	t.Helper()
	creds, err := NewCredentials()
	if err != nil {
		t.Fatal(err)
	}
	topics := TopicsFor("t1")
	b, err := StartBroker("127.0.0.1:0", Policy{Topics: topics}, creds, testLog())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b, creds, topics
}

// startPublisher runs a daemon-side publisher against url, with commands judged by submit.
func startPublisher(t testing.TB, url string, creds Credentials, topics Topics, submit Submit) *Publisher {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var in *Intake
	p := NewPublisher(topics, ClientConfig{Broker: url, Username: DaemonUser, Password: creds.Daemon, ClientID: DaemonClientID(tableName(topics), creds.Daemon)},
		testLog(), func(topic string, payload []byte) { in.Offer(topic, payload) })
	in = NewIntake(topics, submit, p, time.Now, testLog())
	done := make(chan struct{}, 2)
	go func() { p.Run(ctx); done <- struct{}{} }()
	go func() { in.Run(ctx); done <- struct{}{} }()
	t.Cleanup(func() { cancel(); <-done; <-done })
	return p
}

// tableName is the table a topic schema is for.
func tableName(t Topics) string {
	return strings.TrimSuffix(strings.TrimPrefix(t.Prefix, "siamese/"), "/")
}

// TestBrokerACL: the display reads the public topics only; a seat reads the public topics and
// its own, and commands only for itself; a wrong password or no user gets nothing.
func TestBrokerACL(t *testing.T) {
	b, creds, topics := startBroker(t)
	checkACL(t, b.URL(), creds, topics)
}

// checkACL checks the policy on a running broker (embedded or Mosquitto).
func checkACL(t *testing.T, url string, creds Credentials, topics Topics) {
	var commands []track.Command
	submitted := make(chan struct{}, 10)
	p := startPublisher(t, url, creds, topics, func(_ context.Context, c track.Command) error {
		commands = append(commands, c)
		submitted <- struct{}{}
		return nil
	})
	display, _ := subscribe(t, url, DisplayUser, creds.Display, "#")
	seat0, seat0c := subscribe(t, url, "0", creds.Seats[0], "#")
	seat1, _ := subscribe(t, url, "1", creds.Seats[1], "siamese/t1/seat/0/#")

	if _, err := connect(t, clientOpts(url, "", "")); err == nil {
		t.Error("an anonymous client connected")
	}
	if _, err := connect(t, clientOpts(url, "1", creds.Seats[0])); err == nil {
		t.Error("seat 1 connected with seat 0's password")
	}

	p.State([]byte(`{"seq":1}`))
	p.Private(0, []byte(`{"seat":0,"concealed":"secret"}`))
	p.Private(1, []byte(`{"seat":1,"concealed":"secret"}`))
	display.until(t, "the state", func(m Message) bool { return m.Topic == topics.State() }) // the table hears commands
	// Seat 0 commanding for seat 1: the broker drops it (mochi also disconnects a 3.1.1
	// client for it, so it is sent on a connection of its own).
	intruder, err := connect(t, clientOpts(url, "0", creds.Seats[0]))
	if err != nil {
		t.Fatal(err)
	}
	intruder.Publish(topics.Cmd(1), 1, false, `{"kind":"mahjong"}`).WaitTimeout(waitFor)
	publish(t, seat0c, topics.Cmd(0), `{"kind":"mahjong","id":"mine"}`)
	select {
	case <-submitted:
	case <-time.After(waitFor):
		t.Fatal("seat 0's own command did not reach the table")
	}
	if len(commands) != 1 || commands[0].Seat != 0 {
		t.Fatalf("commands reaching the table: %+v, want seat 0's alone", commands)
	}
	seat0.until(t, "seat 0's reply", func(m Message) bool {
		return m.Topic == topics.SeatEvents(0) && strings.Contains(string(m.Payload), `"mine"`)
	})
	seat0.until(t, "seat 0's private view", func(m Message) bool { return m.Topic == topics.SeatPrivate(0) })
	// A marker after everything: what was not delivered by now will not be.
	p.State([]byte(`{"seq":2}`))
	for _, r := range []*received{display, seat0} {
		r.until(t, "the last state", func(m Message) bool { return m.Topic == topics.State() && string(m.Payload) == `{"seq":2}` })
	}
	for _, m := range display.all() {
		if strings.Contains(m.Topic, "/seat/") || strings.Contains(m.Topic, "/cmd/") {
			t.Errorf("the display received %s", m.Topic)
		}
	}
	for _, m := range seat0.all() {
		if strings.Contains(m.Topic, "/seat/1/") || strings.Contains(m.Topic, "/cmd/") {
			t.Errorf("seat 0 received %s", m.Topic)
		}
	}
	if got := seat1.all(); len(got) != 0 {
		t.Errorf("seat 1 subscribed to seat 0's topics received %d messages, first %s", len(got), got[0].Topic)
	}
}

// TestBrokerClosesWithClientsConnected: the broker closes with clients connected, and no client
// leaves mochi after mochi's own Close has begun. mochi v2.7.9's Close lists each listener's
// clients under a read lock it takes twice, and a client leaving then (taking the write lock)
// hangs all three for ever (see gate); a CI run hung so. The window is too narrow to hit at
// will, so the test checks what rules it out: every client is gone before mochi starts closing.
func TestBrokerClosesWithClientsConnected(t *testing.T) {
	creds, err := NewCredentials()
	if err != nil {
		t.Fatal(err)
	}
	var mochiClosing atomic.Bool
	watch := &watchHandler{msg: "gracefully stopping server", seen: &mochiClosing}
	log := slog.New(watch)
	b, err := StartBroker("127.0.0.1:0", Policy{Topics: TopicsFor("t1")}, creds, log)
	if err != nil {
		t.Fatal(err)
	}
	leftLate := &leaveHook{closing: &mochiClosing}
	if err := b.srv.AddHook(leftLate, nil); err != nil {
		t.Fatal(err)
	}
	web := httptest.NewServer(b.WebSocket())
	defer web.Close()
	const clients = 20 // half over TCP, half over WebSocket
	for i := range clients {
		url := b.URL()
		if i%2 == 1 {
			url = "ws://" + web.Listener.Addr().String() + "/mqtt"
		}
		if _, err := connect(t, clientOpts(url, DisplayUser, creds.Display).SetAutoReconnect(false)); err != nil {
			t.Fatal(err)
		}
	}
	closed := make(chan error, 1)
	go func() { closed <- b.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Fatalf("close: %v", err)
		}
	case <-time.After(waitFor):
		t.Fatalf("the broker did not close within %v with %d clients connected", waitFor, clients)
	}
	if !mochiClosing.Load() {
		t.Fatal("mochi's Close never logged that it began: the test cannot tell when it did")
	}
	if n := leftLate.late.Load(); n != 0 {
		t.Errorf("%d of %d clients left mochi after its Close began (each a chance to hang it)", n, clients)
	}
	if n := leftLate.left.Load(); n != clients {
		t.Errorf("%d clients left, want %d", n, clients)
	}
	if n := watch.warnings.Load(); n != 0 {
		t.Errorf("the broker logged %d warnings: a connection it closed is no news", n)
	}
	if _, err := connect(t, clientOpts(b.URL(), DisplayUser, creds.Display).SetAutoReconnect(false).SetConnectTimeout(2*time.Second)); err == nil {
		t.Fatal("a client connected to a closed broker")
	}
}

// watchHandler is a slog handler that notes when a record with msg is logged, and counts the
// warnings and errors.
type watchHandler struct {
	msg      string
	seen     *atomic.Bool
	warnings atomic.Int64
}

func (h *watchHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h *watchHandler) Handle(_ context.Context, r slog.Record) error {
	if r.Message == h.msg {
		h.seen.Store(true)
	}
	if r.Level >= slog.LevelWarn {
		h.warnings.Add(1)
	}
	return nil
}
func (h *watchHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *watchHandler) WithGroup(string) slog.Handler      { return h }

// leaveHook counts the clients that leave mochi, and those that leave once closing is set.
type leaveHook struct {
	mochi.HookBase
	closing    *atomic.Bool
	left, late atomic.Int64
}

func (h *leaveHook) ID() string           { return "test-leave" }
func (h *leaveHook) Provides(b byte) bool { return b == mochi.OnDisconnect }
func (h *leaveHook) OnDisconnect(*mochi.Client, error, bool) {
	h.left.Add(1)
	if h.closing.Load() {
		h.late.Add(1)
	}
}
