package mqtt

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/mochi-mqtt/server/v2/packets"
	"github.com/siamesetable/siamesed/engine/track"
)

// oversizedConnect is the start of a CONNECT that says it is 256 MiB long (the most MQTT's
// length can say), followed by as much of it as the broker will take.
func sendOversizedConnect(c net.Conn) {
	c.Write([]byte{0x10, 0xff, 0xff, 0xff, 0x7f})
	junk := make([]byte, 64<<10)
	for range 1024 { // up to 64 MiB a connection, if the broker keeps reading
		c.SetWriteDeadline(time.Now().Add(2 * time.Second))
		if _, err := c.Write(junk); err != nil {
			return
		}
	}
}

// heapWatch samples the heap in use until stopped, keeping the most seen.
type heapWatch struct {
	peak atomic.Uint64
	stop chan struct{}
	done chan struct{}
}

func watchHeap() *heapWatch {
	w := &heapWatch{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > w.peak.Load() {
				w.peak.Store(ms.HeapInuse)
			}
			select {
			case <-w.stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	return w
}

func (w *heapWatch) end() uint64 { close(w.stop); <-w.done; return w.peak.Load() }

// TestOversizedConnectsKeepMemoryBounded: 100 connections, half over TCP and half over
// WebSocket, each send a CONNECT that says it is 256 MiB long and keep sending; the broker
// refuses each at its header, and the heap stays under 64 MB (before the limit, four such
// connections took a daemon to 2 GB).
func TestOversizedConnectsKeepMemoryBounded(t *testing.T) {
	b, _, _ := startBroker(t)
	web := httptest.NewServer(b.WebSocket())
	defer web.Close()
	runtime.GC()
	w := watchHeap()
	var wg sync.WaitGroup
	var refused atomic.Int64
	for i := range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			url := b.URL()
			if i%2 == 1 {
				url = wsURL(web.Listener.Addr().String())
			}
			rc := dialRaw(t, url)
			go sendOversizedConnect(rc.conn)
			if rc.closedWithin(waitFor) {
				refused.Add(1)
			}
		}()
	}
	wg.Wait()
	peak := w.end()
	t.Logf("heap in use at most %.1f MB; %d of 100 connections refused", float64(peak)/(1<<20), refused.Load())
	if refused.Load() != 100 {
		t.Errorf("%d of 100 oversized CONNECTs refused", refused.Load())
	}
	if peak > 64<<20 {
		t.Errorf("heap in use reached %.1f MB, want under 64 MB", float64(peak)/(1<<20))
	}
}

// TestSilentConnectionsAreClosed: a TCP connection and a WebSocket that never send their
// CONNECT are closed within ConnectWithin (with room for a busy machine).
func TestSilentConnectionsAreClosed(t *testing.T) {
	b, _, _ := startBroker(t)
	web := httptest.NewServer(b.WebSocket())
	defer web.Close()
	for _, url := range []string{b.URL(), wsURL(web.Listener.Addr().String())} {
		rc := dialRaw(t, url)
		start := time.Now()
		if !rc.closedWithin(3 * ConnectWithin) {
			t.Errorf("%s: a connection that sent nothing is still open after %v", url, 3*ConnectWithin)
		} else if d := time.Since(start); d < ConnectWithin/2 {
			t.Errorf("%s: closed after %v, before it had ConnectWithin (%v) to log in", url, d, ConnectWithin)
		}
	}
}

// TestKeepaliveIsBounded: a client that asks for no keepalive (or a longer one) is held to
// MaxKeepalive, so a silent client is dropped in the end; an MQTT 5 client is told.
func TestKeepaliveIsBounded(t *testing.T) {
	b, creds, _ := startBroker(t)
	for _, asked := range []uint16{0, 600} {
		rc := dialRaw(t, b.URL())
		got := connectV5(t, rc, DisplayUser, creds.Display, asked)
		if got != MaxKeepalive {
			t.Errorf("keepalive %d asked: the broker says %d, want %d", asked, got, MaxKeepalive)
		}
		rc.disconnect()
	}
	rc := dialRaw(t, b.URL())
	if got := connectV5(t, rc, DisplayUser, creds.Display, 30); got != 0 {
		t.Errorf("keepalive 30 asked: the broker overrides it with %d", got)
	}
}

// TestConnectionLimit: with MaxConnections open, one more is closed at once; once one
// closes, a new one is served.
func TestConnectionLimit(t *testing.T) {
	b, creds, _ := startBroker(t)
	var held []*rawClient
	for range MaxConnections {
		held = append(held, dialRaw(t, b.URL()))
	}
	// The gate counts a connection when mochi hands it over: wait for all of them.
	deadline := time.Now().Add(waitFor)
	for b.gate.open() < MaxConnections && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond) // polling the gate's count, not guessing a delay
	}
	extra := dialRaw(t, b.URL())
	if !extra.closedWithin(ConnectWithin / 2) {
		t.Fatalf("connection %d was not refused at once", MaxConnections+1)
	}
	held[0].drop()
	for b.gate.open() >= MaxConnections && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	again := dialRaw(t, b.URL())
	if code, err := again.connect(DisplayUser, creds.Display, "again", 30, nil); err != nil || code != 0 {
		t.Fatalf("after one left, a new connection was refused: %d %v", code, err)
	}
}

// TestWebSocketOrigin: a page of another host cannot open the broker in a player's browser;
// the table's own page and clients that are not browsers can.
func TestWebSocketOrigin(t *testing.T) {
	b, _, _ := startBroker(t)
	web := httptest.NewServer(b.WebSocket())
	defer web.Close()
	host := web.Listener.Addr().String()
	for origin, want := range map[string]int{"": http.StatusSwitchingProtocols, "http://" + host: http.StatusSwitchingProtocols,
		"http://evil.example": http.StatusForbidden, "http://" + host + ".evil.example": http.StatusForbidden} {
		req, _ := http.NewRequest("GET", web.URL, nil)
		req.Header.Set("Connection", "Upgrade")
		req.Header.Set("Upgrade", "websocket")
		req.Header.Set("Sec-WebSocket-Version", "13")
		req.Header.Set("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
		req.Header.Set("Sec-WebSocket-Protocol", "mqtt")
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Origin %q: HTTP %d, want %d", origin, resp.StatusCode, want)
		}
	}
}

// TestRefusedLoginIsLoggedWithItsAddress: a failed login is one line naming the user and
// the address it came from, not mochi's empty warning.
func TestRefusedLoginIsLoggedWithItsAddress(t *testing.T) {
	creds, err := NewCredentials()
	if err != nil {
		t.Fatal(err)
	}
	h := &recordHandler{}
	b, err := StartBroker("127.0.0.1:0", Policy{Topics: TopicsFor("t1")}, creds, slogFor(h))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	rc := dialRaw(t, b.URL())
	if code, err := rc.connect(DisplayUser, "wrong", "x", 30, nil); err != nil || code == 0 {
		t.Fatalf("a wrong password: %d %v", code, err)
	}
	rc.closedWithin(waitFor)
	b.Close()
	lines := h.all()
	found := false
	for _, l := range lines {
		if l.msg == "" {
			t.Errorf("a log line with no message: %v", l.attrs)
		}
		if l.msg == "mqtt: login refused" && l.attrs["user"] == DisplayUser && strings.HasPrefix(l.attrs["remote"], "127.0.0.1:") {
			found = true
		}
	}
	if !found {
		t.Errorf("no line says the login was refused, with user and address: %v", lines)
	}
}

// TestMosquittoRetainedCommandIsNotPlayedAgain: Mosquitto keeps a command a seat publishes
// retained; a daemon that connects later refuses it and clears it, so it is never played at a
// reconnect or restart.
func TestMosquittoRetainedCommandIsNotPlayedAgain(t *testing.T) {
	creds, err := NewCredentials()
	if err != nil {
		t.Fatal(err)
	}
	m := startMosquitto(t, creds)
	topics := TopicsFor("table1")
	rc := dialRaw(t, m.url())
	if code, err := rc.connect("0", creds.Seats[0], "seat0", 30, nil); err != nil || code != 0 {
		t.Fatal(code, err)
	}
	if err := rc.publish(topics.Cmd(0), []byte(`{"kind":"wall_game","id":"kept"}`), true); err != nil {
		t.Fatal(err)
	}
	rc.disconnect()
	var played atomic.Int64
	ctx, cancel := context.WithCancel(context.Background())
	var in *Intake
	p := NewPublisher(topics, ClientConfig{Broker: m.url(), Username: DaemonUser, Password: creds.Daemon, ClientID: DaemonClientID("table1", creds.Daemon)},
		testLog(), func(topic string, payload []byte) { in.Offer(topic, payload) })
	in = NewIntake(topics, func(context.Context, track.Command) error { played.Add(1); return nil }, p, time.Now, testLog())
	go p.Run(ctx)
	go in.Run(ctx)
	defer cancel()
	p.State([]byte(`{"seq":1}`))
	display, _ := subscribe(t, m.url(), DisplayUser, creds.Display, topics.State())
	display.until(t, "the state", func(m Message) bool { return m.Topic == topics.State() })
	// A new subscriber to the command topics finds none kept.
	seat1, err := connect(t, clientOpts(m.url(), "1", creds.Seats[1]))
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(waitFor)
	markers := int64(0)
	for {
		late, _ := subscribe(t, m.url(), DaemonUser, creds.Daemon, topics.CmdFilter())
		publish(t, seat1, topics.Cmd(1), `{"kind":"wall_game","id":"marker"}`)
		late.until(t, "the marker", func(m Message) bool { return strings.Contains(string(m.Payload), "marker") })
		markers++
		kept := false
		for _, msg := range late.all() {
			kept = kept || strings.Contains(string(msg.Payload), "kept")
		}
		if !kept {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the retained command is still kept by the broker")
		}
	}
	if n := played.Load(); n < 1 {
		t.Fatal("no marker played")
	}
	if n := played.Load(); n != markers {
		t.Errorf("%d commands played, want %d (the markers): the retained one was played", n, markers)
	}
}

// connectV5 logs in with MQTT 5 asking for keepalive and returns the server keepalive the
// CONNACK gives (0: none).
func connectV5(t *testing.T, rc *rawClient, user, pass string, keepalive uint16) uint16 {
	t.Helper()
	pk := packets.Packet{FixedHeader: packets.FixedHeader{Type: packets.Connect}, ProtocolVersion: 5,
		Connect: packets.ConnectParams{ProtocolName: []byte("MQTT"), ClientIdentifier: "v5", Clean: true, Keepalive: keepalive,
			Username: []byte(user), UsernameFlag: true, Password: []byte(pass), PasswordFlag: true}}
	var buf bytes.Buffer
	if err := pk.ConnectEncode(&buf); err != nil {
		t.Fatal(err)
	}
	if _, err := rc.conn.Write(buf.Bytes()); err != nil {
		t.Fatal(err)
	}
	head, body, err := rc.read()
	if err != nil || head>>4 != packets.Connack {
		t.Fatalf("no CONNACK: %d %v", head, err)
	}
	ack := packets.Packet{FixedHeader: packets.FixedHeader{Type: packets.Connack, Remaining: len(body)}, ProtocolVersion: 5}
	if err := ack.ConnackDecode(body); err != nil {
		t.Fatal(err)
	}
	if ack.ReasonCode != 0 {
		t.Fatalf("refused: %d", ack.ReasonCode)
	}
	if !ack.Properties.ServerKeepAliveFlag {
		return 0
	}
	return ack.Properties.ServerKeepAlive
}

// recordHandler is a slog handler that keeps every record's message and attributes.
type recordHandler struct {
	mu    sync.Mutex
	lines []logLine
}

type logLine struct {
	msg   string
	attrs map[string]string
}

func slogFor(h *recordHandler) *slog.Logger { return slog.New(h) }

func (h *recordHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h *recordHandler) Handle(_ context.Context, r slog.Record) error {
	l := logLine{msg: r.Message, attrs: map[string]string{}}
	r.Attrs(func(a slog.Attr) bool { l.attrs[a.Key] = a.Value.String(); return true })
	h.mu.Lock()
	h.lines = append(h.lines, l)
	h.mu.Unlock()
	return nil
}
func (h *recordHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *recordHandler) WithGroup(string) slog.Handler      { return h }

func (h *recordHandler) all() []logLine {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]logLine(nil), h.lines...)
}

// TestMosquittoOversizedConnects: deploy/'s configuration caps packets before login too: 100
// connections sending 256 MiB CONNECTs leave Mosquitto under 64 MB (without the cap, one such
// connection took it to 208 MB).
func TestMosquittoOversizedConnects(t *testing.T) {
	creds, err := NewCredentials()
	if err != nil {
		t.Fatal(err)
	}
	m := startMosquitto(t, creds)
	var wg sync.WaitGroup
	var refused atomic.Int64
	for range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rc := dialRaw(t, m.url())
			go sendOversizedConnect(rc.conn)
			if rc.closedWithin(waitFor) {
				refused.Add(1)
			}
		}()
	}
	wg.Wait()
	peak := m.peakRSS()
	t.Logf("Mosquitto held at most %.1f MB; %d of 100 connections refused", float64(peak)/(1<<20), refused.Load())
	if refused.Load() != 100 {
		t.Errorf("%d of 100 oversized CONNECTs refused", refused.Load())
	}
	if peak > 64<<20 {
		t.Errorf("Mosquitto reached %.1f MB, want under 64 MB", float64(peak)/(1<<20))
	}
}

// TestWebSocketProxyToMosquitto: the display port's way to Mosquitto (WebSocketProxy) holds
// each connection to the embedded broker's limits and passes MQTT through whole: every
// forgery is refused through it as directly, a silent connection and an oversized CONNECT are
// closed, a page of another host is refused.
func TestWebSocketProxyToMosquitto(t *testing.T) {
	creds, err := NewCredentials()
	if err != nil {
		t.Fatal(err)
	}
	m := startMosquitto(t, creds)
	proxy, err := NewWebSocketProxy(m.wsURL(), testLog())
	if err != nil {
		t.Fatal(err)
	}
	web := httptest.NewServer(proxy)
	defer web.Close()
	url := wsURL(web.Listener.Addr().String())
	// Mosquitto's WebSocket listener answers in about 100 ms, so through it a part of the
	// forgeries: every user and way, to the public state and to a seat's commands.
	topics := TopicsFor("table1")
	some := func(f forgery) bool { return f.topic == topics.State() || f.topic == topics.Cmd(1) }
	t.Run("forgeries", func(t *testing.T) { checkForgeries(t, url, creds, topics, true, some) })
	t.Run("silent", func(t *testing.T) {
		if !dialRaw(t, url).closedWithin(3 * ConnectWithin) {
			t.Error("a connection that sent nothing is still open")
		}
	})
	t.Run("oversized", func(t *testing.T) {
		rc := dialRaw(t, url)
		go sendOversizedConnect(rc.conn)
		if !rc.closedWithin(waitFor) {
			t.Error("an oversized CONNECT was not refused")
		}
	})
	t.Run("origin", func(t *testing.T) {
		h := http.Header{"Origin": {"http://evil.example"}}
		_, resp, err := (&websocket.Dialer{Subprotocols: []string{"mqtt"}}).Dial(url, h)
		if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
			t.Errorf("a page of another host: %v, want HTTP 403", err)
		}
	})
}

func TestWebSocketProxyRefusesABadBackend(t *testing.T) {
	for _, b := range []string{"", "tcp://127.0.0.1:1883", "ws://", "http://x:1"} {
		if _, err := NewWebSocketProxy(b, nil); err == nil {
			t.Errorf("%q taken as a broker's websocket", b)
		}
	}
}

// TestMosquittoConnectionLimit: deploy/'s configuration bounds the connections on a listener.
// Mosquitto 2.0.11 gives a place back twice for a connection that closes before its CONNECT
// (docs/mqtt.md#limits): the one the test made to see the broker listen adds one place.
func TestMosquittoConnectionLimit(t *testing.T) {
	creds, err := NewCredentials()
	if err != nil {
		t.Fatal(err)
	}
	m := startMosquitto(t, creds)
	served := 0
	for ; served <= MaxConnections+2; served++ {
		rc := dialRaw(t, m.url())
		if code, err := rc.connect(DisplayUser, creds.Display, fmt.Sprintf("held-%d", served), 60, nil); err != nil || code != 0 {
			break
		}
	}
	if served < MaxConnections || served > MaxConnections+1 {
		t.Fatalf("%d connections served at once, want %d (+1 for the start's probe)", served, MaxConnections)
	}
}
