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
// the binary touches a concrete host.
type hwPeriphHost struct{}

func (hwPeriphHost) OpenI2C(name string) (i2c.BusCloser, error)  { return i2creg.Open(name) }
func (hwPeriphHost) OpenSPI(name string) (spi.PortCloser, error) { return spireg.Open(name) }
func (hwPeriphHost) Pin(name string) (gpio.PinIO, error) {
	p := gpioreg.ByName(name)
	if p == nil {
		return nil, fmt.Errorf("no GPIO pin %q on this host", name)
	}
	return p, nil
}

// hwOpenHost initialises periph; tests replace it with fakes.
var hwOpenHost = func() (build.Host, error) {
	if _, err := host.Init(); err != nil {
		return nil, fmt.Errorf("periph host: %w", err)
	}
	return hwPeriphHost{}, nil
}
