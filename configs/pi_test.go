package configs_test

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/siamesetable/siamesed/daemon"
	"github.com/siamesetable/siamesed/hw/config"
	"github.com/siamesetable/siamesed/hw/rack"
)

// mdTable returns the rows of the first Markdown table after the line holding heading, each
// row its trimmed cells, the header and the |---| line left out.
func mdTable(doc, heading string) [][]string {
	i := strings.Index(doc, heading)
	if i < 0 {
		return nil
	}
	var rows [][]string
	started := false
	for _, line := range strings.Split(doc[i:], "\n")[1:] {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "|") {
			if started {
				break
			}
			continue
		}
		started = true
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for j := range cells {
			cells[j] = strings.TrimSpace(cells[j])
		}
		rows = append(rows, cells)
	}
	if len(rows) < 2 {
		return nil
	}
	return rows[2:]
}

// bcmPhysical is the 40-pin header of a Raspberry Pi (every model since the B+): BCM GPIO
// number to physical pin.
var bcmPhysical = map[int]int{0: 27, 1: 28, 2: 3, 3: 5, 4: 7, 5: 29, 6: 31, 7: 26, 8: 24, 9: 21, 10: 19,
	11: 23, 12: 32, 13: 33, 14: 8, 15: 10, 16: 36, 17: 11, 18: 12, 19: 35, 20: 38, 21: 40, 22: 15,
	23: 16, 24: 18, 25: 22, 26: 37, 27: 13}

var (
	cellRow = regexp.MustCompile("^(p[12][ab]) (in|on) HX711 PD_SCK / DOUT$")
	pinPair = regexp.MustCompile(`^GPIO(\d+) \((\d+)\) / GPIO(\d+) \((\d+)\)$`)
	busRow  = regexp.MustCompile("^racks (p[12][ab]), (p[12][ab]): PCA9548 0x70-0x75 .*\\(bus `\"(\\d)\"`")
	muxRow  = regexp.MustCompile(`^0x(7[0-7])$`)
	portsRe = regexp.MustCompile(`^(\d)(?:-(\d))?$`)
	slotRe  = regexp.MustCompile("^`(in|on)-(\\d\\d)@mux(7[0-7])\\.(\\d)`(?: \\.\\. `(in|on)-(\\d\\d)@mux(7[0-7])\\.(\\d)`)?$")
)

// TestPiConfigMatchesTheWiring: configs/pi.yaml loads as a daemon configuration, its hardware
// profile loads, every seat's racks are in the profile, and the profile is wired exactly as
// docs/hardware.md's tables say: the HX711 pins of each zone (and the header's physical pin
// numbers beside them), each rack's I2C bus, and the multiplexer address, channels and slot
// names of every reader.
func TestPiConfigMatchesTheWiring(t *testing.T) {
	cfg, err := daemon.LoadConfig("pi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Camera == "sim" || cfg.Camera == "direct" || cfg.Camera == "none" {
		t.Errorf("camera %q: the Pi watches a real camera", cfg.Camera)
	}
	if cfg.MQTT.Broker != "tcp://127.0.0.1:1883" {
		t.Errorf("mqtt.broker %q: want the Pi's Mosquitto, tcp://127.0.0.1:1883", cfg.MQTT.Broker)
	}
	p, path, err := daemon.LoadProfile(cfg.Hardware)
	if err != nil {
		t.Fatal(err)
	}
	if path != "" || p.Simulated || p.Kind != config.KindPN532 {
		t.Fatalf("hardware %q: want a built-in, real PN532 profile (path %q, simulated %v, kind %s)", cfg.Hardware, path, p.Simulated, p.Kind)
	}
	racks := map[string]config.Rack{}
	for _, r := range p.Racks {
		racks[r.Name] = r
	}
	for _, s := range cfg.Seats {
		for _, r := range s.Racks {
			if _, ok := racks[r]; !ok {
				t.Errorf("seat %s sits at rack %q, which %s does not have", s.Name, r, cfg.Hardware)
			}
		}
	}
	b, err := os.ReadFile("../docs/hardware.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	checkPins(t, mdTable(doc, "### Wiring: Raspberry Pi"), racks)
	checkMuxes(t, mdTable(doc, "### Wiring: inside one rack"), racks)
}

// checkPins compares the Pi header table with the profile's cells and buses.
func checkPins(t *testing.T, rows [][]string, racks map[string]config.Rack) {
	t.Helper()
	cells, buses := 0, 0
	used := map[string]string{}
	for _, row := range rows {
		if len(row) < 3 {
			t.Fatalf("docs/hardware.md: Pi wiring row %q has %d cells", row, len(row))
		}
		if m := busRow.FindStringSubmatch(row[2]); m != nil {
			buses++
			for _, name := range m[1:3] {
				if r, ok := racks[name]; !ok || r.I2CBus != m[3] {
					t.Errorf("docs/hardware.md puts rack %s on I2C bus %s; the profile: %q", name, m[3], r.I2CBus)
				}
			}
		}
		m := cellRow.FindStringSubmatch(row[0])
		if m == nil {
			continue
		}
		cells++
		pins := pinPair.FindStringSubmatch(row[1])
		if pins == nil {
			t.Errorf("docs/hardware.md: %s: pins %q are not GPIOn (p) / GPIOn (p)", row[0], row[1])
			continue
		}
		for _, k := range []int{1, 3} {
			bcm, _ := strconv.Atoi(pins[k])
			phys, _ := strconv.Atoi(pins[k+1])
			if bcmPhysical[bcm] != phys {
				t.Errorf("docs/hardware.md: %s: GPIO%d is physical pin %d, not %d", row[0], bcm, bcmPhysical[bcm], phys)
			}
			if first, ok := used["GPIO"+pins[k]]; ok {
				t.Errorf("docs/hardware.md: GPIO%s is both %s and %s", pins[k], first, row[0])
			}
			used["GPIO"+pins[k]] = row[0]
		}
		r := racks[m[1]]
		i := slices.IndexFunc(r.Cells, func(c config.Cell) bool { return c.Zone == rack.Zone(m[2]) })
		if i < 0 {
			t.Errorf("docs/hardware.md wires a load cell for %s %s; the profile has none", m[1], m[2])
			continue
		}
		if c := r.Cells[i]; c.Clk != "GPIO"+pins[1] || c.Data != "GPIO"+pins[3] {
			t.Errorf("%s %s: docs/hardware.md says PD_SCK GPIO%s, DOUT GPIO%s; the profile: clk %s, data %s", m[1], m[2], pins[1], pins[3], c.Clk, c.Data)
		}
	}
	want := 0
	for _, r := range racks {
		want += len(r.Cells)
	}
	if cells != want || buses != 2 {
		t.Errorf("docs/hardware.md wires %d load cells and %d rack pairs' buses; the profile has %d cells, want 2 buses", cells, buses, want)
	}
}

// checkMuxes compares the table of one rack's multiplexers with every rack's readers: p1a's
// rows as written, p1b's three addresses higher (the table's last row), and p2a, p2b on the
// second bus as p1a, p1b.
func checkMuxes(t *testing.T, rows [][]string, racks map[string]config.Rack) {
	t.Helper()
	type group struct {
		zone  rack.Zone
		mux   uint16
		ports []int
		first string // the first slot's name, e.g. in-08@mux71.0
	}
	var want []group
	for _, row := range rows {
		if len(row) < 4 {
			t.Fatalf("docs/hardware.md: rack wiring row %q has %d cells", row, len(row))
		}
		m, pr, sl := muxRow.FindStringSubmatch(row[0]), portsRe.FindStringSubmatch(row[2]), slotRe.FindStringSubmatch(row[3])
		if m == nil {
			continue // the row saying p1b uses 0x73-0x75 the same way
		}
		if pr == nil || sl == nil {
			t.Fatalf("docs/hardware.md: rack wiring row %q: channels or slots unreadable", row)
		}
		mux, _ := strconv.ParseUint(m[1], 16, 16)
		lo, _ := strconv.Atoi(pr[1])
		hi := lo
		if pr[2] != "" {
			hi, _ = strconv.Atoi(pr[2])
		}
		var ports []int
		for p := lo; p <= hi; p++ {
			ports = append(ports, p)
		}
		if sl[3] != m[1] || sl[4] != pr[1] {
			t.Errorf("docs/hardware.md: row %q names slot %s on mux %s channel %s", row, sl[0], sl[3], sl[4])
		}
		want = append(want, group{zone: rack.Zone(sl[1]), mux: uint16(mux), ports: ports, first: strings.Trim(strings.Fields(sl[0])[0], "`")})
	}
	if len(want) == 0 {
		t.Fatal("docs/hardware.md: no multiplexer rows found under \"Wiring: inside one rack\"")
	}
	for name, offset := range map[string]uint16{"p1a": 0, "p1b": 3, "p2a": 0, "p2b": 3} {
		r, ok := racks[name]
		if !ok {
			t.Errorf("the profile has no rack %s", name)
			continue
		}
		if len(r.Readers) != len(want) {
			t.Errorf("%s: %d reader groups, docs/hardware.md lists %d", name, len(r.Readers), len(want))
			continue
		}
		counts := map[rack.Zone]int{}
		for i, g := range want {
			rd := r.Readers[i]
			if rd.Zone != g.zone || rd.Mux != g.mux+offset || !slices.Equal(rd.Ports, g.ports) {
				t.Errorf("%s reader group %d: profile %s mux %#x ports %v; docs/hardware.md: %s mux %#x ports %v", name, i, rd.Zone, rd.Mux, rd.Ports, g.zone, g.mux+offset, g.ports)
			}
			// Slot names as the driver builds them (hw/build): zone, count in zone, mux, port.
			if offset == 0 {
				if got := fmt.Sprintf("%s-%02d@mux%x.%d", rd.Zone, counts[rd.Zone], rd.Mux, rd.Ports[0]); got != g.first {
					t.Errorf("%s reader group %d: first slot %s, docs/hardware.md names it %s", name, i, got, g.first)
				}
			}
			counts[rd.Zone] += len(rd.Ports)
		}
	}
}

// FuzzMDTable: the Markdown table reader takes any text without panicking.
func FuzzMDTable(f *testing.F) {
	f.Add("### Wiring\n\n| a | b |\n|---|---|\n| 1 | 2 |\n", "### Wiring")
	f.Add("| x |\n", "")
	f.Fuzz(func(t *testing.T, doc, heading string) {
		for _, row := range mdTable(doc, heading) {
			_ = row
		}
	})
}
