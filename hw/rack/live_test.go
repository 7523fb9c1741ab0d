package rack_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/hw/rack"
	"github.com/siamesetable/siamesed/internal/clock"
)

// counting is a rack that counts its scans.
type counting struct{ scans atomic.Int32 }

func (c *counting) Rack() string { return "p1a" }
func (c *counting) Scan(context.Context) []rack.Observation {
	c.scans.Add(1)
	return []rack.Observation{{Rack: "p1a", Zone: rack.In}}
}

// TestHoldKeepsScansOut: while Hold runs, no scan reads the sensors (a load cell read for its
// calibration would otherwise be read by two at once); the scan waiting runs once it ends.
func TestHoldKeepsScansOut(t *testing.T) {
	src := &counting{}
	m := rack.NewMonitor(clock.NewFake(time.Unix(0, 0)), 0, 0, src)
	m.Step(context.Background())
	inside, release := make(chan struct{}), make(chan struct{})
	held := make(chan error)
	go func() {
		held <- m.Hold(func() error { close(inside); <-release; return nil })
	}()
	<-inside
	stepped := make(chan struct{})
	go func() { m.Step(context.Background()); close(stepped) }()
	select {
	case <-stepped:
		t.Fatal("a scan ran while Hold held the sensors")
	case <-time.After(50 * time.Millisecond):
	}
	if n := src.scans.Load(); n != 1 {
		t.Fatalf("%d scans while held, want the first only", n)
	}
	close(release)
	if err := <-held; err != nil {
		t.Fatal(err)
	}
	<-stepped
	if n := src.scans.Load(); n != 2 {
		t.Fatalf("%d scans after Hold, want 2", n)
	}
}
