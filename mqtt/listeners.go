package mqtt

import (
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"sync"

	"github.com/gorilla/websocket"
	"github.com/mochi-mqtt/server/v2/listeners"
)

// newNetListener serves MQTT on a listener the caller opened (so port 0 works).
func newNetListener(id string, ln net.Listener) listeners.Listener { return listeners.NewNet(id, ln) }

// wsListener is a mochi listener that is an http.Handler: MQTT over WebSocket on the daemon's
// own HTTP port, so a browser reaches the broker wherever it reached the page.
type wsListener struct {
	id       string
	upgrader websocket.Upgrader
	mu       sync.Mutex
	serve    listeners.EstablishFn
	log      *slog.Logger
	closed   bool
}

func newWSListener(id string) *wsListener { return &wsListener{id: id, upgrader: wsUpgrader()} }

// wsUpgrader upgrades a request for MQTT over WebSocket. A browser's request must come from a
// page of the same host (gorilla's default origin check): a page elsewhere on the club's
// network cannot open the table's broker in a player's browser. Clients that are not browsers
// send no Origin and pass.
func wsUpgrader() websocket.Upgrader {
	return websocket.Upgrader{Subprotocols: []string{"mqtt"}, HandshakeTimeout: ConnectWithin}
}

// upgradeMQTT upgrades the request and bounds what one WebSocket message may carry.
func upgradeMQTT(u *websocket.Upgrader, w http.ResponseWriter, r *http.Request) (*websocket.Conn, error) {
	c, err := u.Upgrade(w, r, nil)
	if err != nil {
		return nil, err // the upgrader has answered
	}
	c.SetReadLimit(MaxPacketBytes + 16)
	return c, nil
}

func (l *wsListener) ID() string       { return l.id }
func (l *wsListener) Address() string  { return "/mqtt" }
func (l *wsListener) Protocol() string { return "ws" }
func (l *wsListener) Init(log *slog.Logger) error {
	l.log = log
	return nil
}

func (l *wsListener) Serve(establish listeners.EstablishFn) {
	l.mu.Lock()
	l.serve = establish
	l.mu.Unlock()
}

func (l *wsListener) Close(closeClients listeners.CloseFn) {
	l.mu.Lock()
	l.closed = true
	l.mu.Unlock()
	closeClients(l.id)
}

func (l *wsListener) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	l.mu.Lock()
	establish, closed := l.serve, l.closed
	l.mu.Unlock()
	if establish == nil || closed {
		http.Error(w, "the broker is not serving", http.StatusServiceUnavailable)
		return
	}
	c, err := upgradeMQTT(&l.upgrader, w, r)
	if err != nil {
		return
	}
	defer c.Close()
	if err := establish(l.id, &wsConn{Conn: c.UnderlyingConn(), c: c}); err != nil && l.log != nil {
		l.log.Debug("mqtt: websocket client ended", "err", err)
	}
}

// wsConn is a WebSocket carrying MQTT in binary messages, as a net.Conn.
type wsConn struct {
	net.Conn
	c *websocket.Conn
	r io.Reader
}

func (ws *wsConn) Read(p []byte) (int, error) {
	for {
		if ws.r == nil {
			op, r, err := ws.c.NextReader()
			if err != nil {
				return 0, err
			}
			if op != websocket.BinaryMessage {
				return 0, errors.New("mqtt: websocket: a text message where MQTT is binary")
			}
			ws.r = r
		}
		n, err := ws.r.Read(p)
		if errors.Is(err, io.EOF) {
			ws.r = nil
			if n == 0 {
				continue
			}
			return n, nil
		}
		return n, err
	}
}

func (ws *wsConn) Write(p []byte) (int, error) {
	if err := ws.c.WriteMessage(websocket.BinaryMessage, p); err != nil {
		return 0, err
	}
	return len(p), nil
}
