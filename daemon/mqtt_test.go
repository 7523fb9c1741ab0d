package daemon

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	"github.com/siamesetable/siamesed/mqtt"
)

// waitFor bounds a wait for something that should happen soon: generous, the machine is busy.
const waitFor = 60 * time.Second

// tableBroker is a broker a test starts before the daemon (configured as an external broker),
// so subscribers are there from the first message on.
type tableBroker struct {
	url   string
	creds mqtt.Credentials
}

// startTableBroker writes the data directory's credentials and starts an embedded broker with
// them on a free loopback port.
func startTableBroker(t *testing.T, dataDir, table string) tableBroker {
	t.Helper()
	creds, _, err := mqtt.LoadOrCreateCredentials(mqtt.CredentialsFile(dataDir))
	if err != nil {
		t.Fatal(err)
	}
	b, err := mqtt.StartBroker("127.0.0.1:0", mqtt.Policy{Topics: mqtt.TopicsFor(table)}, creds, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return tableBroker{url: b.URL(), creds: creds}
}

// message is one received message with its arrival.
type message struct {
	topic   string
	payload []byte
}

// collector subscribes as a user and keeps every message.
type collector struct {
	mu   sync.Mutex
	msgs []message
	more chan struct{}
}

func collect(t *testing.T, url, user, pass, filter string, more ...string) *collector {
	t.Helper()
	c := &collector{more: make(chan struct{}, 1)}
	o := paho.NewClientOptions().AddBroker(url).SetClientID(fmt.Sprintf("test-%s-%d", user, time.Now().UnixNano())).
		SetUsername(user).SetPassword(pass).SetOrderMatters(true)
	cl := paho.NewClient(o)
	if tok := cl.Connect(); !tok.WaitTimeout(waitFor) || tok.Error() != nil {
		t.Fatalf("%s connects: %v", user, tok.Error())
	}
	t.Cleanup(func() { cl.Disconnect(50) })
	filters := map[string]byte{filter: 1}
	for _, f := range more {
		filters[f] = 1
	}
	tok := cl.SubscribeMultiple(filters, func(_ paho.Client, m paho.Message) {
		c.mu.Lock()
		c.msgs = append(c.msgs, message{m.Topic(), append([]byte(nil), m.Payload()...)})
		c.mu.Unlock()
		select {
		case c.more <- struct{}{}:
		default:
		}
	})
	if !tok.WaitTimeout(waitFor) || tok.Error() != nil {
		t.Fatalf("%s subscribes: %v", user, tok.Error())
	}
	return c
}

func (c *collector) all() []message {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]message(nil), c.msgs...)
}

// until waits for a message for which ok holds.
func (c *collector) until(t *testing.T, what string, ok func(message) bool) {
	t.Helper()
	deadline := time.After(waitFor)
	for {
		for _, m := range c.all() {
			if ok(m) {
				return
			}
		}
		select {
		case <-c.more:
		case <-deadline:
			t.Fatalf("no %s within %v (%d messages)", what, waitFor, len(c.all()))
		}
	}
}

// testLog logs to stderr when DAEMON_DEBUG is set.
func testLog() *slog.Logger {
	if os.Getenv("DAEMON_DEBUG") == "" {
		return slog.New(slog.DiscardHandler)
	}
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// runDaemon runs the daemon on cfg until it finishes its games or the test ends; it returns
// the display port's address and a function that waits for Run's result.
func runDaemon(t testing.TB, cfg Config, dataDir string) (string, func() error) {
	t.Helper()
	return runDaemonLogging(t, cfg, dataDir, testLog())
}

// runDaemonLogging is runDaemon logging to log.
func runDaemonLogging(t testing.TB, cfg Config, dataDir string, log *slog.Logger) (string, func() error) {
	t.Helper()
	return runDaemonOptions(t, cfg, Options{DataDir: dataDir, Log: log})
}

// runDaemonOptions is runDaemon with options (Listening and Start are the test's).
func runDaemonOptions(t testing.TB, cfg Config, opt Options) (string, func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	listening := make(chan string, 1)
	finished := make(chan struct{})
	var runErr error
	go func() {
		defer close(finished)
		opt.Listening, opt.Start = listening, time.Date(2026, 11, 23, 19, 0, 0, 0, time.UTC)
		runErr = Run(ctx, cfg, opt)
	}()
	wait := func() error {
		select {
		case <-finished:
			return runErr
		case <-time.After(5 * waitFor):
			return fmt.Errorf("the daemon did not finish")
		}
	}
	t.Cleanup(func() {
		cancel()
		if err := wait(); err != nil {
			t.Errorf("the daemon: %v", err)
		}
	})
	select {
	case addr := <-listening:
		return addr, wait
	case <-finished:
		t.Fatalf("the daemon stopped at start: %v", runErr)
	case <-time.After(waitFor):
		t.Fatal("the daemon does not listen")
	}
	return "", nil
}
