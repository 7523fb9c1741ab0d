package deploy

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/daemon"
	"github.com/siamesetable/siamesed/internal/datadir"
)

// parseUnit reads a systemd unit file into section -> key -> values (a key may repeat).
func parseUnit(text string) map[string]map[string][]string {
	u := map[string]map[string][]string{}
	section := ""
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || line[0] == '#' || line[0] == ';':
		case line[0] == '[' && strings.HasSuffix(line, "]"):
			section = line[1 : len(line)-1]
			if u[section] == nil {
				u[section] = map[string][]string{}
			}
		default:
			k, v, ok := strings.Cut(line, "=")
			if ok && section != "" {
				u[section][strings.TrimSpace(k)] = append(u[section][strings.TrimSpace(k)], strings.TrimSpace(v))
			}
		}
	}
	return u
}

// TestUnitAgreesWithTheDaemon: the unit is what the issue and the daemon need: notify (the
// daemon sends READY=1), a watchdog the daemon feeds (it pings at half of WatchdogSec, and stops
// once the table loop has stalled for `stall:`), restarts on failure, the dedicated user with
// the hardware groups, the state directory the daemon is told to use, and the hardening.
func TestUnitAgreesWithTheDaemon(t *testing.T) {
	b, err := os.ReadFile("siamesed.service")
	if err != nil {
		t.Fatal(err)
	}
	s := parseUnit(string(b))["Service"]
	one := func(k string) string {
		if len(s[k]) != 1 {
			t.Errorf("[Service] %s: %d values, want 1", k, len(s[k]))
			return ""
		}
		return s[k][0]
	}
	for k, want := range map[string]string{"Type": "notify", "Restart": "on-failure", "User": "siamesed",
		"StateDirectory": "siamesed", "Environment": datadir.Env + "=/var/lib/siamesed", "NoNewPrivileges": "yes",
		"ProtectSystem": "strict", "ProtectHome": "yes", "PrivateTmp": "yes", "CapabilityBoundingSet": ""} {
		if got := one(k); got != want {
			t.Errorf("[Service] %s=%s, want %s", k, got, want)
		}
	}
	groups := strings.Fields(one("SupplementaryGroups"))
	for _, g := range []string{"gpio", "i2c", "spi", "video"} {
		if !slices.Contains(groups, g) {
			t.Errorf("SupplementaryGroups lacks %s", g)
		}
	}
	exec := strings.Fields(one("ExecStart"))
	if len(exec) < 2 || exec[1] != "run" || !hasFlag(exec, "--data", "/var/lib/siamesed") || !hasFlag(exec, "--config", "/etc/siamesed/siamesed.yaml") {
		t.Errorf("ExecStart %q: want siamesed run --config /etc/siamesed/siamesed.yaml --data /var/lib/siamesed (the StateDirectory)", exec)
	}
	wd, err := time.ParseDuration(one("WatchdogSec"))
	if err != nil {
		t.Fatalf("WatchdogSec: %v", err)
	}
	// The daemon pings every WatchdogSec/2; a ping needs to land well before the deadline even
	// on a loaded Pi, and the stall allowance must not be so long that a stuck table goes
	// unnoticed for minutes.
	stall := daemon.Defaults().Stall.D()
	if wd < 10*time.Second || wd/2 > stall || stall+wd > 2*time.Minute {
		t.Errorf("WatchdogSec=%v with the daemon's stall %v: want 10 s or more, pings (every %v) within the stall, and stall+WatchdogSec under 2 min", wd, stall, wd/2)
	}
}

func hasFlag(args []string, flag, value string) bool {
	i := slices.Index(args, flag)
	return i >= 0 && i+1 < len(args) && args[i+1] == value
}

// TestUnitVerifies runs systemd-analyze verify on the unit (its ExecStart pointed at a program
// that exists here): any complaint, even one systemd only warns about, fails the test.
func TestUnitVerifies(t *testing.T) {
	sa, err := exec.LookPath("systemd-analyze")
	if err != nil {
		if os.Getenv("SIAMESED_REQUIRE_SYSTEM_TESTS") != "" {
			t.Fatal("systemd-analyze is missing (apt-get install systemd), and SIAMESED_REQUIRE_SYSTEM_TESTS is set")
		}
		t.Skip("systemd-analyze is missing: apt-get install systemd to verify the unit")
	}
	b, err := os.ReadFile("siamesed.service")
	if err != nil {
		t.Fatal(err)
	}
	unit := filepath.Join(t.TempDir(), "siamesed.service")
	write(t, unit, strings.ReplaceAll(string(b), "/usr/local/bin/siamesed", buildSiamesed(t)), 0o644)
	out, err := exec.Command(sa, "verify", unit).CombinedOutput()
	if err != nil || len(strings.TrimSpace(string(out))) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
}

// FuzzParseUnit: the unit reader takes any text without panicking.
func FuzzParseUnit(f *testing.F) {
	b, _ := os.ReadFile("siamesed.service")
	f.Add(string(b))
	f.Add("[A]\nk=v\n[\n=\n")
	f.Fuzz(func(t *testing.T, text string) { parseUnit(text) })
}
