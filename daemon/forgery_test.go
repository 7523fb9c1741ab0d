package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	"github.com/siamesetable/siamesed/mqtt"
)

// forger keeps trying to command the table, forge its state and knock the daemon off its
// broker, through every way a message enters, while a game is played: as the display (whose
// password is public), as seat 0 for seat 1, and with the daemon's own client id.
type forger struct {
	t      *testing.T
	url    string
	creds  mqtt.Credentials
	topics mqtt.Topics
	table  string
	n      int
}

// dropping connects as user with a will and leaves without a word, so the broker publishes
// the will (if it kept it).
func (f *forger) dropping(user, pass, topic string, payload []byte, retain bool) {
	var conn net.Conn
	var mu sync.Mutex
	o := paho.NewClientOptions().AddBroker(f.url).SetClientID(fmt.Sprintf("forger-%d", f.n)).SetUsername(user).SetPassword(pass).
		SetAutoReconnect(false).SetConnectTimeout(5*time.Second).SetBinaryWill(topic, payload, 1, retain).
		SetCustomOpenConnectionFn(func(u *url.URL, _ paho.ClientOptions) (net.Conn, error) {
			c, err := net.Dial("tcp", u.Host)
			mu.Lock()
			conn = c
			mu.Unlock()
			return c, err
		})
	c := paho.NewClient(o)
	if tok := c.Connect(); tok.WaitTimeout(waitFor) && tok.Error() == nil {
		mu.Lock()
		conn.Close()
		mu.Unlock()
	}
}

// publishing connects as user with id and publishes.
func (f *forger) publishing(user, pass, id, topic string, payload []byte, retain bool) {
	o := paho.NewClientOptions().AddBroker(f.url).SetClientID(id).SetUsername(user).SetPassword(pass).
		SetAutoReconnect(false).SetConnectTimeout(5 * time.Second)
	c := paho.NewClient(o)
	if tok := c.Connect(); !tok.WaitTimeout(waitFor) || tok.Error() != nil {
		return
	}
	c.Publish(topic, 1, retain, payload).WaitTimeout(2 * time.Second)
	c.Disconnect(10)
}

func (f *forger) round() {
	f.n++
	mj := fmt.Appendf(nil, `{"kind":"mahjong","rack":1,"id":"forged-%d"}`, f.n)
	state := fmt.Appendf(nil, `{"table":"FORGED-%d","seats":["FORGED","FORGED"]}`, f.n)
	d, s0 := f.creds.Display, f.creds.Seats[0]
	f.dropping(mqtt.DisplayUser, d, f.topics.Cmd(1), mj, false)
	f.dropping(mqtt.DisplayUser, d, f.topics.State(), state, true)
	f.dropping(mqtt.DisplayUser, d, f.topics.Status(), []byte("offline"), true)
	f.dropping("0", s0, f.topics.Cmd(1), mj, false)
	f.dropping("0", s0, f.topics.SeatPrivate(1), state, true)
	f.publishing(mqtt.DisplayUser, d, fmt.Sprintf("forger-p%d", f.n), f.topics.Cmd(1), mj, false)
	f.publishing("0", s0, fmt.Sprintf("forger-q%d", f.n), f.topics.Cmd(1), mj, false)
	f.publishing("0", s0, fmt.Sprintf("forger-r%d", f.n), f.topics.Cmd(0), mj, true)
	f.publishing(mqtt.DisplayUser, d, mqtt.DaemonClientID(f.table, f.creds.Daemon), f.topics.State(), state, true)
	f.publishing("0", s0, "siamesed-"+f.table, f.topics.Cmd(1), mj, false)
}

// forgeryPause is the forger's breath between rounds: without it the forger kept both of a small
// machine's cores busy (5,640 rounds in one game), starving the tests run beside this one.
const forgeryPause = 20 * time.Millisecond

// TestForgeriesChangeNothing: while the simulated table plays a game, a forger tries every way
// in, over and over; the game is tracked as it was played (its journal replays to the same
// end), no forged command is ever judged (no reply names one), no display or seat ever sees a
// forged state or an offline table, and the daemon is never knocked off its broker.
func TestForgeriesChangeNothing(t *testing.T) {
	t.Parallel() // a whole game on the table's clock, mostly waiting: run beside the other such tests
	dir := t.TempDir()
	cfg := fastConfig(1, 0)
	cfg.Sim.Fast = false
	// At most sim.speed 5: past it the simulated camera's frames take longer to draw and watch
	// than the table's clock gives them on a small, busy machine (see MaxSpeed's comment), and
	// the tracker's misses there are no broker's doing (CI under -race saw one at 20).
	cfg.Sim.Speed = 5
	b := startTableBroker(t, dir, cfg.Table)
	cfg.MQTT = MQTTConfig{Broker: b.url, Queue: 1 << 16}
	topics := mqtt.TopicsFor(cfg.Table)
	display := collect(t, b.url, mqtt.DisplayUser, b.creds.Display, topics.State(), topics.Events(), topics.Status(), topics.Health())
	seat1 := collect(t, b.url, "1", b.creds.Seats[1], topics.SeatPrivate(1), topics.SeatEvents(1))
	seat0 := collect(t, b.url, "0", b.creds.Seats[0], topics.SeatPrivate(0), topics.SeatEvents(0))
	warnings := &warnLog{}
	_, wait := runDaemonLogging(t, cfg, dir, slog.New(warnings))
	display.until(t, "the first state", func(m message) bool { return m.topic == topics.State() })
	f := &forger{t: t, url: b.url, creds: b.creds, topics: topics, table: cfg.Table}
	finished := make(chan error, 1)
	go func() { finished <- wait() }()
	rounds := 0
	for running := true; running; {
		select {
		case err := <-finished:
			if err != nil {
				t.Fatal(err)
			}
			running = false
		case <-time.After(forgeryPause):
			f.round()
			rounds++
		}
	}
	// The daemon's own offline, at the end, may still be on its way to the display.
	display.until(t, "the table offline at the end", func(m message) bool { return m.topic == topics.Status() && string(m.payload) == "offline" })
	offline := 0
	for name, c := range map[string]*collector{"display": display, "seat 0": seat0, "seat 1": seat1} {
		for _, m := range c.all() {
			if strings.Contains(string(m.payload), "forged") || strings.Contains(string(m.payload), "FORGED") {
				t.Errorf("%s received a forgery on %s: %.200s", name, m.topic, m.payload)
			}
			if name == "display" && m.topic == topics.Status() && string(m.payload) == "offline" {
				offline++
			}
		}
	}
	if offline != 1 { // the daemon's own, at the end
		t.Errorf("the display saw the table offline %d times, want once (at the end)", offline)
	}
	var health struct {
		MQTT mqtt.PublisherStats `json:"mqtt"`
	}
	for _, m := range display.all() {
		if m.topic == topics.Health() {
			json.Unmarshal(m.payload, &health)
		}
	}
	if health.MQTT.Reconnects != 0 {
		t.Errorf("the daemon reconnected %d times: it was knocked off", health.MQTT.Reconnects)
	}
	for _, w := range warnings.all() {
		if strings.Contains(w, "tracked otherwise than played") || strings.Contains(w, "mqtt: connection to the broker lost") {
			t.Errorf("the daemon warned: %s", w)
		}
	}
	up := faceUpByAct(t, dir) // replays every journal
	if len(up) != 1 {
		t.Errorf("%d games journaled, want 1", len(up))
	}
	t.Logf("%d rounds of 10 forgeries", rounds)
	if rounds < 3 {
		t.Errorf("the game ended after %d rounds of forgeries: too soon to tell", rounds)
	}
}

// warnLog keeps the warnings and errors logged, as text.
type warnLog struct {
	mu    sync.Mutex
	lines []string
}

func (h *warnLog) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelWarn }
func (h *warnLog) Handle(_ context.Context, r slog.Record) error {
	var b strings.Builder
	b.WriteString(r.Message)
	r.Attrs(func(a slog.Attr) bool { fmt.Fprintf(&b, " %s=%v", a.Key, a.Value); return true })
	h.mu.Lock()
	h.lines = append(h.lines, b.String())
	h.mu.Unlock()
	return nil
}
func (h *warnLog) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *warnLog) WithGroup(string) slog.Handler      { return h }

func (h *warnLog) all() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.lines...)
}
