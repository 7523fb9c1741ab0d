package eventtest

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/siamesetable/siamesed/desk"
	"github.com/siamesetable/siamesed/display"
	"github.com/siamesetable/siamesed/internal/natstest"
	"github.com/siamesetable/siamesed/tournament/event"
	"github.com/siamesetable/siamesed/tournament/link"
	"github.com/siamesetable/siamesed/tournament/simtable"
)

// writeEvent writes an event of tables four-seat tables (players P001, P002, ...) and loads it.
func writeEvent(t testing.TB, tables, rounds, games int) *event.Event {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "name: Test open\nrules: royale-4+nmjl-tournament\nrounds: %d\ngames_per_round: %d\nmovement: nmjl\ntables:\n", rounds, games)
	for n := 1; n <= tables; n++ {
		p := (n - 1) * 4
		fmt.Fprintf(&b, "  - {table: %d, east: P%03d, south: P%03d, west: P%03d, north: P%03d}\n", n, p+1, p+2, p+3, p+4)
	}
	path := filepath.Join(t.TempDir(), "event.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ev, err := event.Load(path, event.ConfigsRules)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

// runningDesk is the desk in this process, stopped and started again at will.
type runningDesk struct {
	t      testing.TB
	ev     *event.Event
	dir    string
	urls   []string
	D      *desk.Desk
	cancel context.CancelFunc
	done   chan error
}

func startDesk(t testing.TB, ev *event.Event, dir string, urls []string) *runningDesk {
	r := &runningDesk{t: t, ev: ev, dir: dir, urls: urls}
	r.start()
	t.Cleanup(r.stop)
	return r
}

func (r *runningDesk) start() {
	d, err := desk.Open(r.ev, r.dir, nil)
	if err != nil {
		r.t.Fatal(err)
	}
	c, err := link.Dial(link.Options{URLs: r.urls, Name: "desk"})
	if err != nil {
		r.t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.D, r.cancel, r.done = d, cancel, make(chan error, 1)
	go func() { err := d.Serve(ctx, c); c.Close(); d.Close(); r.done <- err }()
}

func (r *runningDesk) stop() {
	if r.cancel == nil {
		return
	}
	r.cancel()
	if err := <-r.done; err != nil {
		r.t.Error(err)
	}
	r.cancel = nil
}

// simTable is a simulated table with its link and its seat view served over HTTP.
type simTable struct {
	*simtable.Table
	URL       string
	passwords []string
}

func startTables(t testing.TB, ev *event.Event, cl *natstest.Cluster) []*simTable {
	ctx, cancel := context.WithCancel(context.Background())
	var out []*simTable
	var conns []*link.Conn
	t.Cleanup(func() {
		cancel()
		for _, c := range conns {
			c.Close()
		}
		for _, st := range out {
			st.Close()
		}
	})
	for n := 1; n <= ev.Tables(); n++ {
		st, err := simtable.Open(ev, n, t.TempDir(), uint64(n), nil)
		if err != nil {
			t.Fatal(err)
		}
		c, err := link.Dial(link.Options{URLs: cl.URLs(), Name: fmt.Sprintf("table-%d", n)})
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		go c.RunTable(ctx, st.Table)
		s := &simTable{Table: st}
		for seat := range ev.Seats {
			s.passwords = append(s.passwords, fmt.Sprintf("pw-%d-%d", n, seat))
		}
		mux := http.NewServeMux()
		sheet := st.HTTP(func(seat int, pass string) bool { return seat < len(s.passwords) && pass == s.passwords[seat] }, nil)
		mux.Handle("/api/sheet", sheet)
		mux.Handle("/api/sheet/", sheet)
		mux.Handle("/", display.Handler())
		srv := httptest.NewServer(mux)
		t.Cleanup(srv.Close)
		s.URL = srv.URL + "/"
		out = append(out, s)
	}
	return out
}

func waitFor(t testing.TB, what string, limit time.Duration, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("no %s after %v", what, limit)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// browser starts headless Chromium, or skips (fails under SIAMESED_REQUIRE_SYSTEM_TESTS).
func browser(t testing.TB) context.Context {
	t.Helper()
	bin := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			bin = p
			break
		}
	}
	if bin == "" {
		if os.Getenv("SIAMESED_REQUIRE_SYSTEM_TESTS") != "" {
			t.Fatal("chromium is not installed and SIAMESED_REQUIRE_SYSTEM_TESTS is set: run scripts/test.sh, which installs it")
		}
		t.Skip("chromium is not installed (scripts/test.sh installs it): skipping")
	}
	profile, err := os.MkdirTemp("", "siamesed-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	opts := []chromedp.ExecAllocatorOption{chromedp.ExecPath(bin), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(profile), chromedp.WindowSize(500, 1000),
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true)}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	t.Cleanup(func() {
		cancelC()
		cancelA()
		for try := 0; try < 50; try++ {
			if os.RemoveAll(profile) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	return ctx
}
