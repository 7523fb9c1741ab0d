package eventtest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/configs"
	"github.com/siamesetable/siamesed/desk"
	"github.com/siamesetable/siamesed/desk/store"
	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/internal/natstest"
	"github.com/siamesetable/siamesed/sim"
	"github.com/siamesetable/siamesed/tournament/link"
	"github.com/siamesetable/siamesed/tournament/table"
	"github.com/siamesetable/siamesed/tournament/wire"
)

var spread = flag.Duration("desk.spread", 30*time.Second, "BenchmarkDesk500Tables: the tables finish their games at random moments over this long; 0: all at once (a burst)")

// BenchmarkDesk500Tables: 500 tables each finish a game at a random moment within
// -desk.spread (30 s; 0: all at once, a burst), as real tables do: each
// through its own ledger, outbox and NATS connection (tournament/table, tournament/link, the
// daemon's code), the result then its Mah Jonggs' signatures then the four initials, to a
// three-node cluster on loopback and the desk. Reported: messages recorded a second, publish
// (the table's sender handing the message to NATS) to recorded at the desk and in its
// standings, p50 and p99, and the same from the message made at the table (its ledger's fsync
// and the outbox's order included); the tables keep their ledgers in /dev/shm, as each real
// table writes to its own card, not to the desk's disk;
// computing the standings of 2,000 players; the desk's Go heap. The games are engine games
// played once beforehand (8 of them, each table's named by a hash of its own).
func BenchmarkDesk500Tables(b *testing.B) {
	const tables = 500
	ev := writeEvent(b, tables, 1, 1)
	rules, err := configs.LoadRuleset(ev.Rules)
	if err != nil {
		b.Fatal(err)
	}
	card, err := configs.LoadCardFor("", rules)
	if err != nil {
		b.Fatal(err)
	}
	var states []game.State
	for seed := range uint64(8) {
		g := sim.NewGame(rules, card.Card, seed, 0)
		for {
			if _, ok := g.Next(); !ok {
				break
			}
		}
		states = append(states, g.State)
	}
	cl := natstest.Start(b, 3)
	for i := 0; i < b.N; i++ {
		benchRound(b, ev.File, cl, states, i)
	}
}

func benchRound(b *testing.B, evFile string, cl *natstest.Cluster, states []game.State, iter int) {
	b.StopTimer()
	ev := writeEvent(b, 500, 1, 1)
	_ = evFile
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var published sync.Map // message id -> when its table published it
	var tbls []*table.Table
	for n := 1; n <= ev.Tables(); n++ {
		t, err := table.Open(ev, n, tableDir(b), nil)
		if err != nil {
			b.Fatal(err)
		}
		defer t.Close()
		c, err := link.Dial(link.Options{URLs: cl.URLs(), Name: fmt.Sprintf("table-%d", n)})
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close()
		if n == 1 {
			if err := c.EnsureStreams(ctx); err != nil {
				b.Fatal(err)
			}
		}
		tbls = append(tbls, t)
		send := func(ctx context.Context, subject, id string, data []byte) error {
			published.Store(id, time.Now())
			return c.Publish(ctx, subject, id, data)
		}
		go t.Send(ctx, send, link.InSubject, nil)
	}
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	d, err := desk.Open(ev, b.TempDir(), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	var mu sync.Mutex
	var lat, made []time.Duration
	var last time.Time
	recorded := 0
	d.Changed = func(c store.Change) {
		m, err := wire.Decode(c.Body)
		if err != nil {
			return
		}
		now := time.Now()
		mu.Lock()
		made = append(made, now.Sub(m.At))
		if p, ok := published.Load(m.ID); ok {
			lat = append(lat, now.Sub(p.(time.Time)))
		}
		recorded++
		last = now
		mu.Unlock()
	}
	dc, err := link.Dial(link.Options{URLs: cl.URLs(), Name: "desk"})
	if err != nil {
		b.Fatal(err)
	}
	defer dc.Close()
	var batches []time.Duration
	batched := 0
	d.Batched = func(n int, took time.Duration) {
		mu.Lock()
		batches = append(batches, took)
		batched += n
		mu.Unlock()
	}
	go d.Serve(ctx, dc)
	subject := fmt.Sprintf("bench%d", iter)
	time.Sleep(2 * time.Second) // consumers and streams in place
	want := 0
	for i := range tbls {
		s := states[i%len(states)]
		want += 1 + len(distinctSeats(s)) + 4
	}
	b.StartTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for i, t := range tbls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if *spread > 0 { // tables finish at their own moments over the spread
				time.Sleep(time.Duration(rand.Int64N(int64(*spread))))
			}
			s := states[i%len(states)]
			h := sha256.Sum256([]byte(fmt.Sprintf("%s-%d", subject, t.Number)))
			m, err := t.Finished(fmt.Sprintf("g%d", t.Number), hex.EncodeToString(h[:]), "royale-4", s)
			if err != nil {
				b.Error(err)
				return
			}
			for _, seat := range m.Result.Signers() {
				if err := t.Sign(seat, m.ID); err != nil {
					b.Error(err)
				}
			}
			for seat, by := range t.Sheet(1).Initial {
				if err := t.Initial(1, seat, by); err != nil {
					b.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	deadline := time.Now().Add(5 * time.Minute)
	for {
		mu.Lock()
		n := recorded
		mu.Unlock()
		if n >= want {
			break
		}
		if time.Now().After(deadline) {
			b.Fatalf("%d of %d messages recorded", n, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
	b.StopTimer()
	elapsed := last.Sub(start)
	t0 := time.Now()
	v := d.View()
	standings := time.Since(t0)
	if len(v.Standings) != 2000 || v.Standings[len(v.Standings)-1].Pending != 0 {
		b.Fatalf("standings: %d players, the last %+v", len(v.Standings), v.Standings[len(v.Standings)-1])
	}
	slices.Sort(lat)
	slices.Sort(made)
	slices.Sort(batches)
	q := func(p float64) time.Duration { return lat[int(p*float64(len(lat)-1))] }
	qm := func(p float64) time.Duration { return made[int(p*float64(len(made)-1))] }
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(recorded)/elapsed.Seconds(), "msgs/s")
	b.ReportMetric(float64(q(0.5).Microseconds())/1000, "p50_ms")
	b.ReportMetric(float64(q(0.99).Microseconds())/1000, "p99_ms")
	b.ReportMetric(float64(qm(0.99).Microseconds())/1000, "made_p99_ms")
	b.ReportMetric(float64(batches[int(0.99*float64(len(batches)-1))].Microseconds())/1000, "batch_p99_ms")
	b.ReportMetric(float64(standings.Microseconds())/1000, "view_ms")
	b.ReportMetric(float64(int64(after.HeapInuse)-int64(before.HeapInuse))/(1<<20), "heap_MB")
	b.ReportMetric(float64(rss())/1024, "process_rss_MB")
	b.Logf("%d tables, %d messages recorded in %v; published to recorded and in the standings p50 %v p99 %v max %v; made at the table (its ledger fsync'd, its outbox in order) to recorded p50 %v p99 %v; %d batches of %.1f messages on average, recorded in p50 %v p99 %v max %v; standings of %d players in %v",
		len(tbls), recorded, elapsed.Round(time.Millisecond), q(0.5), q(0.99), lat[len(lat)-1], qm(0.5), qm(0.99), len(batches), float64(batched)/float64(len(batches)), batches[len(batches)/2], batches[int(0.99*float64(len(batches)-1))], batches[len(batches)-1], len(v.Standings), standings)
	cancel()
}

func distinctSeats(s game.State) map[int]bool {
	out := map[int]bool{}
	for _, m := range s.Result.MahJonggs {
		out[m.Seat] = true
	}
	return out
}

// rss is the process's peak resident set (VmHWM) in KiB.
func rss() int {
	b, _ := os.ReadFile("/proc/self/status")
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmHWM:") {
			var kb int
			fmt.Sscanf(strings.TrimPrefix(l, "VmHWM:"), "%d", &kb)
			return kb
		}
	}
	return 0
}

// tableDir is a table's data directory in memory (/dev/shm) where there is one: each real
// table fsyncs to its own card, not to the one disk the desk and 499 others share here.
func tableDir(b *testing.B) string {
	dir, err := os.MkdirTemp("/dev/shm", "siamesed-bench-table-")
	if err != nil {
		return b.TempDir()
	}
	b.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}
