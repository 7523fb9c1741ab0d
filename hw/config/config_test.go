package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/siamesetable/siamesed/hw/loadcell"
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

func FuzzParse(f *testing.F) {
	for _, name := range []string{"pn532-rack.yaml", "sim.yaml"} {
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
