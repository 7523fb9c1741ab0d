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
	"github.com/nats-io/nats-server/v2/server"

	"github.com/siamesetable/siamesed/desk/embedded"
	"github.com/siamesetable/siamesed/internal/natstest"
	"github.com/siamesetable/siamesed/tournament/link"
	"github.com/siamesetable/siamesed/tournament/natsauth"
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

// TestNATSClusterConfigs: the three nodes' shipped files, started by Debian's nats-server on
// loopback (each node's hosts, ports and directories moved, nothing else changed) with the
// users and routes an event's credentials make (siamesed desk auth), form a cluster whose
// JetStream keeps the tournament's streams with three replicas; no one logs in without the
// event's key or password, and each user may use its own subjects only, over NATS and over
// the MQTT gateway (natstest.CheckAccess, CheckMQTTAccess: every try listed there).
func TestNATSClusterConfigs(t *testing.T) {
	bin := needBinary(t, "nats-server")
	c := natstest.StartProgram(t, bin, 3, 4)
	natstest.CheckAccess(t, c)
	natstest.CheckMQTTAccess(t, c, 1)
	d, err := link.Dial(c.Desk())
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, err := d.JS.Stream(ctx, link.InStream)
	if err != nil {
		t.Fatal(err)
	}
	info, err := st.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.Config.Replicas != 3 || info.Cluster == nil || len(info.Cluster.Replicas) != 2 {
		t.Errorf("stream %s: replicas %d, cluster %+v", link.InStream, info.Config.Replicas, info.Cluster)
	}
}

// TestNATSSingleConfig: the single server's file, with the event's users, takes streams of
// one replica and admits no one else, as the cluster does.
func TestNATSSingleConfig(t *testing.T) {
	bin := needBinary(t, "nats-server")
	c := natstest.StartProgram(t, bin, 1, 4)
	natstest.CheckAccess(t, c)
	natstest.CheckMQTTAccess(t, c, 0)
}

// TestNATSLimits: the limits the shipped files set, as nats-server reads them, are those the
// desk's embedded server sets (natsauth.Limits, docs/tournament.md#limits), on every node.
func TestNATSLimits(t *testing.T) {
	creds, _, err := natsauth.LoadOrCreate(filepath.Join(t.TempDir(), "credentials.yaml"), "limits", 2)
	if err != nil {
		t.Fatal(err)
	}
	users, err := creds.UsersConf()
	if err != nil {
		t.Fatal(err)
	}
	want, err := embedded.Options(creds)
	if err != nil {
		t.Fatal(err)
	}
	for _, main := range []string{"single.conf", "nats-1.conf", "nats-2.conf", "nats-3.conf"} {
		dir := t.TempDir()
		for name, text := range map[string]string{"siamese-users.conf": users, "siamese-routes.conf": creds.RoutesConf(natsauth.DefaultNodes)} {
			os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600)
		}
		for _, name := range []string{main, "siamese-cluster.conf"} {
			b, _ := os.ReadFile(filepath.Join("nats", name))
			os.WriteFile(filepath.Join(dir, name), b, 0o600)
		}
		got, err := server.ProcessConfigFile(filepath.Join(dir, main))
		if err != nil {
			t.Fatalf("%s: %v", main, err)
		}
		for _, f := range []struct {
			name      string
			got, want any
		}{
			{"max_payload", got.MaxPayload, want.MaxPayload}, {"max_connections", got.MaxConn, want.MaxConn},
			{"max_pending", got.MaxPending, want.MaxPending}, {"max_subscriptions", got.MaxSubs, want.MaxSubs},
			{"max_control_line", got.MaxControlLine, want.MaxControlLine}, {"authorization.timeout", got.AuthTimeout, want.AuthTimeout},
			{"mqtt.authorization.timeout", got.MQTT.AuthTimeout, want.MQTT.AuthTimeout}, {"ping_interval", got.PingInterval, want.PingInterval},
			{"ping_max", got.MaxPingsOut, want.MaxPingsOut}, {"write_deadline", got.WriteDeadline, want.WriteDeadline},
			{"jetstream.max_memory_store", got.JetStreamMaxMemory, want.JetStreamMaxMemory}, {"jetstream.max_file_store", got.JetStreamMaxStore, want.JetStreamMaxStore},
			{"users", len(got.Nkeys) + len(got.Users), len(want.Nkeys) + len(want.Users)}, {"no_auth_user", got.NoAuthUser, ""},
		} {
			if f.got != f.want {
				t.Errorf("%s: %s is %v; the embedded server's (natsauth.Limits) is %v", main, f.name, f.got, f.want)
			}
		}
		if main != "single.conf" && (got.Cluster.Username != natsauth.RouteUser || got.Cluster.Password != creds.Route || len(got.Routes) != 3 || got.Routes[0].User == nil) {
			t.Errorf("%s: the routes do not authenticate: cluster user %q, routes %v", main, got.Cluster.Username, got.Routes)
		}
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
	central := natstest.Rewrite(t, "mosquitto-central.conf", "/etc/mosquitto/siamese-central.passwd", pw, "/etc/mosquitto/siamese-central.acl", acl,
		"listener 1883", fmt.Sprintf("listener %d 127.0.0.1", p[0]), "listener 9001", fmt.Sprintf("listener %d 127.0.0.1", p[1]))
	os.WriteFile(filepath.Join(dir, "central.conf"), []byte(runAsRoot+central), 0o600)
	daemonProc(t, p[0], bin, "-c", filepath.Join(dir, "central.conf"))
	bridge := natstest.Rewrite(t, "mosquitto-bridge.conf", "TABLE", "table3", "CENTRAL:1883", fmt.Sprintf("127.0.0.1:%d", p[0]))
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
