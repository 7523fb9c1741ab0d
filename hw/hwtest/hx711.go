// Package hwtest holds fakes for the hw packages' tests: an HX711 that shifts out recorded
// samples bit by bit on periph gpio pins (through simhw's emulator), a register-level MFRC522
// with no card, and a fake I2C bus with modelled latency for timing.
package hwtest

import (
	"sync"
	"time"

	"github.com/siamesetable/siamesed/hw/simhw"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/pin"
)

// HX711 replays recorded samples through simhw's HX711 emulator (HX711 data sheet, "Serial
// Interface", fig. 2): DOUT low means a conversion is ready; each rising PD_SCK edge shifts out
// the next bit, MSB first, 24 bits of two's complement; 1 to 3 extra pulses select the next gain.
// After the last sample DOUT stays high (no conversion ready).
type HX711 struct {
	*simhw.HX711
	// Log holds the protocol violations the driver made, if any.
	Log *simhw.Log
}

// NewHX711 returns a fake that will deliver samples in order, then stay not-ready (DOUT high).
func NewHX711(samples ...int32) *HX711 {
	var mu sync.Mutex
	next := 0
	log := &simhw.Log{}
	return &HX711{Log: log, HX711: simhw.NewHX711("hx711", log, func(simhw.Gain) (int32, bool) {
		mu.Lock()
		defer mu.Unlock()
		if next >= len(samples) {
			return 0, false
		}
		next++
		return samples[next-1], true
	})}
}

// Delivered is how many samples have been fully shifted out.
func (h *HX711) Delivered() int { return int(h.Conversions()) }

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
