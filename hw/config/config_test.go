package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/hw/loadcell"
	"github.com/siamesetable/siamesed/hw/rack"
)

func TestShippedProfilesLoad(t *testing.T) {
	files, _ := filepath.Glob("../../configs/hw/*.yaml")
	if len(files) < 4 {
		t.Fatalf("found %d profiles in configs/hw", len(files))
	}
	for _, f := range files {
		if _, err := Load(f); err != nil {
			t.Errorf("%v", err)
		}
	}
}

func TestReferenceRackHas19Slots(t *testing.T) {
	p, err := Load("../../configs/hw/pn532-rack.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range p.Racks {
		if r.Slots() != 19 {
			t.Errorf("rack %s has %d slots", r.Name, r.Slots())
		}
	}
}

func TestAllProblemsListed(t *testing.T) {
	_, err := Parse([]byte(`
kind: pn532
racks:
  - name: a
    readers:
      - {zone: in, mux: 0x69, ports: [0, 9]}
      - {zone: under, mux: 0x70, ports: [1, 1]}
  - name: a
    cells: [{zone: in}, {zone: on, clk: GPIO5, data: GPIO5}]
`))
	if err == nil {
		t.Fatal("accepted")
	}
	for _, want := range []string{"racks[0].readers[0].mux", "port 9", "racks[0].readers[1].zone", "port 1 used twice", "racks[1].name", "racks[1].readers", "racks[1].cells[0]", "racks[1].cells[1].data: pin GPIO5 already used by racks[1].cells[1].clk"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not mention %q:\n%v", want, err)
		}
	}
}

// TestTwoRacksOnOneChannel: racks on one bus cannot share a mux channel (two PN532s would answer
// 0x24 together); on different buses they can.
func TestTwoRacksOnOneChannel(t *testing.T) {
	doc := `
kind: pn532
i2c_bus: "1"
racks:
  - name: a
    readers: [{zone: in, mux: 0x70, ports: [0, 1]}]
  - name: b
    i2c_bus: BUS
    readers: [{zone: in, mux: 0x70, ports: [1, 2]}]
`
	_, err := Parse([]byte(strings.Replace(doc, "BUS", `"1"`, 1)))
	if err == nil || !strings.Contains(err.Error(), `racks[1].readers[0].ports: mux 0x70 port 1 of I2C bus "1" is rack a's already`) {
		t.Fatalf("err = %v", err)
	}
	if _, err := Parse([]byte(strings.Replace(doc, "BUS", `"3"`, 1))); err != nil {
		t.Fatalf("racks on two buses: %v", err)
	}
}

func FuzzParse(f *testing.F) {
	for _, name := range []string{"pn532-rack.yaml", "sim.yaml", "sim-pn532.yaml"} {
		if b, err := os.ReadFile(filepath.Join("../../configs/hw", name)); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("kind: sim\nracks: [{name: x}]"))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := Parse(b)
		if err != nil {
			return
		}
		if p.Validate() != nil || p.Settle <= 0 {
			t.Fatalf("Parse returned an invalid profile %+v", p)
		}
	})
}

func TestCalibrationsRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cal.yaml")
	c, err := LoadCalibrations(path)
	if err != nil || len(c) != 0 {
		t.Fatalf("missing file: %v %v", c, err)
	}
	c.Set("p1a", "in", loadcell.Calibration{Offset: 84000, CountsPerGram: 420.5})
	if err := SaveCalibrations(path, c); err != nil {
		t.Fatal(err)
	}
	c2, err := LoadCalibrations(path)
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := c2.Get("p1a", "in"); !ok || v.Offset != 84000 || v.CountsPerGram != 420.5 {
		t.Fatalf("read back %+v %v", v, ok)
	}
}

// TestTimingsHaveSaneRanges: a 2,000-hour settle or a 1 ns scan period (a busy loop on the bus)
// is refused, and the error says the range and what the field is for.
func TestTimingsHaveSaneRanges(t *testing.T) {
	for _, c := range []struct{ edit, want string }{
		{"settle: 1000h", "settle: 1000h0m0s is outside 100ms to 30s"},
		{"period: 1ns", "period: 1ns is outside 10ms to 5s"},
		{"settle: 50ms", "settle: 50ms is outside"},
		{"period: 2s", "period: 2s is longer than settle"},
		{"tile_grams: 1000", "tile_grams: 1000 is outside 1 to 100"},
		{"i2c_speed_hz: 5", "i2c_speed_hz: 5 is outside"},
		{"simulated: true", "simulated: kind sim is simulated already"},
		{"presence: {delta: 0.5}", "presence.delta: 0.5 is outside 0 to 0.01"},
		{"presence: {new_delta: 2}", "presence.new_delta: 2 is outside"},
		{"presence: {ghost: -1}", "presence.ghost: -1 is outside 0 to 0.5"},
		{"presence: {burst_hold: 1h}", "presence.burst_hold: 1h0m0s is outside 0 to 1m"},
		{"presence: {window: 5}", "presence.window: 5 is outside 20 to 100000"},
		{"presence: {warn_rate: 1}", "presence.warn_rate: 1 is outside 0 to 1"},
		{"presence: {settle: 1s}", `unknown field "settle"`},
	} {
		doc := "kind: sim\n" + c.edit + "\nracks:\n  - name: a\n"
		_, err := Parse([]byte(doc))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.edit, err, c.want)
		}
	}
	if _, err := Parse([]byte("kind: sim\nsettle: 300ms\nperiod: 50ms\nracks:\n  - name: a\n")); err != nil {
		t.Errorf("the sim defaults: %v", err)
	}
	p, err := Parse([]byte("kind: sim\nsettle: 400ms\npresence: {delta: 1e-6, burst_hold: 3s}\nracks:\n  - name: a\n"))
	if err != nil {
		t.Fatal(err)
	}
	if q := p.Params(); q.Settle != 400*time.Millisecond || q.Delta != 1e-6 || q.BurstHold != 3*time.Second || q.Ghost != rack.DefaultGhost {
		t.Errorf("params %+v", q)
	}
}

func TestEmptyAndMisindentedProfiles(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{"", "the profile is empty: want kind"},
		{"   \n\n", "the profile is empty"},
		{"# nothing yet\n", "holds only comments: want kind and racks"},
		{"kind: sim\nracks:\n  - name: a\n   cells: []\n", "line 4: indented 3 spaces"},
		{"kind: sim\nracks:\n- name: a\n  readers:\n    - zone: in\n     mux: 0x70\n", "line 6: indented 5 spaces"},
	} {
		_, err := Parse([]byte(c.doc))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err = %v, want %q", c.doc, err, c.want)
		}
	}
}
