package mqtt

import (
	"bytes"
	"fmt"
	"log/slog"
	"net"
	"net/http"

	mochi "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"
)

// Broker is the embedded broker of the default set-up (mochi-mqtt): MQTT over TCP, and MQTT
// over WebSocket served by the daemon's HTTP port at /mqtt, with the table's users and ACL.
type Broker struct {
	srv  *mochi.Server
	tcp  net.Listener
	ws   *wsListener
	gate *gate
}

// StartBroker listens for MQTT on tcpAddr ("127.0.0.1:1883"; port 0 picks one) and serves.
func StartBroker(tcpAddr string, p Policy, c Credentials, log *slog.Logger) (*Broker, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	srv := mochi.New(&mochi.Options{InlineClient: false, Logger: log})
	if err := srv.AddHook(&aclHook{policy: p, creds: c}, nil); err != nil {
		return nil, fmt.Errorf("mqtt: broker: %w", err)
	}
	ln, err := net.Listen("tcp", tcpAddr)
	if err != nil {
		return nil, fmt.Errorf("mqtt: broker: %w", err)
	}
	b := &Broker{srv: srv, tcp: ln, ws: newWSListener("ws"), gate: &gate{}}
	if err := srv.AddListener(gatedListener{newNetListener("tcp", ln), b.gate}); err != nil {
		ln.Close()
		return nil, fmt.Errorf("mqtt: broker: %w", err)
	}
	if err := srv.AddListener(gatedListener{b.ws, b.gate}); err != nil {
		ln.Close()
		return nil, fmt.Errorf("mqtt: broker: %w", err)
	}
	if err := srv.Serve(); err != nil {
		ln.Close()
		return nil, fmt.Errorf("mqtt: broker: %w", err)
	}
	return b, nil
}

// Addr is where the broker listens for MQTT over TCP.
func (b *Broker) Addr() string { return b.tcp.Addr().String() }

// URL is the broker's address for a client.
func (b *Broker) URL() string { return "tcp://" + b.Addr() }

// WebSocket serves MQTT over WebSocket (mount it at /mqtt).
func (b *Broker) WebSocket() http.Handler { return b.ws }

// Close stops the broker and drops its clients. The gate ends every connection first and waits
// for mochi to let go of each, so that mochi's Close finds no client leaving (see gate).
func (b *Broker) Close() error {
	b.gate.shut()
	if err := b.srv.Close(); err != nil {
		return fmt.Errorf("mqtt: broker: %w", err)
	}
	return nil
}

// aclHook authenticates the table's users and applies the Policy to every subscription and
// every message delivered or published.
type aclHook struct {
	mochi.HookBase
	policy Policy
	creds  Credentials
}

func (h *aclHook) ID() string { return "siamese-acl" }

func (h *aclHook) Provides(b byte) bool {
	return bytes.Contains([]byte{mochi.OnConnectAuthenticate, mochi.OnACLCheck}, []byte{b})
}

func (h *aclHook) OnConnectAuthenticate(cl *mochi.Client, pk packets.Packet) bool {
	return h.creds.Check(string(pk.Connect.Username), string(pk.Connect.Password))
}

func (h *aclHook) OnACLCheck(cl *mochi.Client, topic string, write bool) bool {
	user := string(cl.Properties.Username)
	if write {
		return h.policy.CanWrite(user, topic)
	}
	return h.policy.CanSubscribe(user, topic) // a topic name: CanRead; a filter: see CanSubscribe
}
