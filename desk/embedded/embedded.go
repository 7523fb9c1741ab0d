// Package embedded runs a single NATS server with JetStream inside the desk, for an event on
// one machine (`siamesed desk --nats embedded`): no cluster, streams of one replica. It admits
// the event's users only, with the permissions and limits of deploy/nats/single.conf. A real
// event runs the three-node cluster of deploy/nats/.
package embedded

import (
	"fmt"
	"net"
	"path/filepath"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/siamesetable/siamesed/tournament/natsauth"
)

// Server is a running embedded server.
type Server struct {
	s *server.Server
}

// Start serves NATS on addr (host:port; port 0 picks one) and MQTT on mqttAddr (empty: none),
// with JetStream stored in dataDir/nats, to the users creds makes.
func Start(addr, mqttAddr, dataDir string, creds *natsauth.Credentials) (*Server, error) {
	host, port, err := hostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("embedded nats: %w", err)
	}
	o, err := Options(creds)
	if err != nil {
		return nil, err
	}
	o.ServerName, o.Host, o.Port = "desk", host, port
	o.JetStream, o.StoreDir = true, filepath.Join(dataDir, "nats")
	o.NoSigs, o.NoLog = true, true
	if mqttAddr != "" {
		mh, mp, err := hostPort(mqttAddr)
		if err != nil {
			return nil, fmt.Errorf("embedded nats: mqtt: %w", err)
		}
		o.MQTT.Host, o.MQTT.Port = mh, mp
	}
	s, err := server.NewServer(o)
	if err != nil {
		return nil, fmt.Errorf("embedded nats: %w", err)
	}
	go s.Start()
	if !s.ReadyForConnections(20 * time.Second) {
		s.Shutdown()
		return nil, fmt.Errorf("embedded nats: not ready on %s", addr)
	}
	return &Server{s: s}, nil
}

// Options are a server's users, permissions and limits as deploy/nats/single.conf sets them
// (TestEmbeddedAsShipped holds the two equal), without its addresses.
func Options(creds *natsauth.Credentials) (*server.Options, error) {
	users, err := creds.UsersConf()
	if err != nil {
		return nil, err
	}
	o := &server.Options{}
	if err := o.ProcessConfigString(fmt.Sprintf("authorization {\n  timeout: %g\n%s}\n", natsauth.Limits.AuthTimeout.Seconds(), users)); err != nil {
		return nil, fmt.Errorf("embedded nats: the users: %w", err)
	}
	l := natsauth.Limits
	o.MaxPayload, o.MaxConn, o.MaxPending, o.MaxSubs, o.MaxControlLine = l.MaxPayload, l.MaxConnections, l.MaxPending, l.MaxSubscriptions, l.MaxControlLine
	o.PingInterval, o.MaxPingsOut, o.WriteDeadline = l.PingInterval, l.MaxPingsOut, l.WriteDeadline
	o.MQTT.AuthTimeout = l.MQTTAuthTimeout.Seconds()
	o.JetStreamMaxMemory, o.JetStreamMaxStore = l.JetStreamMemory, l.JetStreamFile
	return o, nil
}

func hostPort(addr string) (string, int, error) {
	h, p, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, err
	}
	n, err := strconv.Atoi(p)
	if n == 0 {
		n = server.RANDOM_PORT // nats-server reads 0 as its default port
	}
	return h, n, err
}

// URL is the server's client URL.
func (s *Server) URL() string { return s.s.ClientURL() }

// Close stops the server.
func (s *Server) Close() {
	s.s.Shutdown()
	s.s.WaitForShutdown()
}
