package simhw

import (
	"sync"
	"sync/atomic"
	"time"

	"periph.io/x/conn/v3/gpio"
)

// Gain is the HX711 input and gain a conversion was made with, chosen by the number of PD_SCK
// pulses after the previous one's 24 data bits (HX711 data sheet, "Serial Interface", table 3).
type Gain uint8

// Gains, by extra pulses.
const (
	GainA128 Gain = 1 // 25 pulses: channel A, gain 128 (the state after power-on)
	GainB32  Gain = 2 // 26 pulses: channel B, gain 32
	GainA64  Gain = 3 // 27 pulses: channel A, gain 64
)

// HX711 emulates the HX711's two-wire interface ("Serial Interface", fig. 2): DOUT low means a
// conversion is ready; each rising PD_SCK edge shifts out the next bit, MSB first, 24 bits of
// two's complement; the 25th pulse pulls DOUT high, and 1 to 3 pulses in all after the data
// choose the next conversion's input and gain. A new conversion is ready as soon as the host
// looks (time is compressed). Clocking with no conversion ready, or more than 27 pulses, is a
// violation. Holding PD_SCK high for 60 µs (power-down) is not modelled.
type HX711 struct {
	name   string
	log    *Log
	sample func(Gain) (int32, bool)

	mu      sync.Mutex
	cur     uint32
	ready   bool // a conversion is waiting or being shifted out
	pulses  int  // rising edges since it became ready
	clkHigh bool
	gain    Gain
	done    atomic.Int64

	// Clk and Data are the pins to give hx711.New.
	Clk  *HX711Clk
	Data *HX711Data
}

// NewHX711 returns a chip whose conversions come from sample (false: none is ever ready again).
func NewHX711(name string, log *Log, sample func(Gain) (int32, bool)) *HX711 {
	h := &HX711{name: name, log: log, sample: sample, gain: GainA128}
	h.Clk = &HX711Clk{pinBase: pinBase{name: name + "-PD_SCK"}, h: h}
	h.Data = &HX711Data{pinBase: pinBase{name: name + "-DOUT"}, h: h}
	return h
}

// Conversions is how many conversions have been shifted out in full.
func (h *HX711) Conversions() int64 { return h.done.Load() }

func (h *HX711) clock(l gpio.Level) {
	h.mu.Lock()
	defer h.mu.Unlock()
	rising := l == gpio.High && !h.clkHigh
	h.clkHigh = l == gpio.High
	if !rising {
		return
	}
	if !h.ready {
		h.log.Addf(h.name, "PD_SCK pulsed while DOUT is high (no conversion ready)")
		return
	}
	h.pulses++
	if h.pulses == 28 {
		h.log.Addf(h.name, "more than 27 PD_SCK pulses for one conversion")
	}
}

// level is DOUT now. Looking at DOUT after a complete read (clock low, 25 to 27 pulses) ends
// that conversion and starts the next, which is ready at once.
func (h *HX711) level() gpio.Level {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.ready && h.pulses >= 25 && !h.clkHigh {
		h.gain = Gain(min(h.pulses, 27) - 24)
		h.ready, h.pulses = false, 0
		h.done.Add(1)
	}
	if !h.ready {
		v, ok := h.sample(h.gain)
		if !ok {
			return gpio.High
		}
		h.cur, h.ready = uint32(v)&0xFFFFFF, true
	}
	switch {
	case h.pulses == 0:
		return gpio.Low
	case h.pulses > 24:
		return gpio.High
	}
	return gpio.Level(h.cur>>(24-h.pulses)&1 == 1)
}

// HX711Clk is PD_SCK: the host drives it.
type HX711Clk struct {
	pinBase
	h *HX711
}

// Out drives PD_SCK.
func (p *HX711Clk) Out(l gpio.Level) error {
	p.h.clock(l)
	return nil
}

// HX711Data is DOUT: the host reads it.
type HX711Data struct {
	pinBase
	h *HX711
}

// Read returns DOUT.
func (p *HX711Data) Read() gpio.Level { return p.h.level() }

// WaitForEdge reports at once whether a conversion is ready (DOUT low): one is, unless the
// sample source ran dry. It never sleeps.
func (p *HX711Data) WaitForEdge(time.Duration) bool { return p.h.level() == gpio.Low }

var (
	_ gpio.PinIO = (*HX711Clk)(nil)
	_ gpio.PinIO = (*HX711Data)(nil)
)
