package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/hw/build"
	"github.com/siamesetable/siamesed/hw/config"
	"github.com/siamesetable/siamesed/hw/hwtest"
	"github.com/siamesetable/siamesed/internal/clock"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/conn/v3/spi"
)

// stepClock is a clock whose timers fire at once, moving time forward by their duration: the
// commands' wait loops run instantly and deterministically.
type stepClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *stepClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *stepClock) NewTimer(d time.Duration) (clock.Timer, <-chan time.Time) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	ch := make(chan time.Time, 1)
	ch <- c.now
	c.mu.Unlock()
	return stopped{}, ch
}
func (c *stepClock) AfterFunc(d time.Duration, f func()) clock.Timer {
	c.NewTimer(d)
	go f()
	return stopped{}
}

type stopped struct{}

func (stopped) Stop() bool               { return false }
func (stopped) Reset(time.Duration) bool { return false }

func useStepClock(t *testing.T) {
	old := hwClock
	hwClock = &stepClock{now: time.Date(2026, 11, 22, 8, 0, 0, 0, time.UTC)}
	t.Cleanup(func() { hwClock = old })
}

func hwRun(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := dispatch(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func copyProfile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("../../configs/hw", name))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestHWScanSim(t *testing.T) {
	useStepClock(t)
	code, out, errs := hwRun(t, "hw", "scan", "--profile", "../../configs/hw/sim.yaml")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"p1a/in count=0 tags=0 weight=0 ok []", "p2b/on ok"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = hwRun(t, "hw", "scan", "--profile", "../../configs/hw/sim.yaml", "--json")
	var rep hwScanReport
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil || len(rep.Zones) != 8 || rep.Zones[0].Snapshot == nil {
		t.Fatalf("json exit %d: %s", code, out)
	}
}

func TestEnrollTagsStopAndResume(t *testing.T) {
	useStepClock(t)
	data := t.TempDir()
	code, out, errs := hwRun(t, "enroll", "tags", "--profile", "sim", "--data", data, "--limit", "5")
	if code != 0 || !strings.Contains(out, "5/152 2B <- ") || !strings.Contains(out, "rejected: tag 04:01:00:00:03 is already enrolled as 1B") {
		t.Fatalf("exit %d %s:\n%s", code, errs, out)
	}
	// A second session resumes at 5/152; its stream shows a tag of the first session again.
	code, out, errs = hwRun(t, "enroll", "tags", "--profile", "sim", "--data", data, "--limit", "32", "--sim-seed", "1")
	if code != 0 || !strings.Contains(out, "5/152 already enrolled") || !strings.Contains(out, "37/152 ") {
		t.Fatalf("exit %d %s:\n%s", code, errs, out)
	}
	b, _ := os.ReadFile(filepath.Join(data, "tags.yaml"))
	if n := strings.Count(string(b), "\n") - 1; n != 37 {
		t.Fatalf("tags.yaml has %d tags:\n%s", n, b)
	}
}

// cellHost fakes the periph host for a loadcell profile: HX711 fakes by pin name.
type cellHost struct{ pins map[string]gpio.PinIO }

func (h cellHost) OpenI2C(string) (i2c.BusCloser, error)  { return nil, os.ErrNotExist }
func (h cellHost) OpenSPI(string) (spi.PortCloser, error) { return nil, os.ErrNotExist }
func (h cellHost) Pin(n string) (gpio.PinIO, error) {
	if p, ok := h.pins[n]; ok {
		return p, nil
	}
	return nil, os.ErrNotExist
}

// fakeCells makes hwOpenHost hand out HX711 fakes for every cell of the profile at p, each
// reading a tare of 50 000 and then 100 g at 410 counts/g, and feeds Enter presses to
// calibrate load.
func fakeCells(t *testing.T, p string) {
	t.Helper()
	prof, err := config.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	pins := map[string]gpio.PinIO{}
	for _, r := range prof.Racks {
		for _, c := range r.Cells {
			var samples []int32
			for i := 0; i < 5; i++ {
				samples = append(samples, 50_000) // tare
			}
			for i := 0; i < 5; i++ {
				samples = append(samples, 50_000+100*410) // 100 g at 410 counts/g
			}
			h := hwtest.NewHX711(samples...)
			pins[c.Clk], pins[c.Data] = h.Clk, h.Data
		}
	}
	old, oldIn := hwOpenHost, hwStdin
	hwOpenHost = func() (build.Host, error) { return cellHost{pins}, nil }
	hwStdin = strings.NewReader(strings.Repeat("\n", 8))
	t.Cleanup(func() { hwOpenHost, hwStdin = old, oldIn })
}

func TestCalibrateLoad(t *testing.T) {
	p := copyProfile(t, "loadcell-rack.yaml")
	fakeCells(t, p)
	data := t.TempDir()
	code, out, errs := hwRun(t, "calibrate", "load", "--profile", p, "--data", data)
	if code != 0 || strings.Count(out, "410.00 counts/g") != 4 {
		t.Fatalf("exit %d %s:\n%s", code, errs, out)
	}
	cals, err := config.LoadCalibrations(filepath.Join(data, "calibration.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := cals.Get("p1b", "on"); !ok || c.Offset != 50_000 || c.CountsPerGram != 410 {
		t.Fatalf("saved %+v %v", c, ok)
	}
}

// busHost hands out one recorded-traffic bus.
type busHost struct {
	cellHost
	bus i2c.BusCloser
}

func (h busHost) OpenI2C(string) (i2c.BusCloser, error) { return h.bus, nil }

type nopCloseBus struct{ *i2ctest.Playback }

func (nopCloseBus) Close() error { return nil }

func TestHWScanRecordsTraffic(t *testing.T) {
	useStepClock(t)
	dir := t.TempDir()
	prof := filepath.Join(dir, "one.yaml")
	os.WriteFile(prof, []byte("kind: pn532\ni2c_bus: \"1\"\nracks:\n  - name: r\n    readers: [{zone: in, mux: 0x70, ports: [0]}]\n"), 0o644)
	// The mux answers its probe; the PN532 behind it never does: the reader is reported, the
	// scan still completes, and the traffic is recorded.
	pb := &i2ctest.Playback{DontPanic: true, Ops: []i2ctest.IO{{Addr: 0x70, R: []byte{0}}}}
	old := hwOpenHost
	hwOpenHost = func() (build.Host, error) { return busHost{bus: nopCloseBus{pb}}, nil }
	t.Cleanup(func() { hwOpenHost = old })
	rec := filepath.Join(dir, "rec.json")
	code, out, errs := hwRun(t, "hw", "scan", "--profile", prof, "--record", rec)
	if code != 0 || !strings.Contains(out, "r/in in-00@mux70.0: FAULT") || !strings.Contains(out, "DEGRADED") {
		t.Fatalf("exit %d %s:\n%s", code, errs, out)
	}
	var got map[string][]i2ctest.IO
	b, _ := os.ReadFile(rec)
	if err := json.Unmarshal(b, &got); err != nil || len(got["1"]) != 1 || got["1"][0].Addr != 0x70 {
		t.Fatalf("recording %s (%v)", b, err)
	}
}

// TestHWScanSimulatedPN532: a simulated profile builds the emulated table: the real drivers
// report each emulated chip's firmware and read the tiles dealt, the kong on p1a showing two of
// its four tags.
func TestHWScanSimulatedPN532(t *testing.T) {
	useStepClock(t)
	code, out, errs := hwRun(t, "hw", "scan", "--profile", "../../configs/hw/sim-pn532.yaml")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if n := strings.Count(out, ": ok PN532 v1.6"); n != 76 {
		t.Errorf("%d readers report their firmware, want 76:\n%s", n, out)
	}
	for _, want := range []string{"p1a/on count=4 tags=2 weight=4 disagree [N N]", "p2b/in count=13 tags=13 weight=13 ok"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "FAULT") {
		t.Errorf("a reader failed:\n%s", out)
	}
	rec := filepath.Join(t.TempDir(), "rec.json")
	code, _, errs = hwRun(t, "hw", "scan", "--profile", "../../configs/hw/sim-pn532.yaml", "--sim-deal=false", "--record", rec)
	var got map[string][]i2ctest.IO
	b, _ := os.ReadFile(rec)
	if code != 0 || json.Unmarshal(b, &got) != nil || len(got["1"]) == 0 || len(got["3"]) == 0 {
		t.Fatalf("exit %d %s: recording of the emulated buses %.200s", code, errs, b)
	}
	for _, cmd := range [][]string{{"enroll", "tags"}, {"calibrate", "load"}} {
		code, _, errs := hwRun(t, append(cmd, "--profile", "../../configs/hw/sim-pn532.yaml")...)
		if code == 0 || !strings.Contains(errs, "is a simulated table") {
			t.Errorf("%v on the simulated table: exit %d %s", cmd, code, errs)
		}
	}
}
