package mqtt

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// WebSocketProxy passes MQTT over WebSocket from the display port through to an external
// broker's WebSocket listener (Mosquitto's, on loopback), so browsers need only the display
// port. It holds each connection to what the embedded broker's gate does: a page of the same
// host, a CONNECT within ConnectWithin of at most MaxConnectBytes, messages of at most
// MaxPacketBytes, at most MaxConnections at once. Logins, the ACL and client ids are the
// broker's to check.
type WebSocketProxy struct {
	backend  string
	upgrader websocket.Upgrader
	dialer   websocket.Dialer
	log      *slog.Logger

	mu   sync.Mutex
	open int
}

// NewWebSocketProxy proxies to backend (ws://127.0.0.1:9001 or wss://...).
func NewWebSocketProxy(backend string, log *slog.Logger) (*WebSocketProxy, error) {
	u, err := url.Parse(backend)
	if err != nil || (u.Scheme != "ws" && u.Scheme != "wss") || u.Host == "" {
		return nil, fmt.Errorf("mqtt: websocket %q: want ws://HOST:PORT or wss://HOST:PORT", backend)
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &WebSocketProxy{backend: backend, upgrader: wsUpgrader(), log: log,
		dialer: websocket.Dialer{Subprotocols: []string{"mqtt"}, HandshakeTimeout: ConnectWithin}}, nil
}

func (p *WebSocketProxy) enter() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.open >= MaxConnections {
		return false
	}
	p.open++
	return true
}

func (p *WebSocketProxy) leave() {
	p.mu.Lock()
	p.open--
	p.mu.Unlock()
}

func (p *WebSocketProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !p.enter() {
		p.log.Warn("mqtt: websocket refused: too many connections", "remote", r.RemoteAddr, "open", MaxConnections)
		http.Error(w, "too many connections", http.StatusServiceUnavailable)
		return
	}
	defer p.leave()
	client, err := upgradeMQTT(&p.upgrader, w, r)
	if err != nil {
		return
	}
	defer client.Close()
	if err := p.relay(client, r.RemoteAddr); err != nil {
		p.log.Info("mqtt: websocket connection ended", "remote", r.RemoteAddr, "err", err)
	}
}

// relay reads the client's CONNECT, opens the broker's side and passes every message across,
// message for message, until either side ends.
func (p *WebSocketProxy) relay(client *websocket.Conn, remote string) error {
	in := &wsConn{Conn: client.UnderlyingConn(), c: client}
	connect, err := readConnect(in, time.Now())
	if err != nil {
		return err
	}
	if in.r != nil { // the rest of the CONNECT's message: a client may send more in it
		rest, err := io.ReadAll(in.r)
		if err != nil {
			return err
		}
		connect = append(connect, rest...)
	}
	broker, _, err := p.dialer.Dial(p.backend, nil)
	if err != nil {
		return fmt.Errorf("mqtt: the broker's websocket %s: %w", p.backend, err)
	}
	defer broker.Close()
	broker.SetReadLimit(MaxPacketBytes + 16)
	if err := broker.WriteMessage(websocket.BinaryMessage, connect); err != nil {
		return err
	}
	done := make(chan error, 2)
	go func() { done <- pass(broker, client) }()
	go func() { done <- pass(client, broker) }()
	err = <-done
	client.Close() // ends the other direction
	broker.Close()
	<-done
	if closedNormally(err) {
		return nil
	}
	return err
}

// pass copies every binary message from src to dst.
func pass(dst, src *websocket.Conn) error {
	for {
		op, r, err := src.NextReader()
		if err != nil {
			return err
		}
		if op != websocket.BinaryMessage {
			return errors.New("mqtt: websocket: a text message where MQTT is binary")
		}
		w, err := dst.NextWriter(websocket.BinaryMessage)
		if err != nil {
			return err
		}
		if _, err := io.Copy(w, r); err != nil {
			return err
		}
		if err := w.Close(); err != nil {
			return err
		}
	}
}

func closedNormally(err error) bool {
	return err == nil || errors.Is(err, io.EOF) || websocket.IsCloseError(err, websocket.CloseNormalClosure, websocket.CloseGoingAway) ||
		strings.Contains(err.Error(), "use of closed network connection")
}
