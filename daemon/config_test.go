package daemon

import (
	"strings"
	"testing"

	"github.com/siamesetable/siamesed/configs"
)

// TestDefaultConfigsAreValid: the defaults and every configuration shipped are accepted.
func TestDefaultConfigsAreValid(t *testing.T) {
	d := Defaults()
	if err := d.Check(); err != nil {
		t.Fatalf("the defaults: %v", err)
	}
	ents, err := configs.Files.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".yaml") {
			continue
		}
		b, err := configs.Files.ReadFile(e.Name())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ParseConfig(e.Name(), b); err != nil {
			t.Errorf("configs/%s: %v", e.Name(), err)
		}
		n++
	}
	if n == 0 {
		t.Fatal("no configuration is embedded")
	}
}

// TestConfigListsEveryProblem: a configuration with many mistakes names each of them at once,
// by field; a YAML mistake names its line.
func TestConfigListsEveryProblem(t *testing.T) {
	bad := `
table: "table one"
rules: ""
seats:
  - {name: "", racks: [a]}
  - {name: West, racks: [a, b]}
camera: ""
http: ""
pot: {cents: -5}
track: {ask_after: 1ms, grace: 2h, fault_wait: 10ms}
stall: 1s
sim:
  players: robots
  racks: drivers
  tags: stickers
  games: -1
  pace: 1ns
  speed: 0
  faults: 0.9
  noise: {tag_dropout: -0.1, weak_readers: 0.2, hand_burst: 0.7, burst_length: 2m, off_centre: 1.5, overlap: 0.6, unknown_discard: -1}
`
	_, err := ParseConfig("bad.yaml", []byte(bad))
	if err == nil {
		t.Fatal("a configuration full of mistakes was accepted")
	}
	for _, want := range []string{
		"bad.yaml: ", "table: \"table one\"", "rules: empty", "seats[0].name: empty", "seats[0].racks: 1 racks",
		"seats[1].racks: rack \"a\" is already seats[0]'s", "camera: empty", "http: empty", "pot.cents: negative",
		"track.ask_after: 1ms is outside", "track.grace: 2h0m0s is outside", "track.fault_wait: 10ms is outside", "stall: 1s is outside",
		"sim.players: \"robots\"", "sim.racks: \"drivers\": want chips or direct", "sim.tags: \"stickers\": want table or enrol", "sim.games: negative", "sim.pace: 1ns is outside", "sim.speed: 0 is outside", "sim.faults: 0.9 is outside",
		"sim.noise.tag_dropout: -0.1 is outside", "sim.noise.weak_dropout: 0 with weak_readers 0.2", "sim.noise.hand_burst: 0.7 is outside 0 to 0.5",
		"sim.noise.burst_length: 2m0s is outside 0 to 1m", "sim.noise.off_centre: 1.5 is outside 0 to 1", "sim.noise.overlap: 0.6 is outside",
		"sim.noise.unknown_discard: -1 is outside",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q:\n%v", want, err)
		}
	}
	for _, c := range []struct{ yaml, want string }{
		{"table: t\nsim:\n  pase: 1s\n", "line 3"},
		{"table: t\ntrack:\n  grace: soon\n", "line 3: \"soon\" is not a duration"},
		{"table: [\n", "bad.yaml"},
		{"camera: /dev/video0\nvision: {calibration: \"\"}\n", "vision: camera /dev/video0 needs vision.calibration and vision.enrolment"},
		{"camera: usb\n", `camera: not a camera: camera "usb": neither a device`},
		{"camera: libcamera:720p\n", `camera: not a camera: camera "libcamera:720p": size "720p"`},
		{"camera: \"gst:videotestsrc\"\n", "must end in appsink"},
		{"sim: {fast: true, speed: 3}\n", "sim.speed: 3 with sim.fast"},
		{"sim: {speed: .nan}\n", "sim.speed: NaN is outside"},
	} {
		_, err := ParseConfig("bad.yaml", []byte(c.yaml))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want it to say %q", c.yaml, err, c.want)
		}
	}
	if _, err := ParseConfig("big.yaml", make([]byte, MaxConfigSize+1)); err == nil {
		t.Error("a configuration over the size limit was read")
	}
}

// FuzzParseConfig: any bytes give a configuration or an error, never a panic, and a
// configuration accepted passes its own check.
func FuzzParseConfig(f *testing.F) {
	for _, name := range []string{"sim.yaml", "sim-wp.yaml"} {
		b, err := configs.Files.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("sim: {pace: 1s, noise: {ghost_tag: 0.1}}\n"))
	f.Add([]byte("sim: {noise: {weak_readers: 0.1, weak_dropout: 0.3, hand_burst: 0.002, burst_length: 1s, off_centre: 0.02, overlap: 0.1}}\n"))
	f.Add([]byte("seats: [{name: a, racks: [x, y]}]\ntrack: {grace: 3s}"))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := ParseConfig("fuzz.yaml", b)
		if err == nil {
			if err := c.Check(); err != nil {
				t.Fatalf("accepted but fails its check: %v", err)
			}
		}
	})
}

// Every kind of camera the worker reads is a valid camera: setting (with the camera's files).
func TestConfigCameras(t *testing.T) {
	for _, cam := range []string{"/dev/video0", "0", "libcamera", "libcamera:1640x1232", `"gst:v4l2src device=/dev/video2 ! videoconvert ! appsink"`, "/var/lib/siamesed/session.mkv"} {
		y := "camera: " + cam + "\nvision: {calibration: camera/calibration.yaml, enrolment: camera/enrolled}\n"
		if _, err := ParseConfig("pi.yaml", []byte(y)); err != nil {
			t.Errorf("camera: %s: %v", cam, err)
		}
	}
}
