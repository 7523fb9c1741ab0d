// Package deploy holds no Go code: its tests check the files a Pi is installed from, the
// install script, the systemd unit and Mosquitto's configuration.
package deploy

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// stubs stand in for the commands install.sh runs that would change this machine. Each logs
// its arguments; the package, user and raspi-config stubs keep just enough state (in $STATE,
// and the --root's /etc/passwd and /etc/group) for a second run to see what the first did.
var stubs = map[string]string{
	"dpkg-query": `for a; do p=$a; done; [ -e "$STATE/pkg-$p" ] && echo "install ok installed"`,
	"apt-get": `[ "$1" = install ] || exit 0
for a; do case $a in -*|install) ;; *) touch "$STATE/pkg-$a";; esac; done`,
	"groupadd":         `[ "$1" = --root ] && r=$2; for a; do n=$a; done; echo "$n:x:990:" >>"$r/etc/group"`,
	"useradd":          `[ "$1" = --root ] && r=$2; for a; do n=$a; done; echo "$n:x:990:990::/var/lib/$n:/usr/sbin/nologin" >>"$r/etc/passwd"; echo "$n:x:990:" >>"$r/etc/group"`,
	"usermod":          `:`,
	"systemctl":        `:`,
	"mosquitto_passwd": `[ "$1" = -U ] && sed -i 's/:/:$7$hashed$/' "$2"`,
	"raspi-config": `case "$2" in
get_i2c) cat "$STATE/i2c" 2>/dev/null || echo 1;;
do_i2c) echo "$3" >"$STATE/i2c";;
get_spi) echo 1;;
esac`,
}

// installEnv makes a root to install into, a bin/ with siamesed (built from the repository:
// install.sh runs its `mqtt passwords`) and a stand-in siamesed-vision, and a PATH with the
// stubs first. without names stubs to leave out.
type installEnv struct {
	root, bin, state, log string
	path                  string
}

func newInstallEnv(t *testing.T, siamesed string, without ...string) *installEnv {
	t.Helper()
	dir := t.TempDir()
	e := &installEnv{root: filepath.Join(dir, "root"), bin: filepath.Join(dir, "bin"), state: filepath.Join(dir, "state"), log: filepath.Join(dir, "log")}
	stubDir := filepath.Join(dir, "stubs")
	for _, d := range []string{e.root + "/etc", e.root + "/boot/firmware", e.bin, e.state, stubDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, e.root+"/etc/passwd", "root:x:0:0:root:/root:/bin/bash\n", 0o644)
	write(t, e.root+"/etc/group", "root:x:0:\nvideo:x:44:\n", 0o644)
	write(t, e.root+"/boot/firmware/config.txt", "[all]\ndtparam=audio=on\n", 0o644)
	write(t, e.bin+"/siamesed-vision", "#!/bin/sh\necho siamesed-vision stand-in\n", 0o755)
	if err := os.Symlink(siamesed, e.bin+"/siamesed"); err != nil {
		t.Fatal(err)
	}
	for name, body := range stubs {
		if !contains(without, name) {
			write(t, filepath.Join(stubDir, name), "#!/bin/sh\necho \""+name+" $*\" >>\"$LOG\"\n"+body+"\n", 0o755)
		}
	}
	e.path = stubDir + ":/usr/bin:/bin:/usr/sbin:/sbin"
	return e
}

func (e *installEnv) run(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command("bash", append([]string{"install.sh", "--root", e.root, "--bin", e.bin}, args...)...)
	cmd.Env = []string{"PATH=" + e.path, "STATE=" + e.state, "LOG=" + e.log, "HOME=" + e.state, "LANG=C"}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("install.sh: %v\n%s", err, out)
	}
	return string(out)
}

// calls returns the stub calls logged since the last call to calls.
func (e *installEnv) calls(t *testing.T) string {
	t.Helper()
	b, _ := os.ReadFile(e.log)
	os.Remove(e.log)
	return string(b)
}

// TestInstallTwice: install.sh into an empty root installs the programs, the unit, the
// configuration, Mosquitto's files, the user and the I2C settings; a second run changes no file
// and installs nothing again; an edited configuration survives a third run, whose ACL follows
// the new table name, and the MQTT passwords are never re-made (hashing twice spoils them).
func TestInstallTwice(t *testing.T) {
	e := newInstallEnv(t, buildSiamesed(t))
	if err := os.MkdirAll(e.root+"/run/systemd/system", 0o755); err != nil { // systemd runs
		t.Fatal(err)
	}
	out := e.run(t)
	first := e.calls(t)
	for _, want := range []string{"apt-get install -y -qq --no-install-recommends mosquitto mosquitto-clients libopencv-dev gstreamer1.0-plugins-base gstreamer1.0-libcamera",
		"useradd --root " + e.root + " --system", "groupadd --root " + e.root + " --system gpio", "raspi-config nonint do_i2c 0",
		"mosquitto_passwd -U", "systemctl enable siamesed.service mosquitto.service"} {
		if !strings.Contains(first, want) {
			t.Errorf("first run did not call %q; calls:\n%s", want, first)
		}
	}
	if strings.Contains(first, "do_spi") || strings.Contains(first, "groupadd --root "+e.root+" --system video") {
		t.Errorf("first run enabled SPI or made a group that exists:\n%s", first)
	}
	if !strings.Contains(out, "reboot") {
		t.Errorf("first run did not ask for a reboot after turning I2C on:\n%s", out)
	}
	files := []struct{ path, same string }{
		{"/usr/local/bin/siamesed", ""},
		{"/usr/local/bin/siamesed-vision", ""},
		{"/etc/siamesed/siamesed.yaml", "../configs/pi.yaml"},
		{"/etc/systemd/system/siamesed.service", "siamesed.service"},
		{"/etc/mosquitto/conf.d/siamese.conf", "mosquitto.conf"},
		{"/etc/mosquitto/siamese.acl", "mosquitto.acl"},
		{"/etc/mosquitto/siamese.passwd", ""},
		{"/var/lib/siamesed/mqtt/credentials.yaml", ""},
	}
	for _, f := range files {
		got, err := os.ReadFile(e.root + f.path)
		if err != nil {
			t.Errorf("not installed: %v", err)
			continue
		}
		if f.same != "" {
			if want, _ := os.ReadFile(f.same); string(got) != string(want) {
				t.Errorf("%s differs from %s", f.path, f.same)
			}
		}
	}
	passwd := read(t, e.root+"/etc/mosquitto/siamese.passwd")
	for _, u := range []string{"siamesed:$7$hashed$", "display:", "0:", "3:"} {
		if !strings.Contains(passwd, "\n"+u) && !strings.HasPrefix(passwd, u) {
			t.Errorf("siamese.passwd lacks user %q (hashed):\n%s", u, passwd)
		}
	}
	if n := strings.Count(read(t, e.root+"/boot/firmware/config.txt"), "dtoverlay=i2c3,pins_4_5"); n != 1 {
		t.Errorf("config.txt has the i2c3 overlay %d times", n)
	}

	before := tree(t, e.root)
	out = e.run(t)
	second := e.calls(t)
	if d := diffTrees(before, tree(t, e.root)); d != "" {
		t.Errorf("the second run changed the installation:\n%s", d)
	}
	for _, never := range []string{"apt-get", "useradd", "groupadd", "do_i2c", "mosquitto_passwd"} {
		if strings.Contains(second, never) {
			t.Errorf("the second run called %s again:\n%s", never, second)
		}
	}
	if strings.Contains(out, "reboot for") {
		t.Errorf("the second run asked for a reboot again:\n%s", out)
	}

	cfg := e.root + "/etc/siamesed/siamesed.yaml"
	write(t, cfg, strings.Replace(read(t, cfg), "table: table1", "table: club7", 1), 0o644)
	e.run(t)
	if !strings.Contains(read(t, cfg), "table: club7") {
		t.Error("a later run overwrote the edited configuration")
	}
	acl := read(t, e.root+"/etc/mosquitto/siamese.acl")
	if !strings.Contains(acl, "topic readwrite siamese/club7/#") || strings.Contains(acl, "table1/") {
		t.Errorf("the ACL does not follow the table's new name:\n%s", acl)
	}
	if read(t, e.root+"/etc/mosquitto/siamese.passwd") != passwd {
		t.Error("a later run re-made the MQTT passwords")
	}
}

// TestInstallWithoutSystemdOrRaspiConfig: in a container (no systemd running) on a system
// without raspi-config the script carries on and says exactly what is left to do by hand;
// --prefix reaches the unit, --no-camera leaves OpenCV and siamesed-vision out.
func TestInstallWithoutSystemdOrRaspiConfig(t *testing.T) {
	e := newInstallEnv(t, buildSiamesed(t), "raspi-config")
	os.Remove(e.root + "/boot/firmware/config.txt")
	out := e.run(t, "--spi", "--no-camera", "--prefix", "/opt/siamese")
	calls := e.calls(t)
	if !strings.Contains(calls, "apt-get install -y -qq --no-install-recommends mosquitto mosquitto-clients\n") {
		t.Errorf("--no-camera: want Mosquitto installed and no OpenCV:\n%s", calls)
	}
	if _, err := os.Stat(e.root + "/opt/siamese/bin/siamesed-vision"); err == nil {
		t.Error("--no-camera installed siamesed-vision")
	}
	for _, want := range []string{"systemd is not running here", "sudo systemctl daemon-reload && sudo systemctl enable --now mosquitto siamesed",
		"no raspi-config", "dtparam=i2c_arm=on", "i2c-dev in /etc/modules", "dtparam=spi=on", "dtoverlay=i2c3,pins_4_5 to the Pi's config.txt"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(calls, "systemctl") {
		t.Errorf("systemctl called with no systemd running:\n%s", calls)
	}
	unit := read(t, e.root+"/etc/systemd/system/siamesed.service")
	if !strings.Contains(unit, "ExecStart=/opt/siamese/bin/siamesed run") {
		t.Errorf("--prefix did not reach the unit's ExecStart:\n%s", unit)
	}
	if _, err := os.Stat(e.root + "/opt/siamese/bin/siamesed"); err != nil {
		t.Error(err)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func write(t *testing.T, path, body string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), mode); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// tree is every file and directory under root with its mode and content hash.
func tree(t *testing.T, root string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		sum := ""
		if info.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum = fmt.Sprintf("%x", sha256.Sum256(b))
		}
		m[strings.TrimPrefix(p, root)] = info.Mode().String() + " " + sum
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func diffTrees(a, b map[string]string) string {
	var d strings.Builder
	for p, v := range a {
		if b[p] != v {
			fmt.Fprintf(&d, "%s: %q -> %q\n", p, v, b[p])
		}
	}
	for p, v := range b {
		if _, ok := a[p]; !ok {
			fmt.Fprintf(&d, "%s: new %q\n", p, v)
		}
	}
	return d.String()
}
