package mqtt

import (
	"bytes"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"

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
	acl  *aclHook

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
	acl := &aclHook{policy: p, srv: srv, log: log}
	acl.creds.Store(&c)
	if err := srv.AddHook(acl, nil); err != nil {
		return nil, fmt.Errorf("mqtt: broker: %w", err)
	}
	ln, err := net.Listen("tcp", tcpAddr)
	if err != nil {
		return nil, fmt.Errorf("mqtt: broker: %w", err)
	}
	b := &Broker{srv: srv, tcp: ln, ws: newWSListener("ws"), gate: &gate{max: MaxConnections, log: log}, acl: acl}
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

// SetCredentials makes the broker check logins against c from now on. A client already
// connected stays (see Drop); one that logged in with a password c no longer holds is dropped
// when its session is established (OnSessionEstablished), so no login that raced the change
// outlives it.
func (b *Broker) SetCredentials(c Credentials) { b.acl.creds.Store(&c) }

// Drop disconnects every client logged in as user (a seat taken back from its phone, after
// SetCredentials gave the seat a new password), and says how many there were.
func (b *Broker) Drop(user string) int {
	n := 0
	for _, cl := range b.srv.Clients.GetAll() {
		if string(cl.Properties.Username) == user && !cl.Closed() {
			b.acl.log.Info("mqtt: client dropped: its password changed", "user", user, "remote", cl.Net.Remote)
			b.acl.drop(cl)
			n++
		}
	}
	return n
}

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
	creds  atomic.Pointer[Credentials] // swapped whole when a seat's password changes
	srv    *mochi.Server
	log    *slog.Logger
}

func (h *aclHook) ID() string { return "siamese-acl" }

func (h *aclHook) Provides(b byte) bool {
	return bytes.Contains([]byte{mochi.OnConnect, mochi.OnConnectAuthenticate, mochi.OnSessionEstablished, mochi.OnACLCheck, mochi.OnPublish}, []byte{b})
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
	if !h.creds.Load().Check(user, string(pk.Connect.Password)) {
		h.log.Warn("mqtt: login refused", "user", user, "remote", cl.Net.Remote)
		return false
	}
	cl.ID = OwnClientID(user, cl.ID)
	return true
}

// OnSessionEstablished checks the password once more, now that the client is among the
// broker's clients: a login checked just before Broker.SetCredentials, and added just after
// Broker.Drop looked, would otherwise keep a password the seat no longer has.
func (h *aclHook) OnSessionEstablished(cl *mochi.Client, pk packets.Packet) {
	user := string(pk.Connect.Username)
	if !h.creds.Load().Check(user, string(pk.Connect.Password)) {
		h.log.Info("mqtt: client dropped: its password changed as it logged in", "user", user, "remote", cl.Net.Remote)
		h.drop(cl)
	}
}

// drop ends a client's connection: an MQTT 5 client is told why (DISCONNECT "not
// authorised"); MQTT 3.1.1 has no DISCONNECT from a server, so its connection is closed.
func (h *aclHook) drop(cl *mochi.Client) {
	if cl.Properties.ProtocolVersion >= 5 {
		_ = h.srv.DisconnectClient(cl, packets.ErrNotAuthorized)
		return
	}
	cl.Stop(packets.ErrNotAuthorized)
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
