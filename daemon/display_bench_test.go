package daemon

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// BenchmarkObservationToDisplay measures the whole chain on a live simulated table: a settled
// observation reaching the table, the tracker, the journal (synced), the embedded broker,
// MQTT over WebSocket, the table display's page in headless Chromium receiving the state
// ("received"), updated ("display") and the next frame painted ("painted"). One op is one observation that played acts; ns/op is the
// table's pace, not a latency. Both clocks are this machine's wall clock (the daemon's
// time.Now, the page's performance.timeOrigin + now).
//
//	go test -run - -bench ObservationToDisplay -benchtime 300x ./daemon
func BenchmarkObservationToDisplay(b *testing.B) {
	if b.N > 1000 {
		b.Skip("the page keeps the latest 1000 draws at least: use -benchtime 1000x or fewer")
	}
	ctx := browser(b)
	addr, _ := runDaemon(b, liveConfig(), b.TempDir())
	if err := chromedp.Run(ctx, chromedp.Navigate("http://"+addr+"/"),
		chromedp.Poll(`window.siamese.status === 'online'`, nil, chromedp.WithPollingTimeout(waitFor))); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	if err := chromedp.Run(ctx, chromedp.Poll(fmt.Sprintf(
		`new Set(window.siamese.drawn.filter(d => d.observed && d.painted).map(d => d.observed)).size > %d`, b.N),
		nil, chromedp.WithPollingTimeout(time.Duration(b.N)*time.Second+waitFor))); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	var raw string
	if err := chromedp.Run(ctx, chromedp.Evaluate(`JSON.stringify(window.siamese.drawn)`, &raw)); err != nil {
		b.Fatal(err)
	}
	received, display, painted, err := displayDelays(raw)
	if err != nil {
		b.Fatal(err)
	}
	for _, f := range []struct {
		name string
		d    []time.Duration
	}{{"received", received}, {"display", display}, {"painted", painted}} {
		slices.Sort(f.d)
		at := func(q float64) float64 {
			return float64(f.d[min(len(f.d)-1, int(q*float64(len(f.d))))]) / float64(time.Millisecond)
		}
		b.ReportMetric(at(0.5), f.name+"-p50-ms")
		b.ReportMetric(at(0.99), f.name+"-p99-ms")
	}
}

// displayDelays takes the page's draws and returns, for each observation, the delay to the
// page receiving its state, to its first draw and to that draw's painted frame. The first state of a game the page is shown
// (before it subscribed) is not counted: it was drawn late because the page was not there.
func displayDelays(raw string) (received, display, painted []time.Duration, err error) {
	var drawn []struct {
		Observed *time.Time `json:"observed"`
		Got      float64    `json:"got"`     // ms since the epoch
		At       float64    `json:"at"`      // ms since the epoch
		Painted  float64    `json:"painted"` // ms since the epoch
	}
	if err := json.Unmarshal([]byte(raw), &drawn); err != nil {
		return nil, nil, nil, fmt.Errorf("the page's draws: %w", err)
	}
	seen := map[time.Time]bool{}
	for i, d := range drawn {
		if d.Observed == nil || d.Painted == 0 || seen[*d.Observed] {
			continue
		}
		seen[*d.Observed] = true
		if i == 0 {
			continue
		}
		obs := float64(d.Observed.UnixNano()) / 1e6
		received = append(received, time.Duration((d.Got-obs)*float64(time.Millisecond)))
		display = append(display, time.Duration((d.At-obs)*float64(time.Millisecond)))
		painted = append(painted, time.Duration((d.Painted-obs)*float64(time.Millisecond)))
	}
	if len(display) == 0 {
		return nil, nil, nil, fmt.Errorf("no draw of the page carries its observation's time (%d draws)", len(drawn))
	}
	return received, display, painted, nil
}
