package hwtest

import (
	"errors"
	"testing"
	"time"

	"periph.io/x/devices/v3/hx711"
)

func TestHX711ShiftsOutRecordedSamples(t *testing.T) {
	// Recorded on a bench rack: empty zone, then a negative drift reading, then full scale.
	samples := []int32{0x01E240, -0x3039, 0x7FFFFF}
	fake := NewHX711(samples...)
	d, err := hx711.New(fake.Clk, fake.Data)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range samples {
		got, err := d.ReadTimeout(time.Second)
		if err != nil || got != want {
			t.Fatalf("sample %d: %d, %v; want %d", i, got, err, want)
		}
	}
	if _, err := d.ReadTimeout(time.Second); !errors.Is(err, hx711.ErrTimeout) {
		t.Fatalf("after the recording: %v, want ErrTimeout", err)
	}
	if err := fake.Log.Err(); err != nil {
		t.Fatalf("periph's driver broke the HX711 protocol: %v", err)
	}
}
