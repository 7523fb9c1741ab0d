package simhw

import (
	"testing"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/devices/v3/hx711"
)

// TestHX711WithPeriphDriver: periph's driver reads 24-bit two's complement values through the
// emulated pins, and its 1 to 3 gain pulses choose the next conversion's input and gain.
func TestHX711WithPeriphDriver(t *testing.T) {
	log := &Log{}
	var gains []Gain
	vals := []int32{0x01E240, -0x3039, 0x7FFFFF, -0x800000, 5}
	next := 0
	h := NewHX711("cell", log, func(g Gain) (int32, bool) {
		gains = append(gains, g)
		v := vals[next%len(vals)]
		next++
		return v, true
	})
	d, err := hx711.New(h.Clk, h.Data)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range vals[:4] {
		got, err := d.ReadTimeout(time.Second)
		if err != nil || got != want {
			t.Fatalf("conversion %d: %d, %v; want %d", i, got, err, want)
		}
	}
	// By hand: 24 data pulses and 2 more choose channel B, gain 32, for the next conversion.
	if h.Data.Read() != gpio.Low {
		t.Fatal("no conversion ready")
	}
	for range 26 {
		h.Clk.Out(gpio.High)
		h.Clk.Out(gpio.Low)
	}
	if h.Data.Read() != gpio.Low {
		t.Fatal("no conversion ready after the gain pulses")
	}
	want := []Gain{GainA128, GainA128, GainA128, GainA128, GainA128, GainB32}
	if string(gains) != string(want) {
		t.Fatalf("gains %v, want %v", gains, want)
	}
	if n := h.Conversions(); n != 5 {
		t.Fatalf("%d conversions shifted out, want 5", n)
	}
	if err := log.Err(); err != nil {
		t.Fatal(err)
	}
}

// TestPeriphSetInputModeClocksTooSoon records a flaw of periph's hx711 (unused here):
// SetInputMode clocks out a conversion without waiting for DOUT to go low, so on a real chip it
// reads while the next conversion is still running; the emulator reports the extra pulses.
func TestPeriphSetInputModeClocksTooSoon(t *testing.T) {
	log := &Log{}
	h := NewHX711("cell", log, func(Gain) (int32, bool) { return 1000, true })
	d, err := hx711.New(h.Clk, h.Data)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.ReadTimeout(time.Second); err != nil {
		t.Fatal(err)
	}
	if err := d.SetInputMode(hx711.CHANNEL_B_GAIN_32); err != nil {
		t.Fatal(err)
	}
	if log.Len() == 0 {
		t.Fatal("no violation for clocking a conversion that was not ready")
	}
}

// TestHX711ClockingWhenNotReady is a violation: DOUT high means no conversion to shift out.
func TestHX711ClockingWhenNotReady(t *testing.T) {
	log := &Log{}
	h := NewHX711("cell", log, func(Gain) (int32, bool) { return 0, false })
	if h.Data.Read() != gpio.High || h.Data.WaitForEdge(time.Second) {
		t.Fatal("DOUT low with no conversion")
	}
	h.Clk.Out(gpio.High)
	h.Clk.Out(gpio.Low)
	if log.Len() != 1 {
		t.Fatalf("%d violations, want 1", log.Len())
	}
}
