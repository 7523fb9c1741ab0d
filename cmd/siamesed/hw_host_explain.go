package main

import (
	"errors"
	"fmt"
	"strings"
)

// ErrHostSetup marks a failure to open a bus or pin that the Pi's set-up causes (an interface
// switched off, a missing overlay, a group the user is not in), so callers can tell it from a
// fault on the racks.
var ErrHostSetup = errors.New("the Raspberry Pi is not set up for the racks")

// periph's registries say "no bus found" / "no port found" when no driver registered any,
// "can't open unknown bus" when the named one is absent; opening /dev/i2c-N or /dev/spidevN
// may fail on permissions. periph formats these with %v, so only their text tells them apart.
func missing(err error) bool {
	s := err.Error()
	return strings.Contains(s, "no bus found") || strings.Contains(s, "no port found") || strings.Contains(s, "unknown bus") || strings.Contains(s, "unknown port")
}

func denied(err error) bool {
	return strings.Contains(err.Error(), "permission denied")
}

// explainI2C says what to switch on for an I2C bus that cannot be opened: bus 1 is raspi-config's
// I2C; any other bus (the reference racks' second pair is on bus 3, GPIO4/GPIO5) is an overlay
// in config.txt.
func explainI2C(name string, err error) error {
	switch {
	case missing(err) && (name == "1" || name == ""):
		return fmt.Errorf("%w: no I2C bus %q: enable I2C with `sudo raspi-config nonint do_i2c 0` (raspi-config: Interface Options > I2C) and reboot (deploy/install.sh does this) (periph: %v)", ErrHostSetup, name, err)
	case missing(err) && name == "3":
		return fmt.Errorf("%w: no I2C bus \"3\": add `dtoverlay=i2c3,pins_4_5` (GPIO4/GPIO5, as docs/hardware.md wires it) to /boot/firmware/config.txt, enable I2C with `sudo raspi-config nonint do_i2c 0`, and reboot (deploy/install.sh does both) (periph: %v)", ErrHostSetup, err)
	case missing(err):
		return fmt.Errorf("%w: no I2C bus %q: add the dtoverlay for i2c%s on the pins you wired to /boot/firmware/config.txt (/boot/firmware/overlays/README lists them), enable I2C with `sudo raspi-config nonint do_i2c 0`, and reboot (periph: %v)", ErrHostSetup, name, name, err)
	case denied(err):
		return fmt.Errorf("%w: I2C bus %q: permission denied: run as a member of group i2c (`sudo usermod -aG i2c $USER`, then log in again; the siamesed service's user is) (periph: %v)", ErrHostSetup, name, err)
	}
	return fmt.Errorf("I2C bus %q: %w", name, err)
}

// explainSPI says what to switch on for an SPI port that cannot be opened.
func explainSPI(name string, err error) error {
	switch {
	case missing(err):
		return fmt.Errorf("%w: no SPI port %q: enable SPI with `sudo raspi-config nonint do_spi 0` (raspi-config: Interface Options > SPI) and reboot; only for SPI readers (MFRC522): the reference racks' load cells use the SPI pins, so keep it off for them (periph: %v)", ErrHostSetup, name, err)
	case denied(err):
		return fmt.Errorf("%w: SPI port %q: permission denied: run as a member of group spi (`sudo usermod -aG spi $USER`, then log in again) (periph: %v)", ErrHostSetup, name, err)
	}
	return fmt.Errorf("SPI port %q: %w", name, err)
}

// explainNoPin: periph registers a Pi's GPIO pins only when it can reach them (/dev/gpiomem or
// /dev/gpiochip*), which takes a Raspberry Pi and a user in group gpio.
func explainNoPin(name string) error {
	return fmt.Errorf("%w: no GPIO pin %q: run on a Raspberry Pi, as a member of group gpio (`sudo usermod -aG gpio $USER`, then log in again; the siamesed service's user is), with the pin names of docs/hardware.md (GPIO6, not 31)", ErrHostSetup, name)
}
