// Package natstest runs a tournament's NATS cluster inside a test: three nodes on loopback
// started from the very files deploy/nats/ ships (siamese-cluster.conf and nats-N.conf, or
// single.conf for one server), their hosts, ports and directories moved, with the users and
// routes the desk's credentials make (package natsauth): nobody logs in without an nkey or
// password, and each user may use its own subjects only. A node can be killed and started
// again on the same ports and store, in the test's process or as Debian's nats-server. Only
// tests import it.
package natstest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/siamesetable/siamesed/tournament/link"
	"github.com/siamesetable/siamesed/tournament/natsauth"
)

// Cluster is a running cluster.
type Cluster struct {
	t     testing.TB
	bin   string // a nats-server program each node runs as; empty: in the test's process
	nodes []*node
	// Creds are the event's credentials the servers admit (tables 1 to the number given).
	Creds *natsauth.Credentials
}

// node is one server: its files, and the server while it runs.
type node struct {
	conf string          // its configuration file
	opts *server.Options // as read from it
	srv  *server.Server  // in the test's process
	proc *exec.Cmd       // as a program
	done chan struct{}   // closed when the program has exited
	out  *output         // what the program said
}

// output is a program's output, written by exec's copier and read by the test.
type output struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (o *output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.b.Write(p)
}

// The server's logger (server.Logger), in the test's process: its warnings and errors.
func (o *output) Noticef(string, ...any) {}
func (o *output) Debugf(string, ...any)  {}
func (o *output) Tracef(string, ...any)  {}
func (o *output) Warnf(format string, v ...any) {
	fmt.Fprintf(o, "[WRN] "+format+"\n", v...)
}
func (o *output) Errorf(format string, v ...any) {
	fmt.Fprintf(o, "[ERR] "+format+"\n", v...)
}
func (o *output) Fatalf(format string, v ...any) {
	fmt.Fprintf(o, "[FTL] "+format+"\n", v...)
}

func (o *output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.b.String()
}

// Start runs a cluster of n nodes (3, or 1: a single server) in the test's process, admitting
// the desk and tables 1 to tables, and waits until JetStream has its leader.
func Start(t testing.TB, n, tables int) *Cluster { return start(t, "", n, tables) }

// StartProgram is Start with each node a process of bin (Debian's nats-server), from the same
// files; Kill is then kill -9.
func StartProgram(t testing.TB, bin string, n, tables int) *Cluster { return start(t, bin, n, tables) }

func start(t testing.TB, bin string, n, tables int) *Cluster {
	t.Helper()
	if n != 1 && n != 3 {
		t.Fatalf("natstest: %d nodes: deploy/nats ships files for 3, or a single server", n)
	}
	dir := t.TempDir()
	creds, _, err := natsauth.LoadOrCreate(filepath.Join(dir, "credentials.yaml"), "natstest", tables)
	if err != nil {
		t.Fatal(err)
	}
	c := &Cluster{t: t, bin: bin, Creds: creds}
	ports := freePorts(t, 4*n) // per node: client, route, monitoring, MQTT
	var routes []string
	for i := range n {
		routes = append(routes, fmt.Sprintf("127.0.0.1:%d", ports[4*i+1]))
	}
	users, err := creds.UsersConf()
	if err != nil {
		t.Fatal(err)
	}
	deploy := deployDir(t)
	for i := range n {
		nd := filepath.Join(dir, fmt.Sprintf("n%d", i+1))
		p := ports[4*i:]
		moved := []string{"0.0.0.0:4222", fmt.Sprintf("127.0.0.1:%d", p[0]), "127.0.0.1:8222", fmt.Sprintf("127.0.0.1:%d", p[2]),
			"0.0.0.0:1883", fmt.Sprintf("127.0.0.1:%d", p[3]), "/var/lib/nats/jetstream", filepath.Join(nd, "jetstream")}
		files := map[string]string{"siamese-users.conf": users}
		main := "single.conf"
		if n == 3 {
			main = fmt.Sprintf("nats-%d.conf", i+1)
			files["siamese-cluster.conf"] = Rewrite(t, filepath.Join(deploy, "siamese-cluster.conf"), append(moved, "0.0.0.0:6222", routes[i])...)
			files["siamese-routes.conf"] = creds.RoutesConf(routes)
			files[main] = Rewrite(t, filepath.Join(deploy, main))
		} else {
			files[main] = Rewrite(t, filepath.Join(deploy, main), moved...)
		}
		if err := os.MkdirAll(nd, 0o700); err != nil {
			t.Fatal(err)
		}
		for name, text := range files {
			if err := os.WriteFile(filepath.Join(nd, name), []byte(text), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		conf := filepath.Join(nd, main)
		o, err := server.ProcessConfigFile(conf)
		if err != nil {
			t.Fatalf("natstest: deploy/nats/%s as shipped: %v", main, err)
		}
		o.NoSigs = true
		c.nodes = append(c.nodes, &node{conf: conf, opts: o})
	}
	for i := range n {
		c.Restart(i)
	}
	t.Cleanup(c.Shutdown)
	c.WaitReady()
	return c
}

// deployDir finds deploy/nats from the test's package directory, up to the module's root.
func deployDir(t testing.TB) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "deploy", "nats")
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("natstest: no go.mod above the test's directory, so no deploy/nats")
		}
		dir = up
	}
}

// Rewrite reads a shipped file and replaces what a test on one machine must move (hosts, ports,
// directories); a pair the file no longer says fails the test, so the files and the tests cannot
// drift apart.
func Rewrite(t testing.TB, path string, pairs ...string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for i := 0; i+1 < len(pairs); i += 2 {
		if !strings.Contains(s, pairs[i]) {
			t.Fatalf("natstest: %s no longer says %q", path, pairs[i])
		}
		s = strings.ReplaceAll(s, pairs[i], pairs[i+1])
	}
	return s
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
	for _, n := range c.nodes {
		out = append(out, fmt.Sprintf("nats://127.0.0.1:%d", n.opts.Port))
	}
	return out
}

// Replicas is how many replicas the cluster's streams take.
func (c *Cluster) Replicas() int { return len(c.nodes) }

// Desk is how the desk reaches the cluster.
func (c *Cluster) Desk() link.Options {
	o := c.Creds.DeskLink()
	o.URLs, o.Replicas = c.URLs(), c.Replicas()
	return o
}

// Table is how table n reaches the cluster.
func (c *Cluster) Table(n int) link.Options {
	c.t.Helper()
	f, err := c.Creds.ForTable(n)
	if err != nil {
		c.t.Fatal(err)
	}
	o := f.Link()
	o.URLs, o.Replicas = c.URLs(), c.Replicas()
	return o
}

// MQTTAddr is node i's MQTT gateway.
func (c *Cluster) MQTTAddr(i int) string {
	return fmt.Sprintf("127.0.0.1:%d", c.nodes[i].opts.MQTT.Port)
}

// Kill stops node i at once (a program: kill -9).
func (c *Cluster) Kill(i int) {
	n := c.nodes[i]
	if n.srv != nil {
		n.srv.Shutdown()
		n.srv.WaitForShutdown()
		n.srv = nil
	}
	if n.proc != nil {
		n.proc.Process.Kill()
		<-n.done
		n.proc = nil
	}
}

// Restart starts node i again on its ports and store.
func (c *Cluster) Restart(i int) {
	c.t.Helper()
	n := c.nodes[i]
	if c.bin != "" {
		c.startProgram(n)
		return
	}
	o := *n.opts
	s, err := server.NewServer(&o)
	if err != nil {
		c.t.Fatal(err)
	}
	if n.out == nil {
		n.out = &output{}
	}
	s.SetLogger(n.out, false, false)
	go s.Start()
	if !s.ReadyForConnections(20 * time.Second) {
		c.t.Fatalf("natstest: node %d did not start", i+1)
	}
	n.srv = s
}

func (c *Cluster) startProgram(n *node) {
	c.t.Helper()
	if n.out == nil {
		n.out = &output{}
	}
	n.proc = exec.Command(c.bin, "-c", n.conf)
	n.proc.Stdout, n.proc.Stderr = n.out, n.out
	if err := n.proc.Start(); err != nil {
		c.t.Fatal(err)
	}
	n.done = make(chan struct{})
	go func(cmd *exec.Cmd, done chan struct{}) { cmd.Wait(); close(done) }(n.proc, n.done)
	addr := fmt.Sprintf("127.0.0.1:%d", n.opts.Port)
	deadline := time.Now().Add(20 * time.Second)
	for {
		if conn, err := net.Dial("tcp", addr); err == nil {
			conn.Close()
			return
		}
		select {
		case <-n.done:
			c.t.Fatalf("natstest: %s -c %s exited at start:\n%s", c.bin, n.conf, n.out)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("natstest: %s does not listen on %s:\n%s", c.bin, addr, n.out)
		}
	}
}

// WaitReady waits until JetStream is up: on a cluster, a meta leader elected that knows every
// node, and every node current with it.
func (c *Cluster) WaitReady() {
	c.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		err := c.ready()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("natstest: the cluster's JetStream is not ready after 60 s: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// ready asks each node's monitoring how its JetStream stands (/jsz), in or out of the process:
// all agree on a leader of every node, and the leader has every follower current.
func (c *Cluster) ready() error {
	leader := ""
	for i, n := range c.nodes {
		var jsz struct {
			Meta *struct {
				Leader   string `json:"leader"`
				Size     int    `json:"cluster_size"`
				Replicas []struct {
					Current bool `json:"current"`
				} `json:"replicas"`
			} `json:"meta_cluster"`
			Disabled bool `json:"disabled"`
		}
		res, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/jsz", n.opts.HTTPPort))
		if err != nil {
			return fmt.Errorf("node %d: %w", i+1, err)
		}
		err = json.NewDecoder(res.Body).Decode(&jsz)
		res.Body.Close()
		switch {
		case err != nil:
			return fmt.Errorf("node %d: /jsz: %w", i+1, err)
		case jsz.Disabled:
			return fmt.Errorf("node %d: JetStream off", i+1)
		case len(c.nodes) == 1:
			return nil
		case jsz.Meta == nil || jsz.Meta.Leader == "" || jsz.Meta.Size != len(c.nodes):
			return fmt.Errorf("node %d: no meta leader of %d nodes yet (%+v)", i+1, len(c.nodes), jsz.Meta)
		case leader != "" && jsz.Meta.Leader != leader:
			return fmt.Errorf("node %d sees leader %s, another %s", i+1, jsz.Meta.Leader, leader)
		}
		leader = jsz.Meta.Leader
		if leader != n.opts.ServerName {
			continue // only the leader knows how current its followers are
		}
		current := 0
		for _, r := range jsz.Meta.Replicas {
			if r.Current {
				current++
			}
		}
		if current != len(c.nodes)-1 {
			return fmt.Errorf("leader %s: %d of %d followers current", leader, current, len(c.nodes)-1)
		}
	}
	return nil
}

// Logs are what the nodes have said since they started: a program's output; in the test's
// process, warnings and errors.
func (c *Cluster) Logs() string {
	var b strings.Builder
	for i, n := range c.nodes {
		if n.out != nil {
			fmt.Fprintf(&b, "--- node %d\n%s", i+1, n.out)
		}
	}
	return b.String()
}

// Shutdown stops every node.
func (c *Cluster) Shutdown() {
	for i := range c.nodes {
		c.Kill(i)
	}
}
