package simtable

import (
	"fmt"
	"slices"
	"strings"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/spi"
)

// Host opens the table's emulated buses and pins by the names the profile uses; it is the
// build.Host of a simulated table.
type Host struct{ t *Table }

// Host returns the table's host, to pass to build.Build.
func (t *Table) Host() *Host { return &Host{t: t} }

// OpenI2C returns a handle on the emulated bus name.
func (h *Host) OpenI2C(name string) (i2c.BusCloser, error) {
	b, ok := h.t.buses[name]
	if !ok {
		return nil, fmt.Errorf("simtable: no I2C bus %q (the table has %s)", name, keys(h.t.buses))
	}
	return b.Open(), nil
}

// OpenSPI returns the emulated MFRC522 on SPI port name.
func (h *Host) OpenSPI(name string) (spi.PortCloser, error) {
	r, ok := h.t.spis[name]
	if !ok {
		return nil, fmt.Errorf("simtable: no SPI port %q (the table has %s)", name, keys(h.t.spis))
	}
	return r.chip.Open(), nil
}

// Pin returns the emulated pin name: an HX711's PD_SCK or DOUT, an MFRC522's reset or IRQ.
func (h *Host) Pin(name string) (gpio.PinIO, error) {
	p, ok := h.t.pins[name]
	if !ok {
		return nil, fmt.Errorf("simtable: no pin %q is wired (the table has %s)", name, keys(h.t.pins))
	}
	return p.pin, nil
}

func keys[V any](m map[string]V) string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	if len(ks) == 0 {
		return "none"
	}
	return strings.Join(ks, ", ")
}
