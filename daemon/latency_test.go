package daemon

import (
	"testing"
	"time"
)

// TestLatencyFigures: percentiles over the latest window, the count over all time.
func TestLatencyFigures(t *testing.T) {
	var l latencies
	if f := l.figures(); f.Count != 0 || f.P99 != 0 {
		t.Fatalf("empty: %+v", f)
	}
	for i := 1; i <= 100; i++ {
		l.add(time.Duration(i) * time.Millisecond)
	}
	if f := l.figures(); f.Count != 100 || f.P50 != 51*time.Millisecond || f.P99 != 100*time.Millisecond || f.Max != 100*time.Millisecond {
		t.Fatalf("1..100 ms: %+v", f)
	}
	for i := 0; i < latencyWindow; i++ {
		l.add(time.Second)
	}
	if f := l.figures(); f.Count != 100+latencyWindow || f.P50 != time.Second || f.Max != time.Second {
		t.Fatalf("the window should hold only the latest: %+v", f)
	}
}
