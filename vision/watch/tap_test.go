package watch

import (
	"context"
	"strings"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/internal/clock"
)

func grey(v uint8) gocv.Mat {
	return gocv.NewMatWithSizeFromScalar(gocv.NewScalar(float64(v), 0, 0, 0), 4, 6, gocv.MatTypeCV8UC1)
}

// askFrame asks get for a frame while the clock stands still until the ask waits on it; then, with
// advance, moves it on by advance (the wait runs out).
func askFrame(t *testing.T, clk *clock.Fake, get LatestFrame, advance time.Duration, meanwhile func()) (uint8, error) {
	t.Helper()
	type result struct {
		v   uint8
		err error
	}
	got := make(chan result, 1)
	before := clk.Pending()
	go func() {
		m := gocv.NewMat()
		defer m.Close()
		err := get(&m)
		var v uint8
		if err == nil {
			v = m.GetUCharAt(0, 0)
		}
		got <- result{v, err}
	}()
	for deadline := time.Now().Add(10 * time.Second); clk.Pending() == before; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the ask does not wait on the clock")
		}
	}
	if meanwhile != nil {
		meanwhile()
	}
	clk.Advance(advance)
	select {
	case r := <-got:
		return r.v, r.err
	case <-time.After(10 * time.Second):
		t.Fatal("the ask did not end")
		return 0, nil
	}
}

// The tap copies a frame only when one is asked for, or once keepEvery on its clock; asked, it
// hands the next frame; with none coming within the wait, the last kept; with none ever, an error.
func TestFrameTap(t *testing.T) {
	clk := clock.NewFake(t0)
	tap := &frameTap{clk: clk, keepEvery: time.Second}
	defer tap.close()
	ctx := context.Background()
	offer := func(v uint8) {
		m := grey(v)
		tap.offer(m)
		m.Close()
	}
	offer(10) // kept: the first
	clk.Advance(500 * time.Millisecond)
	offer(20) // not: within the second
	if v, err := askFrame(t, clk, tap.latest(ctx, 2*time.Second), 2*time.Second, nil); v != 10 || err != nil {
		t.Fatalf("no frame coming: %d %v, want the one kept, 10", v, err)
	}
	offer(40) // kept: the ask that timed out still wants a frame
	offer(50) // not: none asked, within the second
	clk.Advance(999 * time.Millisecond)
	offer(60) // not: still within the second
	clk.Advance(time.Millisecond)
	offer(70) // kept: a second after 40
	if v, err := askFrame(t, clk, tap.latest(ctx, 2*time.Second), 2*time.Second, nil); v != 70 || err != nil {
		t.Fatalf("no frame coming: %d %v, want the one kept a second later, 70", v, err)
	}
	none := &frameTap{clk: clk, keepEvery: time.Second}
	if _, err := askFrame(t, clk, none.latest(ctx, time.Second), time.Second, nil); err == nil || !strings.Contains(err.Error(), "no frame yet") {
		t.Fatalf("before any frame: %v", err)
	}
	// Asked, the next frame is handed at once, the clock standing still.
	if v, err := askFrame(t, clk, tap.latest(ctx, time.Hour), 0, func() { offer(30) }); v != 30 || err != nil {
		t.Fatalf("asked: %d %v, want the next frame, 30", v, err)
	}
}

// BenchmarkFrameTapOffer: what the tap costs a frame loop per 1280x720 frame when no picture is
// asked for (the frame kept once a second is not counted: the clock stands still).
func BenchmarkFrameTapOffer(b *testing.B) {
	tap := &frameTap{clk: clock.NewFake(t0), keepEvery: time.Second}
	defer tap.close()
	frame := gocv.NewMatWithSize(720, 1280, gocv.MatTypeCV8UC3)
	defer frame.Close()
	tap.offer(frame) // the first is kept
	b.ReportAllocs()
	for b.Loop() {
		tap.offer(frame)
	}
}
