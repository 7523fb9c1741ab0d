// Package natstest runs a NATS cluster inside a test: three nats-server nodes on loopback with
// routes between them, JetStream and the MQTT gateway on each, a node killed and started again
// on the same ports and store. Only tests import it.
package natstest

import (
	"context"
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Cluster is a running cluster.
type Cluster struct {
	t     testing.TB
	Nodes []*server.Server
	opts  []*server.Options
}

// Start runs a cluster of n nodes (n 1: a single server) and waits until JetStream takes a replicated stream.
func Start(t testing.TB, n int) *Cluster {
	t.Helper()
	c := &Cluster{t: t}
	ports := freePorts(t, 3*n)
	var routes []string
	for i := range n {
		routes = append(routes, fmt.Sprintf("nats://127.0.0.1:%d", ports[3*i+1]))
	}
	dir := t.TempDir()
	for i := range n {
		o := &server.Options{
			ServerName: fmt.Sprintf("n%d", i+1), Host: "127.0.0.1", Port: ports[3*i],
			JetStream: true, StoreDir: filepath.Join(dir, fmt.Sprintf("n%d", i+1)),
			Cluster: server.ClusterOpts{Name: "siamese", Host: "127.0.0.1", Port: ports[3*i+1]},
			Routes:  server.RoutesFromStr(strings.Join(routes, ",")),
			MQTT:    server.MQTTOpts{Host: "127.0.0.1", Port: ports[3*i+2]},
			NoLog:   true, NoSigs: true,
		}
		if n == 1 { // a single server: JetStream without a cluster
			o.Cluster, o.Routes = server.ClusterOpts{}, nil
		}
		c.opts = append(c.opts, o)
		c.Nodes = append(c.Nodes, nil)
	}
	for i := range n {
		c.Restart(i)
	}
	t.Cleanup(c.Shutdown)
	c.WaitReady()
	return c
}

func freePorts(t testing.TB, n int) []int {
	var lns []net.Listener
	var out []int
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		lns = append(lns, ln)
		out = append(out, ln.Addr().(*net.TCPAddr).Port)
	}
	for _, ln := range lns {
		ln.Close()
	}
	return out
}

// URLs are the nodes' client URLs, for a client to try in turn.
func (c *Cluster) URLs() []string {
	var out []string
	for _, o := range c.opts {
		out = append(out, fmt.Sprintf("nats://127.0.0.1:%d", o.Port))
	}
	return out
}

// MQTTAddr is node i's MQTT gateway.
func (c *Cluster) MQTTAddr(i int) string { return fmt.Sprintf("127.0.0.1:%d", c.opts[i].MQTT.Port) }

// Kill stops node i at once.
func (c *Cluster) Kill(i int) {
	if s := c.Nodes[i]; s != nil {
		s.Shutdown()
		s.WaitForShutdown()
		c.Nodes[i] = nil
	}
}

// Restart starts node i again on its ports and store.
func (c *Cluster) Restart(i int) {
	c.t.Helper()
	o := *c.opts[i]
	s, err := server.NewServer(&o)
	if err != nil {
		c.t.Fatal(err)
	}
	go s.Start()
	if !s.ReadyForConnections(20 * time.Second) {
		c.t.Fatalf("natstest: node %d did not start", i+1)
	}
	c.Nodes[i] = s
}

// WaitReady waits until a replicated stream can be made (the JetStream meta leader is elected
// and every node is current).
func (c *Cluster) WaitReady() {
	c.t.Helper()
	nc, err := nats.Connect(strings.Join(c.URLs(), ","))
	if err != nil {
		c.t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	deadline := time.Now().Add(60 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{Name: "NATSTEST_READY", Subjects: []string{"natstest.ready"}, Replicas: len(c.opts), Storage: jetstream.MemoryStorage})
		if err == nil {
			err = js.DeleteStream(ctx, "NATSTEST_READY")
		}
		cancel()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("natstest: the cluster's JetStream is not ready: %v", err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// Shutdown stops every node.
func (c *Cluster) Shutdown() {
	for i := range c.Nodes {
		c.Kill(i)
	}
}
