package simhw

import (
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/pin"
)

// pinBase is the part of gpio.PinIO every emulated pin shares.
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
