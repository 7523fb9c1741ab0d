package pn532

import (
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/internal/clock"
	"periph.io/x/conn/v3/i2c/i2ctest"
)

// TestStatusPollsWaitOnTheClock: between status polls the driver waits PollInterval on its
// injected clock, and only on it: a silent reader (3 polls) costs exactly two waits.
func TestStatusPollsWaitOnTheClock(t *testing.T) {
	ops := []i2ctest.IO{write(listOne), status(true), readAck(), status(false), status(false), status(false)}
	bus := &i2ctest.Playback{Ops: ops, DontPanic: true}
	fake := clock.NewFake(time.Unix(0, 0))
	d, err := NewI2C(bus, addr, &Opts{ReadLen: testReadLen, ReadyPolls: 3, PollInterval: 2 * time.Millisecond, Clock: fake})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := d.Targets(1)
		done <- err
	}()
	waits := 0
	for {
		// Park until the driver either waits on the clock or finishes.
		for fake.Pending() == 0 && len(done) == 0 {
			runtime.Gosched()
		}
		if len(done) > 0 {
			break
		}
		waits++
		fake.Advance(time.Millisecond)
		if len(done) > 0 {
			t.Fatal("the driver went on before its poll interval had passed")
		}
		fake.Advance(time.Millisecond)
	}
	if err := <-done; !errors.Is(err, ErrNotReady) {
		t.Fatalf("err = %v, want ErrNotReady", err)
	}
	if waits != 2 {
		t.Errorf("waited %d times between 3 polls, want 2", waits)
	}
	if err := bus.Close(); err != nil {
		t.Error(err)
	}
}
