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

// TestRecentLatencyFiguresAreTakenOnceASecond: the health page's percentiles are taken again
// only after latencyRefresh; the count is always current.
func TestRecentLatencyFiguresAreTakenOnceASecond(t *testing.T) {
	var l latencies
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	l.add(10 * time.Millisecond)
	if f := l.recentFigures(now); f.Count != 1 || f.Max != 10*time.Millisecond {
		t.Fatalf("first: %+v", f)
	}
	l.add(time.Second)
	if f := l.recentFigures(now.Add(latencyRefresh / 2)); f.Count != 2 || f.Max != 10*time.Millisecond {
		t.Fatalf("within the refresh: want the count current and the percentiles as taken before, got %+v", f)
	}
	if f := l.recentFigures(now.Add(latencyRefresh)); f.Count != 2 || f.Max != time.Second {
		t.Fatalf("after the refresh: %+v", f)
	}
}

// BenchmarkHealthLatency is the health page's latency figures on every tick, the window full.
func BenchmarkHealthLatency(b *testing.B) {
	var l latencies
	for i := range latencyWindow {
		l.add(time.Duration(i%997) * time.Microsecond)
	}
	now := time.Now()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		l.recentFigures(now.Add(time.Duration(i) * time.Millisecond))
	}
}
