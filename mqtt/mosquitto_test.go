package mqtt

import (
	"bufio"
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
)

// requireBinary skips a test whose system program is missing, unless the environment asks
// for every system test (scripts/test.sh does, so CI never skips one silently).
func requireBinary(t testing.TB, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err == nil {
		return path
	}
	if os.Getenv("SIAMESED_REQUIRE_SYSTEM_TESTS") != "" {
		t.Fatalf("%s is not installed and SIAMESED_REQUIRE_SYSTEM_TESTS is set: run scripts/test.sh, which installs it", name)
	}
	t.Skipf("%s is not installed (scripts/test.sh installs it): skipping", name)
	return ""
}

// mosquitto is a Mosquitto run by a test on loopback with the shipped deploy/ files.
type mosquitto struct {
	t       testing.TB
	bin     string
	conf    string
	port    int
	wsPort  int // MQTT over WebSocket
	cmd     *exec.Cmd
	exited  chan struct{}
	logFile string
}

func freePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// startMosquitto writes the credentials as a hashed password file and a configuration made
// from deploy/mosquitto.conf with the test's ports and paths, and starts the broker.
func startMosquitto(t testing.TB, creds Credentials) *mosquitto {
	t.Helper()
	bin := requireBinary(t, "mosquitto")
	passwd := requireBinary(t, "mosquitto_passwd")
	dir := t.TempDir()
	pwFile := filepath.Join(dir, "passwd")
	if err := os.WriteFile(pwFile, []byte(creds.PasswordLines()), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(passwd, "-U", pwFile).CombinedOutput(); err != nil {
		t.Fatalf("mosquitto_passwd -U: %v: %s", err, out)
	}
	acl, err := filepath.Abs("../deploy/mosquitto.acl")
	if err != nil {
		t.Fatal(err)
	}
	m := &mosquitto{t: t, bin: bin, port: freePort(t), wsPort: freePort(t), conf: filepath.Join(dir, "mosquitto.conf"), logFile: filepath.Join(dir, "log")}
	shipped, err := os.ReadFile("../deploy/mosquitto.conf")
	if err != nil {
		t.Fatal(err)
	}
	var conf strings.Builder
	sc := bufio.NewScanner(strings.NewReader(string(shipped)))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "password_file "):
			line = "password_file " + pwFile
		case strings.HasPrefix(line, "acl_file "):
			line = "acl_file " + acl
		case strings.HasPrefix(line, "listener 1883 "):
			line = fmt.Sprintf("listener %d 127.0.0.1", m.port)
		case strings.HasPrefix(line, "listener 9001 "):
			line = fmt.Sprintf("listener %d 127.0.0.1", m.wsPort)
		}
		conf.WriteString(line + "\n")
	}
	// The shipped file is a drop-in for conf.d, included by a main configuration like Debian's
	// stock /etc/mosquitto/mosquitto.conf (persistence on, its location, the include), as on a
	// Pi: a setting the two both make would stop the broker here as it would there.
	confd := filepath.Join(dir, "conf.d")
	if err := os.Mkdir(confd, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(confd, "siamese.conf"), []byte(conf.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	main := "persistence true\npersistence_location " + dir + "/\nlog_dest file " + m.logFile + "\ninclude_dir " + confd + "\n"
	if u, err := user.Current(); err == nil && u.Uid == "0" {
		main += "user root\n" // or mosquitto drops to its own user, who cannot read the test's files
	}
	if err := os.WriteFile(m.conf, []byte(main), 0o600); err != nil {
		t.Fatal(err)
	}
	m.start()
	t.Cleanup(m.stop)
	return m
}

func (m *mosquitto) url() string { return fmt.Sprintf("tcp://127.0.0.1:%d", m.port) }

// wsURL is its MQTT-over-WebSocket listener.
func (m *mosquitto) wsURL() string { return fmt.Sprintf("ws://127.0.0.1:%d", m.wsPort) }

// peakRSS is the most memory the broker's process has held, in bytes (VmHWM).
func (m *mosquitto) peakRSS() int64 {
	m.t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", m.cmd.Process.Pid))
	if err != nil {
		m.t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kb int64
			fmt.Sscanf(strings.TrimSpace(rest), "%d", &kb)
			return kb << 10
		}
	}
	m.t.Fatal("no VmHWM in /proc status")
	return 0
}

// start runs the broker and waits until it accepts connections.
func (m *mosquitto) start() {
	m.t.Helper()
	m.cmd = exec.Command(m.bin, "-c", m.conf)
	if err := m.cmd.Start(); err != nil {
		m.t.Fatalf("mosquitto: %v", err)
	}
	m.exited = make(chan struct{})
	go func() { m.cmd.Wait(); close(m.exited) }()
	deadline := time.Now().Add(waitFor)
	for _, port := range []int{m.port, m.wsPort} { // the WebSocket listener may open a moment later
		for {
			c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
			if err == nil {
				c.Close()
				break
			}
			select {
			case <-m.exited:
				log, _ := os.ReadFile(m.logFile)
				m.t.Fatalf("mosquitto exited at start: %s", log)
			case <-time.After(20 * time.Millisecond): // polling for the port, not waiting on a guess
			}
			if time.Now().After(deadline) {
				m.t.Fatalf("mosquitto does not listen on %d", port)
			}
		}
	}
}

// stop ends the broker with SIGTERM (it saves its persistence file) and waits for it.
func (m *mosquitto) stop() {
	if m.cmd == nil || m.cmd.Process == nil {
		return
	}
	select {
	case <-m.exited:
		return
	default:
	}
	m.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-m.exited:
	case <-time.After(waitFor):
		m.cmd.Process.Kill()
		<-m.exited
	}
}
