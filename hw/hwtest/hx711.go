// Package hwtest holds fakes for the hw packages' tests: an HX711 that shifts out recorded
// samples bit by bit on periph gpio pins, and a fake I2C bus with modelled latency for timing.
package hwtest

import (
	"sync"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/pin"
)

// HX711 fakes the chip's two-wire interface (HX711 datasheet, "Serial Interface", fig. 2): DOUT
// low means a conversion is ready; each rising PD_SCK edge shifts out the next bit, MSB first, 24
// bits of two's complement; 1 to 3 extra pulses select the next gain.
type HX711 struct {
	mu      sync.Mutex
	samples []int32
	pos     int // sample being shifted out
	bit     int // pulses seen in this sample
	clkHigh bool

	// Clk and Data are the pins to give hx711.New.
	Clk  *ClkPin
	Data *DataPin
}

// NewHX711 returns a fake that will deliver samples in order, then stay not-ready (DOUT high).
func NewHX711(samples ...int32) *HX711 {
	h := &HX711{samples: samples}
	h.Clk = &ClkPin{pinBase: pinBase{name: "PD_SCK"}, h: h}
	h.Data = &DataPin{pinBase: pinBase{name: "DOUT"}, h: h}
	return h
}

// Delivered is how many samples have been fully shifted out.
func (h *HX711) Delivered() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.pos
}

func (h *HX711) clock(l gpio.Level) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if l == gpio.High && !h.clkHigh {
		h.bit++
	}
	h.clkHigh = l == gpio.High
}

func (h *HX711) level() gpio.Level {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.bit >= 25 { // gain pulses done: move to the next sample
		h.pos++
		h.bit = 0
	}
	if h.pos >= len(h.samples) {
		return gpio.High // no conversion ready
	}
	if h.bit == 0 {
		return gpio.Low // ready
	}
	v := uint32(h.samples[h.pos]) & 0xFFFFFF
	return gpio.Level(v>>(24-h.bit)&1 == 1)
}

// ClkPin is PD_SCK: the driver drives it.
type ClkPin struct {
	pinBase
	h *HX711
}

// Out records the level and advances the shift register on rising edges.
func (p *ClkPin) Out(l gpio.Level) error {
	p.h.clock(l)
	return nil
}

// DataPin is DOUT: the driver reads it.
type DataPin struct {
	pinBase
	h *HX711
}

// In accepts the driver's configuration.
func (p *DataPin) In(pull gpio.Pull, edge gpio.Edge) error { return nil }

// Read returns the bit being shifted out, or the ready level between samples.
func (p *DataPin) Read() gpio.Level { return p.h.level() }

// WaitForEdge reports at once whether a sample is ready; it never sleeps.
func (p *DataPin) WaitForEdge(time.Duration) bool { return p.h.level() == gpio.Low }

var (
	_ gpio.PinIO = (*ClkPin)(nil)
	_ gpio.PinIO = (*DataPin)(nil)
)

// pinBase is the rest of gpio.PinIO for the fakes (periph's gpiotest would pull in clockwork).
type pinBase struct{ name string }

func (p *pinBase) String() string                        { return p.name }
func (p *pinBase) Name() string                          { return p.name }
func (p *pinBase) Number() int                           { return -1 }
func (p *pinBase) Function() string                      { return "" }
func (p *pinBase) Func() pin.Func                        { return gpio.FLOAT }
func (p *pinBase) SupportedFuncs() []pin.Func            { return nil }
func (p *pinBase) SetFunc(pin.Func) error                { return nil }
func (p *pinBase) Halt() error                           { return nil }
func (p *pinBase) In(gpio.Pull, gpio.Edge) error         { return nil }
func (p *pinBase) Read() gpio.Level                      { return gpio.Low }
func (p *pinBase) WaitForEdge(time.Duration) bool        { return false }
func (p *pinBase) Pull() gpio.Pull                       { return gpio.PullNoChange }
func (p *pinBase) DefaultPull() gpio.Pull                { return gpio.PullNoChange }
func (p *pinBase) Out(gpio.Level) error                  { return nil }
func (p *pinBase) PWM(gpio.Duty, physic.Frequency) error { return nil }
