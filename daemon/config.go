// Package daemon is `siamesed run`: it builds the table from its configuration (racks, camera,
// rules, card), follows the game with the tracker, journals every act before it is shown,
// records finished games in the history, serves the table's public state, and, on the default
// configuration, follows a simulated table (sim/table) at which it seats virtual players
// (sim/players).
package daemon

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/siamesetable/siamesed/internal/userfile"

	"github.com/siamesetable/siamesed/internal/yamlline"
	"github.com/siamesetable/siamesed/sim/table"
	"github.com/siamesetable/siamesed/vision/camspec"
	"gopkg.in/yaml.v3"
)

// Config is the daemon's configuration file (configs/sim.yaml is the default).
type Config struct {
	// Table names the table: the MQTT prefix siamese/<table>/ and the display's title.
	Table string `yaml:"table"`
	// Rules is the ruleset with options: "siamese", "royale-4+nmjl-tournament", or a path.
	Rules string `yaml:"rules"`
	// Card is the card file; empty: the built-in example card.
	Card string `yaml:"card"`
	// Seats names the players, East first, and the two racks each sits at (hardware rack
	// names from the profile).
	Seats []SeatConfig `yaml:"seats"`
	// Hardware is the rack profile: a built-in name (configs/hw/NAME.yaml) or a path.
	Hardware string `yaml:"hardware"`
	// Camera watches the discards: "sim" (the simulated table's camera: synthetic frames
	// through the real vision pipeline in siamesed-vision), "direct" (the simulated camera's
	// reports without frames or OpenCV: fast soaks), "none", or a camera for the vision
	// worker (vision/camspec): a USB camera (/dev/video0, or an index such as 0), the
	// Raspberry Pi Camera Module (libcamera, or libcamera:WIDTHxHEIGHT), a GStreamer pipeline
	// (gst:PIPELINE ending in appsink), or a video file.
	Camera string `yaml:"camera"`
	// Vision is the camera worker (siamesed-vision vision watch) and a real camera's files.
	Vision VisionConfig `yaml:"vision"`
	// HTTP is where the display and /api/state are served.
	HTTP string `yaml:"http"`
	// Session names the session games are tallied in; empty: the day's date.
	Session string `yaml:"session"`
	// Pot is the Royale pot the session pays out (royale rule 16); 0: none.
	Pot PotConfig `yaml:"pot"`
	// Track tunes the tracker.
	Track TrackConfig `yaml:"track"`
	// Sim drives a simulated table with virtual players (used with a simulated profile).
	Sim SimConfig `yaml:"sim"`
	// MQTT is where the table's state goes out and the players' commands come in.
	MQTT MQTTConfig `yaml:"mqtt"`
	// Watchdog: under systemd, how often the daemon tells the watchdog it is alive is read
	// from the unit; this is how long the table loop may stall before the daemon stops
	// telling it (so systemd restarts a stuck daemon).
	Stall Duration `yaml:"stall"`
	// Tournament, when it names an event, makes the table one of a tournament's (tournament.go).
	Tournament TournamentConfig `yaml:"tournament"`
}

// SeatConfig is one player.
type SeatConfig struct {
	Name  string   `yaml:"name"`
	Racks []string `yaml:"racks"`
}

// VisionConfig is the camera worker and a real camera's files (docs/vision.md).
type VisionConfig struct {
	// Worker is the siamesed-vision program; empty: beside siamesed, else on PATH.
	Worker string `yaml:"worker"`
	// Calibration is a real camera's discard area (calibrate camera --out), relative to the
	// data directory unless absolute.
	Calibration string `yaml:"calibration"`
	// Enrolment is the table's faces as the camera saw them (enroll camera --out), relative
	// to the data directory unless absolute.
	Enrolment string `yaml:"enrolment"`
}

// MQTTConfig is the table's broker (docs/mqtt.md).
type MQTTConfig struct {
	// Broker is "embedded" (mochi-mqtt inside the daemon: the default set-up), "none", or an
	// external broker's URL: tcp://host:1883 (Mosquitto with deploy/mosquitto.conf).
	Broker string `yaml:"broker"`
	// Listen is where the embedded broker serves MQTT over TCP. MQTT over WebSocket is served
	// on the HTTP port at /mqtt, so a browser reaches it wherever it reached the page.
	Listen string `yaml:"listen"`
	// WebSocket is an external broker's MQTT-over-WebSocket URL (ws://host:9001), which the
	// daemon passes through at /mqtt on its HTTP port.
	WebSocket string `yaml:"websocket"`
	// Credentials is the users' passwords file; empty: mqtt/credentials.yaml in the data
	// directory, generated on first start.
	Credentials string `yaml:"credentials"`
	// Queue bounds the events waiting for the broker; past it they are dropped, counted and
	// logged.
	Queue int `yaml:"queue"`
}

// PotConfig is a session's pot.
type PotConfig struct {
	Cents  int  `yaml:"cents"`
	Triple bool `yaml:"triple"`
}

// TrackConfig tunes the tracker (engine/track.Config).
type TrackConfig struct {
	AskAfter   Duration `yaml:"ask_after"`
	Grace      Duration `yaml:"grace"`
	FaultWait  Duration `yaml:"fault_wait"`
	CallWindow Duration `yaml:"call_window"`
}

// SimConfig drives the simulated table.
type SimConfig struct {
	// Players: "virtual" (the default on a simulated profile) or "none" (people play, e.g.
	// through commands, on simulated racks).
	Players string `yaml:"players"`
	// Games to play, then stop; 0: play on until stopped.
	Games int `yaml:"games"`
	// Pace is the time one movement of a hand takes (a draw, a discard); 400 ms plays a
	// Siamese game in about three minutes, a wall game (some 230 acts, a drawn tile looked at
	// longer) in about four.
	Pace Duration `yaml:"pace"`
	// Speed runs the simulated table's whole clock this many times as fast as life: hands,
	// rack scans and settle windows, the tracker's waits and the camera alike, so the table
	// plays as at life speed, only sooner (3: a game in about a minute, for people to watch).
	// A shorter pace instead would move hands faster than the racks can settle.
	Speed float64 `yaml:"speed"`
	// Fast: a soak run: a simulated clock, as fast as the machine goes.
	Fast bool `yaml:"fast"`
	// Racks is how a simulated profile's racks are read: "chips" (emulated PN532s, PCA9548As
	// and HX711s read by the real drivers) or "direct" (the same table and noise read without
	// chips or drivers: faster, for long soaks).
	Racks string `yaml:"racks"`
	// Tags is which tags a simulated profile's racks know: "table" (the simulated table's
	// own, every tile enrolled from the start) or "enrol" (only those enrolled in the data
	// directory, as at real racks: walk the enrolment on the set-up page first; virtual
	// players deal only once every tag is enrolled).
	Tags string `yaml:"tags"`
	// Seed makes the games repeatable.
	Seed uint64 `yaml:"seed"`
	// Faults is the chance, per turn, that a player breaks a rule on purpose.
	Faults float64 `yaml:"faults"`
	// Noise is what makes the simulated table hard to read: its sensors' noise, the camera's
	// unknown faces, two hands at once (sim/table.Noise, docs/daemon.md).
	Noise table.Noise `yaml:"noise"`
}

// MinSpeed and MaxSpeed bound sim.speed. Past about 5, the simulated camera's frames take longer
// to draw and watch than the table's clock gives them on a small machine.
const (
	MinSpeed = 0.1
	MaxSpeed = 20.0
)

// Duration reads "300ms", "5s" from YAML.
type Duration time.Duration

// UnmarshalYAML implements yaml.Unmarshaler.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := time.ParseDuration(n.Value)
	if err != nil {
		return fmt.Errorf("line %d: %q is not a duration (like 300ms or 5s)", n.Line, n.Value)
	}
	*d = Duration(v)
	return nil
}

// D is the time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

// Defaults is what every field left out of a configuration takes.
func Defaults() Config {
	return Config{
		Table:    "table1",
		Rules:    "siamese",
		Hardware: "sim-pn532",
		Camera:   "sim",
		Vision:   VisionConfig{Calibration: "camera/calibration.yaml", Enrolment: "camera/enrolled"},
		HTTP:     "127.0.0.1:8080",
		Track:    TrackConfig{AskAfter: Duration(5 * time.Second), Grace: Duration(1500 * time.Millisecond), FaultWait: Duration(300 * time.Millisecond), CallWindow: Duration(10 * time.Second)},
		Sim:      SimConfig{Players: "virtual", Pace: Duration(400 * time.Millisecond), Speed: 1, Seed: 1, Faults: 0.002, Racks: "chips", Tags: "table"},
		Stall:    Duration(30 * time.Second),
		MQTT:     MQTTConfig{Broker: "embedded", Listen: "127.0.0.1:1883", Queue: 4096},
	}
}

// MaxConfigSize bounds a configuration file.
const MaxConfigSize = 1 << 20

// ParseConfig reads a configuration over the defaults and checks it, listing every problem.
func ParseConfig(name string, data []byte) (Config, error) {
	c := Defaults()
	if len(data) > MaxConfigSize {
		return c, fmt.Errorf("%s: %d bytes, more than a configuration may hold", name, len(data))
	}
	if len(bytes.TrimSpace(data)) > 0 {
		dec := yaml.NewDecoder(bytes.NewReader(data))
		dec.KnownFields(true)
		if err := dec.Decode(&c); err != nil && !errors.Is(err, io.EOF) {
			return c, fmt.Errorf("%s: %w", name, yamlline.Explain(data, err))
		}
	}
	if err := c.Check(); err != nil {
		return c, fmt.Errorf("%s: %w", name, err)
	}
	return c, nil
}

// LoadConfig reads a configuration file.
func LoadConfig(path string) (Config, error) {
	data, err := userfile.ReadFile(path, "a configuration", MaxConfigSize)
	if err != nil {
		return Defaults(), fmt.Errorf("daemon: config: %w", err)
	}
	return ParseConfig(path, data)
}

var tableName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$`)

// Check lists every problem in the configuration at once.
func (c *Config) Check() error {
	var errs []error
	bad := func(field, format string, a ...any) {
		errs = append(errs, fmt.Errorf("%s: %s", field, fmt.Sprintf(format, a...)))
	}
	if !tableName.MatchString(c.Table) {
		bad("table", "%q: want 1 to 32 letters, digits, - or _ (it is an MQTT topic level)", c.Table)
	}
	if c.Rules == "" {
		bad("rules", "empty: want siamese, siamese-masters, royale-4, royale-3 (with +nmjl-tournament) or a path")
	}
	racks := map[string]string{}
	for i, s := range c.Seats {
		at := fmt.Sprintf("seats[%d]", i)
		if strings.TrimSpace(s.Name) == "" {
			bad(at+".name", "empty")
		}
		if len(s.Racks) != 2 {
			bad(at+".racks", "%d racks: each player sits at two", len(s.Racks))
		}
		for _, r := range s.Racks {
			if first, ok := racks[r]; ok {
				bad(at+".racks", "rack %q is already %s's", r, first)
			}
			racks[r] = at
		}
	}
	switch c.Camera {
	case "":
		bad("camera", "empty: want sim, direct, none, or a camera (/dev/video0, libcamera, gst:PIPELINE)")
	case "sim", "direct", "none":
	default:
		if _, err := camspec.Parse(c.Camera); err != nil {
			bad("camera", "%v (or sim, direct, none)", err)
		}
		if c.Vision.Calibration == "" || c.Vision.Enrolment == "" {
			bad("vision", "camera %s needs vision.calibration and vision.enrolment", c.Camera)
		}
	}
	if c.HTTP == "" {
		bad("http", "empty: want host:port, e.g. 127.0.0.1:8080")
	}
	if c.Pot.Cents < 0 {
		bad("pot.cents", "negative")
	}
	between := func(field string, d Duration, lo, hi time.Duration) {
		if d.D() < lo || d.D() > hi {
			bad(field, "%v is outside %v to %v", d.D(), lo, hi)
		}
	}
	between("track.ask_after", c.Track.AskAfter, time.Second, 10*time.Minute)
	between("track.grace", c.Track.Grace, 100*time.Millisecond, time.Minute)
	between("track.fault_wait", c.Track.FaultWait, 50*time.Millisecond, time.Minute)
	if c.Track.CallWindow != 0 {
		between("track.call_window", c.Track.CallWindow, time.Second, 10*time.Minute)
	}
	between("stall", c.Stall, 5*time.Second, time.Hour)
	switch c.Sim.Players {
	case "virtual", "none":
	default:
		bad("sim.players", "%q: want virtual or none", c.Sim.Players)
	}
	switch c.Sim.Racks {
	case "chips", "direct":
	default:
		bad("sim.racks", "%q: want chips or direct", c.Sim.Racks)
	}
	switch c.Sim.Tags {
	case "table":
	case "enrol":
	default:
		bad("sim.tags", "%q: want table or enrol", c.Sim.Tags)
	}
	if c.Sim.Games < 0 {
		bad("sim.games", "negative")
	}
	between("sim.pace", c.Sim.Pace, 10*time.Millisecond, time.Minute)
	switch {
	case !(c.Sim.Speed >= MinSpeed && c.Sim.Speed <= MaxSpeed):
		bad("sim.speed", "%g is outside %g to %g (times as fast as life)", c.Sim.Speed, MinSpeed, MaxSpeed)
	case c.Sim.Fast && c.Sim.Speed != 1:
		bad("sim.speed", "%g with sim.fast: a soak runs as fast as the machine goes; speed is for a table on the real clock", c.Sim.Speed)
	}
	if p := c.Sim.Faults; !(p >= 0 && p <= 0.5) {
		bad("sim.faults", "%g is outside 0 to 0.5 (a chance)", p)
	}
	for _, err := range c.Sim.Noise.Validate() {
		errs = append(errs, fmt.Errorf("sim.noise.%w", err))
	}
	errs = append(errs, c.MQTT.check()...)
	errs = append(errs, c.Tournament.check()...)
	return errors.Join(sortErrs(errs)...)
}

// check lists the problems of the mqtt section.
func (m MQTTConfig) check() []error {
	var errs []error
	bad := func(field, format string, a ...any) {
		errs = append(errs, fmt.Errorf("mqtt.%s: %s", field, fmt.Sprintf(format, a...)))
	}
	switch {
	case m.Broker == "embedded":
		if m.Listen == "" {
			bad("listen", "empty: want host:port for the embedded broker, e.g. 127.0.0.1:1883")
		} else if _, _, err := net.SplitHostPort(m.Listen); err != nil {
			bad("listen", "%q: want host:port (%v)", m.Listen, err)
		}
		if m.WebSocket != "" {
			bad("websocket", "only for an external broker: the embedded one serves /mqtt on the HTTP port")
		}
	case m.Broker == "none":
	case strings.HasPrefix(m.Broker, "tcp://") || strings.HasPrefix(m.Broker, "mqtt://"):
		if u, err := url.Parse(m.Broker); err != nil || u.Port() == "" {
			bad("broker", "%q: want tcp://host:port", m.Broker)
		}
		if m.WebSocket != "" && !strings.HasPrefix(m.WebSocket, "ws://") && !strings.HasPrefix(m.WebSocket, "wss://") {
			bad("websocket", "%q: want ws://host:port (the broker's MQTT-over-WebSocket listener)", m.WebSocket)
		}
	default:
		bad("broker", "%q: want embedded, none, or tcp://host:port", m.Broker)
	}
	if m.Queue < 16 || m.Queue > 1<<20 {
		bad("queue", "%d is outside 16 to %d", m.Queue, 1<<20)
	}
	return errs
}

// sortErrs orders problems by field, so the same file always lists them the same way.
func sortErrs(errs []error) []error {
	for i := 1; i < len(errs); i++ {
		for j := i; j > 0 && errs[j].Error() < errs[j-1].Error(); j-- {
			errs[j], errs[j-1] = errs[j-1], errs[j]
		}
	}
	return errs
}
