package deploy

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// debianMirror is the first Debian mirror this machine's apt uses (deb822 or one-line form).
func debianMirror() string {
	for _, f := range []string{"/etc/apt/sources.list.d/debian.sources", "/etc/apt/sources.list"} {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(strings.NewReader(string(b)))
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			switch {
			case len(fields) >= 2 && fields[0] == "URIs:" && !strings.Contains(fields[1], "security"):
				return fields[1]
			case len(fields) >= 3 && fields[0] == "deb" && !strings.Contains(fields[1], "security"):
				return fields[1]
			}
		}
	}
	return ""
}

// bookworm returns a minimal Debian bookworm root (debootstrap --variant=minbase), made once
// into ~/.cache/siamesed and copied for each test.
func bookworm(t *testing.T) string {
	t.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	pristine := filepath.Join(cache, "siamesed", "bookworm-minbase")
	if _, err := os.Stat(filepath.Join(pristine, "etc", "debian_version")); err != nil {
		mirror := debianMirror()
		if mirror == "" {
			t.Fatal("no Debian mirror in /etc/apt/sources.list.d/debian.sources or /etc/apt/sources.list")
		}
		os.RemoveAll(pristine + ".new")
		out, err := exec.Command(need(t, "debootstrap", "debootstrap"), "--variant=minbase", "bookworm", pristine+".new", mirror).CombinedOutput()
		if err != nil {
			t.Fatalf("debootstrap: %v\n%s", err, out)
		}
		if err := os.Rename(pristine+".new", pristine); err != nil {
			t.Fatal(err)
		}
	}
	root := filepath.Join(t.TempDir(), "root")
	if out, err := exec.Command("cp", "-a", pristine, root).CombinedOutput(); err != nil {
		t.Fatalf("cp -a %s: %v\n%s", pristine, err, out)
	}
	return root
}

// TestInstallInDebianChroot runs install.sh for real, twice, in a fresh Debian bookworm root:
// apt installs Mosquitto from the mirror, useradd and groupadd make the user and the groups,
// the second run changes nothing, and Mosquitto, started on Debian's own mosquitto.conf with
// the installed drop-in, ACL and hashed passwords, lets the display in with its password and
// nobody with a wrong one. It needs root, debootstrap and the Debian mirror (a minute or two,
// ~60 MB the first time), so it runs only with SIAMESED_TEST_CHROOT=1.
func TestInstallInDebianChroot(t *testing.T) {
	if os.Getenv("SIAMESED_TEST_CHROOT") == "" {
		t.Skip("set SIAMESED_TEST_CHROOT=1 to run install.sh in a debootstrapped Debian bookworm (root, the Debian mirror, a few minutes)")
	}
	if os.Geteuid() != 0 {
		t.Skip("chroot needs root")
	}
	need(t, "unshare", "util-linux")
	root := bookworm(t)
	src := filepath.Join(root, "src")
	if err := os.MkdirAll(filepath.Join(src, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"../deploy", "../configs", "../scripts", "../README.md"} {
		if out, err := exec.Command("cp", "-r", p, src).CombinedOutput(); err != nil {
			t.Fatalf("cp %s: %v\n%s", p, err, out)
		}
	}
	if out, err := exec.Command("cp", buildSiamesed(t), filepath.Join(src, "bin")).CombinedOutput(); err != nil {
		t.Fatalf("cp siamesed: %v\n%s", err, out)
	}
	write(t, filepath.Join(root, "usr/sbin/policy-rc.d"), "#!/bin/sh\nexit 101\n", 0o755) // no services start in the chroot
	install := func() string {
		out, err := exec.Command("chroot", root, "/bin/bash", "/src/deploy/install.sh", "--bin", "/src/bin", "--no-camera").CombinedOutput()
		if err != nil {
			t.Fatalf("install.sh in the chroot: %v\n%s", err, out)
		}
		return string(out)
	}
	out := install()
	if !strings.Contains(out, "systemd is not running here") {
		t.Errorf("install.sh did not say systemd is not running:\n%s", out)
	}
	watched := []string{"etc/siamesed", "etc/mosquitto", "etc/systemd/system/siamesed.service", "usr/local/bin",
		"var/lib/siamesed", "etc/passwd", "etc/group", "etc/shadow", "etc/gshadow"}
	snapshot := func() map[string]string {
		all := map[string]string{}
		for _, w := range watched {
			for p, v := range tree(t, filepath.Join(root, w)) {
				all[w+p] = v
			}
		}
		return all
	}
	before := snapshot()
	install()
	if d := diffTrees(before, snapshot()); d != "" {
		t.Errorf("the second run changed the installation:\n%s", d)
	}
	id, err := exec.Command("chroot", root, "id", "-nG", "siamesed").CombinedOutput()
	if err != nil || strings.Join(strings.Fields(string(id)), " ") != "siamesed video gpio i2c spi" {
		t.Errorf("id -nG siamesed: %v %q", err, id)
	}

	// Mosquitto as Debian starts it, in a network namespace of its own (loopback only).
	for _, d := range []string{"run/mosquitto", "var/log/mosquitto"} {
		os.MkdirAll(filepath.Join(root, d), 0o755)
		exec.Command("chroot", root, "chown", "mosquitto:", "/"+d).Run()
	}
	creds := read(t, filepath.Join(root, "var/lib/siamesed/mqtt/credentials.yaml"))
	pw := ""
	for _, line := range strings.Split(creds, "\n") {
		if v, ok := strings.CutPrefix(line, "display:"); ok {
			pw = strings.Trim(strings.TrimSpace(v), `"'`)
		}
	}
	script := `set -u
ip link set lo up 2>/dev/null || true
chroot "$1" /usr/sbin/mosquitto -c /etc/mosquitto/mosquitto.conf -d
ok=1
for i in 1 2 3 4 5 6 7 8 9 10; do
	if chroot "$1" mosquitto_sub -h 127.0.0.1 -u display -P "$2" -t siamese/table1/state -E -W 2; then ok=0; break; fi
	sleep 0.5
done
echo "display=$ok"
chroot "$1" mosquitto_sub -h 127.0.0.1 -u display -P wrong -t siamese/table1/state -E -W 2; echo "wrong=$?"
kill "$(cat "$1/run/mosquitto/mosquitto.pid")"
cat "$1/var/log/mosquitto/mosquitto.log"`
	res, _ := exec.Command("unshare", "-n", "bash", "-c", script, "-", root, pw).CombinedOutput()
	if !strings.Contains(string(res), "display=0") || strings.Contains(string(res), "wrong=0") {
		t.Errorf("Mosquitto with the installed files: want the display in and a wrong password out:\n%s", res)
	}
}
