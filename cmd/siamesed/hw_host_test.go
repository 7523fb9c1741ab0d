package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/siamesetable/siamesed/hw/build"
	"github.com/siamesetable/siamesed/hw/hwtest"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/spi"
)

// noHardware is periph's registries on a machine with I2C, SPI and GPIO all switched off: the
// errors are periph's own words.
var noHardware = hwPeriphHost{
	openI2C: func(string) (i2c.BusCloser, error) {
		return nil, errors.New("i2creg: no bus found; did you forget to call Init()?")
	},
	openSPI: func(string) (spi.PortCloser, error) {
		return nil, errors.New("spireg: no port found; did you forget to call Init()?")
	},
	pin: func(string) gpio.PinIO { return nil },
}

func useHost(t *testing.T, h build.Host) {
	old := hwOpenHost
	hwOpenHost = func() (build.Host, error) { return h, nil }
	t.Cleanup(func() { hwOpenHost = old })
}

// TestNoHardwareSaysWhatToEnable: on a machine whose I2C, SPI or GPIO is off, the tools and the
// daemon say what to switch on (raspi-config, config.txt, the groups), not only periph's words.
func TestNoHardwareSaysWhatToEnable(t *testing.T) {
	useHost(t, noHardware)
	code, _, errs := hwRun(t, "hw", "scan", "--profile", "pn532-rack", "--data", t.TempDir())
	if code == 0 || !strings.Contains(errs, "sudo raspi-config nonint do_i2c 0") || !strings.Contains(errs, "reboot") {
		t.Errorf("hw scan, no I2C: exit %d: %s", code, errs)
	}
	code, _, errs = hwRun(t, "calibrate", "load", "--profile", "loadcell-rack", "--data", t.TempDir())
	if code == 0 || !strings.Contains(errs, `no GPIO pin "GPIO5"`) || !strings.Contains(errs, "group gpio") {
		t.Errorf("calibrate load, no GPIO: exit %d: %s", code, errs)
	}
	noSPI := noHardware
	noSPI.pin = func(string) gpio.PinIO { return hwtest.NewHX711().Clk } // pins are there; SPI is not
	useHost(t, noSPI)
	code, _, errs = hwRun(t, "hw", "scan", "--profile", "mfrc522-rack", "--data", t.TempDir())
	if code == 0 || !strings.Contains(errs, "sudo raspi-config nonint do_spi 0") {
		t.Errorf("hw scan, no SPI: exit %d: %s", code, errs)
	}

	useHost(t, noHardware)
	// The daemon as systemd starts it, on the Pi's configuration (camera and broker left out).
	b, err := os.ReadFile("../../configs/pi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cfg := strings.NewReplacer("camera: /dev/video0", "camera: none", "broker: tcp://127.0.0.1:1883", "broker: none",
		"http: 0.0.0.0:8080", "http: 127.0.0.1:0").Replace(string(b))
	path := filepath.Join(t.TempDir(), "pi.yaml")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs = hwRun(t, "run", "--config", path, "--data", t.TempDir())
	if code == 0 || !strings.Contains(errs, "sudo raspi-config nonint do_i2c 0") {
		t.Errorf("run on configs/pi.yaml, no I2C: exit %d: %s", code, errs)
	}
}

// TestExplainHostErrors: each way a bus or pin fails to open gets its own advice, marked
// ErrHostSetup; a failure that is not about the set-up keeps periph's error.
func TestExplainHostErrors(t *testing.T) {
	for _, c := range []struct {
		err   error
		setup bool
		want  string
	}{
		{explainI2C("1", errors.New("i2creg: no bus found; did you forget to call Init()?")), true, "raspi-config nonint do_i2c 0"},
		{explainI2C("3", errors.New(`i2creg: can't open unknown bus: "3"`)), true, "dtoverlay=i2c3,pins_4_5"},
		{explainI2C("1", errors.New("sysfs-i2c: open /dev/i2c-1: permission denied")), true, "group i2c"},
		{explainI2C("1", errors.New("sysfs-i2c: input/output error")), false, "input/output error"},
		{explainSPI("SPI0.0", errors.New(`spireg: can't open unknown port: "SPI0.0"`)), true, "raspi-config nonint do_spi 0"},
		{explainSPI("SPI0.0", errors.New("sysfs-spi: open /dev/spidev0.0: permission denied")), true, "group spi"},
		{explainNoPin("GPIO6"), true, "group gpio"},
	} {
		if errors.Is(c.err, ErrHostSetup) != c.setup || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%v: want ErrHostSetup %v and %q", c.err, c.setup, c.want)
		}
	}
}
