// Package embedded runs a single NATS server with JetStream inside the desk, for an event on
// one machine (`siamesed desk --nats embedded`): no cluster, streams of one replica. A real
// event runs the three-node cluster of deploy/nats/.
package embedded

import (
	"fmt"
	"net"
	"path/filepath"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Server is a running embedded server.
type Server struct {
	s *server.Server
}

// Start serves NATS on addr (host:port; port 0 picks one) and MQTT on mqttAddr (empty: none),
// with JetStream stored in dataDir/nats.
func Start(addr, mqttAddr, dataDir string) (*Server, error) {
	host, port, err := hostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("embedded nats: %w", err)
	}
	o := &server.Options{ServerName: "desk", Host: host, Port: port, JetStream: true,
		StoreDir: filepath.Join(dataDir, "nats"), NoSigs: true, NoLog: true}
	if mqttAddr != "" {
		mh, mp, err := hostPort(mqttAddr)
		if err != nil {
			return nil, fmt.Errorf("embedded nats: mqtt: %w", err)
		}
		o.MQTT = server.MQTTOpts{Host: mh, Port: mp}
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
