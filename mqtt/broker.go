package mqtt

import (
	"bytes"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"

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

	closeOnce sync.Once
	closeErr  error
}

// StartBroker listens for MQTT on tcpAddr ("127.0.0.1:1883"; port 0 picks one) and serves.
// Every connection, over TCP or WebSocket, passes the gate (a CONNECT within ConnectWithin,
// of at most MaxConnectBytes, at most MaxConnections at once) and then the table's hook (the
// users, the ACL on every message, client ids kept apart per user).
func StartBroker(tcpAddr string, p Policy, c Credentials, log *slog.Logger) (*Broker, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	caps := mochi.NewDefaultServerCapabilities()
	caps.MaximumPacketSize = MaxPacketBytes
	caps.MaximumClients = MaxConnections
	srv := mochi.New(&mochi.Options{InlineClient: false, Logger: log, Capabilities: caps})
	if err := srv.AddHook(&aclHook{policy: p, creds: c, srv: srv, log: log}, nil); err != nil {
		return nil, fmt.Errorf("mqtt: broker: %w", err)
	}
	ln, err := net.Listen("tcp", tcpAddr)
	if err != nil {
		return nil, fmt.Errorf("mqtt: broker: %w", err)
	}
	b := &Broker{srv: srv, tcp: ln, ws: newWSListener("ws"), gate: &gate{max: MaxConnections, log: log}}
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
// Closing it again does nothing.
func (b *Broker) Close() error {
	b.closeOnce.Do(func() {
		b.gate.shut()
		if err := b.srv.Close(); err != nil {
			b.closeErr = fmt.Errorf("mqtt: broker: %w", err)
		}
	})
	return b.closeErr
}

// aclHook authenticates the table's users and applies the Policy to every subscription, every
// message delivered and every message that enters: a publish, a retained publish and a will.
type aclHook struct {
	mochi.HookBase
	policy Policy
	creds  Credentials
	srv    *mochi.Server
	log    *slog.Logger
}

func (h *aclHook) ID() string { return "siamese-acl" }

func (h *aclHook) Provides(b byte) bool {
	return bytes.Contains([]byte{mochi.OnConnect, mochi.OnConnectAuthenticate, mochi.OnACLCheck, mochi.OnPublish}, []byte{b})
}

// OnConnect holds every client to MaxKeepalive, so that a silent one is dropped, and refuses a
// will its user may not publish: mochi publishes a will without asking the ACL.
func (h *aclHook) OnConnect(cl *mochi.Client, pk packets.Packet) error {
	if cl.State.Keepalive == 0 || cl.State.Keepalive > MaxKeepalive {
		cl.State.Keepalive, cl.State.ServerKeepalive = MaxKeepalive, true // an MQTT 5 client is told
	}
	user := string(pk.Connect.Username)
	if pk.Connect.WillFlag && !h.policy.CanPublish(user, pk.Connect.WillTopic, pk.Connect.WillRetain) {
		h.log.Warn("mqtt: connection refused: a will its user may not publish", "user", user,
			"remote", cl.Net.Remote, "topic", pk.Connect.WillTopic, "retained", pk.Connect.WillRetain)
		h.srv.SendConnack(cl, packets.ErrNotAuthorized, false, nil)
		return packets.ErrNotAuthorized
	}
	return nil
}

// OnConnectAuthenticate checks the password, then puts the client's id in its user's own
// space: a client id belongs to its user, so no one can take over another user's session (the
// daemon's above all) by connecting with its id.
func (h *aclHook) OnConnectAuthenticate(cl *mochi.Client, pk packets.Packet) bool {
	user := string(pk.Connect.Username)
	if !h.creds.Check(user, string(pk.Connect.Password)) {
		h.log.Warn("mqtt: login refused", "user", user, "remote", cl.Net.Remote)
		return false
	}
	cl.ID = OwnClientID(user, cl.ID)
	return true
}

// OwnClientID is the id the embedded broker knows a client by: the id it asked for, in its
// user's own space.
func OwnClientID(user, id string) string { return user + ":" + id }

func (h *aclHook) OnACLCheck(cl *mochi.Client, topic string, write bool) bool {
	user := string(cl.Properties.Username)
	if write {
		return h.policy.CanPublish(user, topic, false)
	}
	return h.policy.CanSubscribe(user, topic) // a topic name: CanRead; a filter: see CanSubscribe
}

// OnPublish refuses a retained message its user may not leave (a retained command): the broker
// acknowledges it, keeps nothing and delivers nothing.
func (h *aclHook) OnPublish(cl *mochi.Client, pk packets.Packet) (packets.Packet, error) {
	user := string(cl.Properties.Username)
	if pk.FixedHeader.Retain && !h.policy.CanPublish(user, pk.TopicName, true) {
		h.log.Warn("mqtt: retained message refused", "user", user, "remote", cl.Net.Remote, "topic", pk.TopicName)
		return pk, packets.CodeSuccessIgnore
	}
	return pk, nil
}
