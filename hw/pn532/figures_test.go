package pn532

import (
	"fmt"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/hw/hwtest"
	"github.com/siamesetable/siamesed/hw/mux"
	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/conn/v3/physic"
)

// TestFigureRackScanTime computes the time to scan a 19-slot rack (19 PN532s behind three
// PCA9548s at 0x70..0x72) with the default timings: the exact frames the driver exchanges are
// replayed through a TimingBus that charges wire time at the bus speed, and the PN532's own
// work is charged as the default 1 ms status polls it needs. The RF time of one
// InListPassiveTarget is NOT measured here: rfTime below is an assumption, to replace with a
// figure from i2ctest.Record on a real rack.
func TestFigureRackScanTime(t *testing.T) {
	const (
		slots        = 19
		pollInterval = time.Millisecond // Opts default
		ackPolls     = 1                // the ACK is ready at the first poll
		defaultRead  = 48               // Opts.ReadLen default
	)
	for _, rfTime := range []time.Duration{3 * time.Millisecond, 10 * time.Millisecond} {
		for _, speed := range []physic.Frequency{100 * physic.KiloHertz, 400 * physic.KiloHertz} {
			t.Run(fmt.Sprintf("%v-%v", speed, rfTime), func(t *testing.T) {
				respPolls := int(rfTime/pollInterval) + 1 // not ready until the RF exchange ends
				var ops []i2ctest.IO
				for m := 0; m < 3; m++ {
					ops = append(ops, i2ctest.IO{Addr: uint16(0x70 + m), R: []byte{0}})
				}
				for s := 0; s < slots; s++ {
					if s > 0 && s%8 == 0 { // the previous mux is switched off before the next is used
						ops = append(ops, i2ctest.IO{Addr: uint16(0x70 + s/8 - 1), W: []byte{0}})
					}
					ops = append(ops, i2ctest.IO{Addr: uint16(0x70 + s/8), W: []byte{1 << (s % 8)}})
					ops = append(ops, write(listOne))
					for i := 1; i < ackPolls; i++ {
						ops = append(ops, status(false))
					}
					ops = append(ops, status(true), readAck())
					for i := 1; i < respPolls; i++ {
						ops = append(ops, status(false))
					}
					resp := make([]byte, 1+defaultRead)
					resp[0] = 1
					copy(resp[1:], listTag)
					ops = append(ops, status(true), i2ctest.IO{Addr: addr, R: resp})
				}
				pb := &i2ctest.Playback{Ops: ops, DontPanic: true}
				bus := &hwtest.TimingBus{Bus: pb, Speed: speed}
				var devs []*Dev
				g := mux.NewGroup(bus)
				for m := 0; m < 3; m++ {
					mx, err := g.Open(uint16(0x70 + m))
					if err != nil {
						t.Fatal(err)
					}
					for p := 0; p < 8 && len(devs) < slots; p++ {
						port, _ := mx.Port(p)
						d, _ := NewI2C(port, addr, &Opts{NoWait: true, ReadyPolls: respPolls + 1})
						devs = append(devs, d)
					}
				}
				wire0, _ := bus.Elapsed()
				for _, d := range devs {
					if ts, err := d.Targets(1); err != nil || len(ts) != 1 {
						t.Fatalf("Targets = %v, %v", ts, err)
					}
				}
				if err := pb.Close(); err != nil {
					t.Fatal(err)
				}
				wire, n := bus.Elapsed()
				wire -= wire0
				waits := time.Duration(slots*(ackPolls-1+respPolls-1)) * pollInterval
				t.Logf("FIGURE 19-slot rack scan at %v, assumed RF time %v: %v (wire %v in %d transactions + %v of 1 ms status-poll waits)",
					speed, rfTime, (wire + waits).Round(100*time.Microsecond), wire.Round(100*time.Microsecond), n-3, waits)
			})
		}
	}
}
