package deploy

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	"github.com/nats-io/nats.go"

	"github.com/siamesetable/siamesed/tournament/link"
)

// needBinary finds a Debian program the test runs, or skips (fails under
// SIAMESED_REQUIRE_SYSTEM_TESTS, as scripts/test.sh installs it).
func needBinary(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("SIAMESED_REQUIRE_SYSTEM_TESTS") != "" {
			t.Fatalf("%s is not installed and SIAMESED_REQUIRE_SYSTEM_TESTS is set: run scripts/test.sh, which installs it", name)
		}
		t.Skipf("%s is not installed (scripts/test.sh installs it): skipping", name)
	}
	return p
}

func freePorts(t *testing.T, n int) []int {
	var out []int
	var lns []net.Listener
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

// daemonProc runs a server program until the test ends.
func daemonProc(t *testing.T, port int, bin string, args ...string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
	})
	deadline := time.Now().Add(20 * time.Second)
	for {
		if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
			c.Close()
			return
		}
		select {
		case <-exited:
			t.Fatalf("%s %v exited at start:\n%s", bin, args, out.String())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s does not listen on %d:\n%s", bin, port, out.String())
		}
	}
}

// rewrite replaces, in a shipped file, what a test on one machine must change: hosts, ports,
// directories.
func rewrite(t *testing.T, path string, pairs ...string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for i := 0; i+1 < len(pairs); i += 2 {
		if !strings.Contains(s, pairs[i]) {
			t.Fatalf("%s no longer says %q", path, pairs[i])
		}
		s = strings.ReplaceAll(s, pairs[i], pairs[i+1])
	}
	return s
}

// TestNATSClusterConfigs: the three nodes' shipped files, started by Debian's nats-server on
// loopback (each node's hosts and ports moved apart, nothing else changed), form a cluster
// whose JetStream keeps the tournament's streams with three replicas, and whose MQTT gateway
// hands an MQTT message to a NATS subscriber.
func TestNATSClusterConfigs(t *testing.T) {
	bin := needBinary(t, "nats-server")
	p := freePorts(t, 12) // per node: client, route, monitor, mqtt
	var urls []string
	for n := 1; n <= 3; n++ {
		dir := t.TempDir()
		pairs := []string{"0.0.0.0:4222", fmt.Sprintf("127.0.0.1:%d", p[4*n-4]), "0.0.0.0:6222", fmt.Sprintf("127.0.0.1:%d", p[4*n-3]),
			"127.0.0.1:8222", fmt.Sprintf("127.0.0.1:%d", p[4*n-2]), "0.0.0.0:1883", fmt.Sprintf("127.0.0.1:%d", p[4*n-1]),
			"/var/lib/nats/jetstream", filepath.Join(dir, "jetstream")}
		for k := 1; k <= 3; k++ {
			pairs = append(pairs, fmt.Sprintf("nats-%d:6222", k), fmt.Sprintf("127.0.0.1:%d", p[4*k-3]))
		}
		cluster := rewrite(t, "nats/siamese-cluster.conf", pairs...)
		os.WriteFile(filepath.Join(dir, "siamese-cluster.conf"), []byte(cluster), 0o644)
		node, _ := os.ReadFile(fmt.Sprintf("nats/nats-%d.conf", n))
		os.WriteFile(filepath.Join(dir, "nats-server.conf"), node, 0o644)
		daemonProc(t, p[4*n-4], bin, "-c", filepath.Join(dir, "nats-server.conf"))
		urls = append(urls, fmt.Sprintf("nats://127.0.0.1:%d", p[4*n-4]))
	}
	c, err := link.Dial(link.Options{URLs: urls, Replicas: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	for { // until the cluster has elected its JetStream leader: each try bounded on its own
		try, cancelTry := context.WithTimeout(ctx, 5*time.Second)
		err = c.EnsureStreams(try)
		cancelTry()
		if err == nil || ctx.Err() != nil {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("the streams on the cluster: %v", err)
	}
	st, err := c.JS.Stream(ctx, link.InStream)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Publish(ctx, link.InSubject(1, "result"), "r-test", []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	info, err := st.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.Config.Replicas != 3 || info.Cluster == nil || len(info.Cluster.Replicas) != 2 || info.State.Msgs != 1 {
		t.Errorf("stream %s: replicas %d, cluster %+v, %d messages", link.InStream, info.Config.Replicas, info.Cluster, info.State.Msgs)
	}
	// The MQTT gateway of node 2: an MQTT publish reaches a NATS subscriber.
	got := make(chan *nats.Msg, 1)
	sub, err := c.NC.ChanSubscribe("siamese.table1.state", got)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	c.NC.Flush()
	mc := paho.NewClient(paho.NewClientOptions().AddBroker(fmt.Sprintf("tcp://127.0.0.1:%d", p[7])).SetClientID("scoreboard"))
	if tok := mc.Connect(); !tok.WaitTimeout(20*time.Second) || tok.Error() != nil {
		t.Fatalf("MQTT gateway: %v", tok.Error())
	}
	defer mc.Disconnect(100)
	mc.Publish("siamese/table1/state", 1, false, `{"seq":1}`).WaitTimeout(10 * time.Second)
	select {
	case m := <-got:
		if string(m.Data) != `{"seq":1}` {
			t.Errorf("MQTT to NATS: %q", m.Data)
		}
	case <-time.After(20 * time.Second):
		t.Error("an MQTT publish on the gateway never reached the NATS subject")
	}
}

// TestNATSSingleConfig: the single server's file starts and takes a stream of one replica.
func TestNATSSingleConfig(t *testing.T) {
	bin := needBinary(t, "nats-server")
	p := freePorts(t, 3)
	dir := t.TempDir()
	conf := rewrite(t, "nats/single.conf", "0.0.0.0:4222", fmt.Sprintf("127.0.0.1:%d", p[0]), "127.0.0.1:8222", fmt.Sprintf("127.0.0.1:%d", p[1]),
		"0.0.0.0:1883", fmt.Sprintf("127.0.0.1:%d", p[2]), "/var/lib/nats/jetstream", filepath.Join(dir, "js"))
	os.WriteFile(filepath.Join(dir, "nats-server.conf"), []byte(conf), 0o644)
	daemonProc(t, p[0], bin, "-c", filepath.Join(dir, "nats-server.conf"))
	c, err := link.Dial(link.Options{URLs: []string{fmt.Sprintf("nats://127.0.0.1:%d", p[0])}, Replicas: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := c.EnsureStreams(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.Publish(ctx, link.InSubject(1, "result"), "r-test", []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
}

// TestMosquittoBridge: a table's Mosquitto with the shipped bridge passes the table's public
// topics to the central Mosquitto (shipped configuration and ACL), where a screen reads them,
// and keeps the seats' topics at the table.
func TestMosquittoBridge(t *testing.T) {
	bin := needBinary(t, "mosquitto")
	passwd := needBinary(t, "mosquitto_passwd")
	p := freePorts(t, 3)
	dir := t.TempDir()
	pw := filepath.Join(dir, "central.passwd")
	for i, u := range []string{"bridge", "display"} {
		args := []string{"-b", pw, u, u + "-pw"}
		if i == 0 {
			args = append([]string{"-c"}, args...)
		}
		if out, err := exec.Command(passwd, args...).CombinedOutput(); err != nil {
			t.Fatalf("mosquitto_passwd: %v %s", err, out)
		}
	}
	acl, _ := filepath.Abs("mosquitto-central.acl")
	runAsRoot := ""
	if u, err := user.Current(); err == nil && u.Uid == "0" {
		runAsRoot = "user root\n"
	}
	central := rewrite(t, "mosquitto-central.conf", "/etc/mosquitto/siamese-central.passwd", pw, "/etc/mosquitto/siamese-central.acl", acl,
		"listener 1883", fmt.Sprintf("listener %d 127.0.0.1", p[0]), "listener 9001", fmt.Sprintf("listener %d 127.0.0.1", p[1]))
	os.WriteFile(filepath.Join(dir, "central.conf"), []byte(runAsRoot+central), 0o600)
	daemonProc(t, p[0], bin, "-c", filepath.Join(dir, "central.conf"))
	bridge := rewrite(t, "mosquitto-bridge.conf", "TABLE", "table3", "CENTRAL:1883", fmt.Sprintf("127.0.0.1:%d", p[0]))
	tableConf := runAsRoot + fmt.Sprintf("listener %d 127.0.0.1\nallow_anonymous true\n", p[2]) + bridge + "remote_password bridge-pw\n"
	os.WriteFile(filepath.Join(dir, "table.conf"), []byte(tableConf), 0o600)
	daemonProc(t, p[2], bin, "-c", filepath.Join(dir, "table.conf"))

	got := make(chan string, 10)
	screen := paho.NewClient(paho.NewClientOptions().AddBroker(fmt.Sprintf("tcp://127.0.0.1:%d", p[0])).SetClientID("screen").SetUsername("display").SetPassword("display-pw"))
	if tok := screen.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("screen: %v", tok.Error())
	}
	defer screen.Disconnect(100)
	screen.Subscribe("siamese/#", 1, func(_ paho.Client, m paho.Message) { got <- m.Topic() + " " + string(m.Payload()) }).WaitTimeout(10 * time.Second)
	tbl := paho.NewClient(paho.NewClientOptions().AddBroker(fmt.Sprintf("tcp://127.0.0.1:%d", p[2])).SetClientID("siamesed"))
	if tok := tbl.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("table broker: %v", tok.Error())
	}
	defer tbl.Disconnect(100)
	deadline := time.Now().Add(30 * time.Second)
	for {
		tbl.Publish("siamese/table3/seat/1/private", 1, false, "secret").WaitTimeout(5 * time.Second)
		tbl.Publish("siamese/table3/state", 1, false, `{"seq":7}`).WaitTimeout(5 * time.Second)
		select {
		case m := <-got:
			if strings.Contains(m, "private") {
				t.Fatalf("a seat's topic crossed the bridge: %s", m)
			}
			if m == `siamese/table3/state {"seq":7}` {
				return
			}
		case <-time.After(500 * time.Millisecond): // the bridge connects in its own time
		}
		if time.Now().After(deadline) {
			t.Fatal("the table's state never reached the central broker")
		}
	}
}
