// Package mux opens the ports of a PCA9548 I2C multiplexer with periph's devices/pca9548, so
// each PN532 (all at 0x24) gets a bus of its own.
//
// periph's pca9548 only hands out ports through the process-wide i2creg registry, under names
// built from the parent bus's String(), its address and the port number. Mux keeps that detail in
// one place and unregisters the names on Close, so tests can open and close muxes freely.
package mux

import (
	"errors"
	"fmt"
	"strconv"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/i2c/i2creg"
	"periph.io/x/devices/v3/pca9548"
)

// Ports is the number of channels on a PCA9548.
const Ports = 8

// Mux is one PCA9548 on a bus.
type Mux struct {
	dev   *pca9548.Dev
	names []string
	ports [Ports]i2c.BusCloser
}

// Open probes the multiplexer at addr (0x70..0x77) on b and registers its ports under alias
// (alias+"0" .. alias+"7"); alias must be unique in the process, e.g. "rack1-mux70-".
func Open(b i2c.Bus, addr uint16, alias string) (*Mux, error) {
	d, err := pca9548.New(b, &pca9548.Opts{Addr: int(addr)})
	if err != nil {
		return nil, fmt.Errorf("mux: pca9548 %#02x: %w", addr, err)
	}
	names, err := d.RegisterPorts(alias)
	m := &Mux{dev: d, names: names}
	if err != nil {
		m.Close()
		return nil, fmt.Errorf("mux: registering ports of %#02x: %w", addr, err)
	}
	for i := range m.ports {
		p, err := i2creg.Open(alias + strconv.Itoa(i))
		if err != nil {
			m.Close()
			return nil, fmt.Errorf("mux: opening port %d of %#02x: %w", i, addr, err)
		}
		m.ports[i] = p
	}
	return m, nil
}

// Port returns channel n (0..7) as an i2c.Bus; selecting it happens on the first Tx.
func (m *Mux) Port(n int) (i2c.Bus, error) {
	if n < 0 || n >= Ports || m.ports[n] == nil {
		return nil, fmt.Errorf("mux: no port %d on %s", n, m.dev)
	}
	return m.ports[n], nil
}

// String names the multiplexer.
func (m *Mux) String() string { return m.dev.String() }

// Close closes the ports and removes their names from i2creg.
func (m *Mux) Close() error {
	var errs []error
	for i, p := range m.ports {
		if p != nil {
			errs = append(errs, p.Close())
			m.ports[i] = nil
		}
	}
	for _, n := range m.names {
		if err := i2creg.Unregister(n); err != nil {
			errs = append(errs, fmt.Errorf("mux: %w", err))
		}
	}
	m.names = nil
	return errors.Join(errs...)
}
