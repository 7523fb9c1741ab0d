package mqtt

import (
	"encoding/binary"
	"slices"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
)

// BenchmarkPublishToReceive measures, on loopback through the embedded broker, the time from
// the table loop handing an event to the Publisher to a display-side subscriber receiving it
// (p50 and p99 as metrics), one event at a time.
func BenchmarkPublishToReceive(b *testing.B) { benchEvents(b, 1) }

// BenchmarkThroughput is how many events per second one publisher sustains through the
// embedded broker to a subscriber, in bursts of 1000 (latency here is mostly queueing).
func BenchmarkThroughput(b *testing.B) { benchEvents(b, 1000) }

func benchEvents(b *testing.B, burst int) {
	broker, creds, topics := startBroker(b)
	p := startPublisher(b, broker.URL(), creds, topics, nil)
	var mu sync.Mutex
	var lat []time.Duration
	got := make(chan struct{}, 1)
	c, err := connect(b, clientOpts(broker.URL(), DisplayUser, creds.Display))
	if err != nil {
		b.Fatal(err)
	}
	tok := c.Subscribe(topics.Events(), 1, func(_ paho.Client, m paho.Message) {
		pl := m.Payload()
		sent := int64(binary.BigEndian.Uint64(pl[len(pl)-8:]))
		mu.Lock()
		lat = append(lat, time.Duration(time.Now().UnixNano()-sent))
		n := len(lat)
		mu.Unlock()
		if n%burst == 0 || n == b.N {
			select {
			case got <- struct{}{}:
			default:
			}
		}
	})
	if !tok.WaitTimeout(waitFor) || tok.Error() != nil {
		b.Fatal(tok.Error())
	}
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; {
		for k := 0; k < burst && i < b.N; k, i = k+1, i+1 {
			payload := binary.BigEndian.AppendUint64([]byte(`{"type":"act"}`), uint64(time.Now().UnixNano()))
			if !p.out.Event(topics.Events(), payload) {
				b.Fatal("the queue is full")
			}
		}
		for {
			mu.Lock()
			n := len(lat)
			mu.Unlock()
			if n >= i {
				break
			}
			select {
			case <-got:
			case <-time.After(5 * waitFor):
				b.Fatalf("received %d of %d", n, i)
			}
		}
	}
	b.StopTimer()
	elapsed := time.Since(start)
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "msgs/s")
}
