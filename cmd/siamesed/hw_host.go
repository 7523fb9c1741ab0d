package main

import (
	"fmt"

	"github.com/siamesetable/siamesed/hw/build"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/i2c/i2creg"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/conn/v3/spi/spireg"
	"periph.io/x/host/v3"
)

// hwPeriphHost opens buses and pins through periph's registries after host.Init: the only place
// the binary touches a concrete host. The registries are fields so that a test can stand in for
// a machine without I2C, SPI or GPIO; every failure is explained in the words of a Raspberry Pi
// owner (what to switch on, which group to join), not periph's (hw_host_explain.go).
type hwPeriphHost struct {
	openI2C func(name string) (i2c.BusCloser, error)
	openSPI func(name string) (spi.PortCloser, error)
	pin     func(name string) gpio.PinIO
}

// hwRealHost is periph's registries.
var hwRealHost = hwPeriphHost{openI2C: i2creg.Open, openSPI: spireg.Open, pin: gpioreg.ByName}

func (h hwPeriphHost) OpenI2C(name string) (i2c.BusCloser, error) {
	b, err := h.openI2C(name)
	if err != nil {
		return nil, explainI2C(name, err)
	}
	return b, nil
}

func (h hwPeriphHost) OpenSPI(name string) (spi.PortCloser, error) {
	p, err := h.openSPI(name)
	if err != nil {
		return nil, explainSPI(name, err)
	}
	return p, nil
}

func (h hwPeriphHost) Pin(name string) (gpio.PinIO, error) {
	p := h.pin(name)
	if p == nil {
		return nil, explainNoPin(name)
	}
	return p, nil
}

// hwOpenHost initialises periph; tests replace it with fakes.
var hwOpenHost = func() (build.Host, error) {
	if _, err := host.Init(); err != nil {
		return nil, fmt.Errorf("periph host: %w", err)
	}
	return hwRealHost, nil
}
