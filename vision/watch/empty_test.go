package watch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/vision/detect"
	"github.com/siamesetable/siamesed/vision/labels"
	"github.com/siamesetable/siamesed/vision/source"
	"github.com/siamesetable/siamesed/vision/wire"
)

// kept says which of the empty view's files are beside the enrolment folder enrolled.
func kept(t *testing.T, enrolled string) string {
	t.Helper()
	png, corners := labels.EmptyView(enrolled)
	var out []string
	for _, f := range []string{png, corners} {
		if _, err := os.Stat(f); err == nil {
			out = append(out, filepath.Base(f))
		}
	}
	return strings.Join(out, " ")
}

// A real camera's worker started again (a crash, the daemon restarted) goes on capturing
// against the empty area's view kept when the enrolment started, with no Start again: the 5D
// laid alone is captured and named 5D.
func TestCaptureAfterTheWorkerStartsAgain(t *testing.T) {
	g := newRig(t, tile.Dot5, tile.Joker)
	enrolled := filepath.Join(t.TempDir(), "enrolled")
	a := g.r.Calibration()
	f := &liveFeed{g: g}
	cfg := g.config("camera 0", true, func() (source.Source, error) { return f, nil }, time.Hour, time.Hour)
	cfg.EmptyKept = EmptyKept{Enrolled: enrolled, Area: a}
	// run starts a worker's camera; stop ends it and frees it.
	run := func() (*Camera, func()) {
		c, err := NewCamera(cfg)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); c.Run(ctx) }()
		awaitFrame(t, c)
		return c, func() { cancel(); <-done; c.Close() }
	}
	capture := func(c *Camera, empty bool) (wire.Reply, error) {
		reps, err := dispatch(c.Ops(), wire.Request{Op: wire.OpCapture, Area: a, Empty: empty})
		if err != nil {
			return wire.Reply{}, err
		}
		return reps[0], nil
	}
	c, stop := run()
	if _, err := capture(c, true); err != nil {
		t.Fatalf("the empty area: %v", err)
	}
	stop()
	if got := kept(t, enrolled); got != "enrolled-empty.png enrolled-empty.yaml" {
		t.Fatalf("kept beside the enrolment: %q", got)
	}
	f.lay(scene(nil, five))
	c, stop = run()
	defer stop()
	rep, err := capture(c, false)
	if err != nil {
		t.Fatalf("5D alone, the worker started again: %v", err)
	}
	if got := named(t, g.cls, rep.JPEG); got != tile.Dot5 {
		t.Errorf("the crop of 5D is named %v", got)
	}
}

// The view kept is taken up only with the corners it was taken through: started with other
// corners saved (or none), or with a view that cannot be read or has no corners beside it, the
// worker drops it and refuses a capture, saying why; started with the same, it captures.
func TestTheEmptyViewKept(t *testing.T) {
	tb, _, cls := simTable(t, 6)
	a := tb.Calibration()
	moved := a
	moved.Corners[2][0]--
	enrolled := filepath.Join(t.TempDir(), "enrolled")
	png, corners := labels.EmptyView(enrolled)
	// start is a worker started with corners saved: its capturer, told where the view is kept.
	start := func(saved EmptyKept) *Capturer {
		c := NewSimCapturer(tb)
		t.Cleanup(func() { c.Close() })
		c.Keep(saved)
		return c
	}
	keepOne := func() {
		t.Helper()
		if err := tb.Show(nil); err != nil {
			t.Fatal(err)
		}
		if _, err := start(EmptyKept{Enrolled: enrolled, Area: a}).Capture(a, true); err != nil {
			t.Fatal(err)
		}
		if err := tb.Show([]tile.Face{tile.Crak3}); err != nil {
			t.Fatal(err)
		}
	}
	refused := func(what string, c *Capturer, through EmptyKept, says string) {
		t.Helper()
		_, err := c.Capture(through.Area, false)
		if !errors.Is(err, ErrNoEmpty) || !strings.Contains(err.Error(), says) {
			t.Errorf("%s: %v, want ErrNoEmpty saying %q", what, err, says)
		}
		if got := kept(t, enrolled); got != "" {
			t.Errorf("%s: %q still kept", what, got)
		}
	}
	keepOne()
	if rep, err := start(EmptyKept{Enrolled: enrolled, Area: a}).Capture(a, false); err != nil || named(t, cls, rep.JPEG) != tile.Crak3 {
		t.Fatalf("the same corners: %v", err)
	}
	refused("other corners saved", start(EmptyKept{Enrolled: enrolled, Area: moved}), EmptyKept{Area: moved}, "taken through other corners")
	keepOne()
	refused("no corners saved", start(EmptyKept{Enrolled: enrolled}), EmptyKept{Area: a}, "taken through other corners")
	keepOne()
	if err := os.WriteFile(png, []byte("not a picture"), 0o644); err != nil {
		t.Fatal(err)
	}
	refused("a view that is no picture", start(EmptyKept{Enrolled: enrolled, Area: a}), EmptyKept{Area: a}, "cannot be read")
	keepOne()
	if err := os.Remove(corners); err != nil {
		t.Fatal(err)
	}
	refused("a view with no corners beside it", start(EmptyKept{Enrolled: enrolled, Area: a}), EmptyKept{Area: a}, "cannot be read")
	// Nothing kept: refused as before, no reason given.
	if _, err := start(EmptyKept{Enrolled: enrolled, Area: a}).Capture(a, false); !errors.Is(err, ErrNoEmpty) || err.Error() != ErrNoEmpty.Error() {
		t.Errorf("nothing kept: %v", err)
	}
	// Kept in memory only: no file is written.
	if err := tb.Show(nil); err != nil {
		t.Fatal(err)
	}
	if _, err := start(EmptyKept{}).Capture(a, true); err != nil || kept(t, enrolled) != "" {
		t.Errorf("kept in memory only: %v, files %q", err, kept(t, enrolled))
	}
}

// The same with a camera that does not watch yet (no faces enrolled, the set-up page's first
// captures): its worker started again captures the 5D against the view kept, and only that.
func TestUnreadyCapturesAfterItStartsAgain(t *testing.T) {
	g := newRig(t, tile.Dot5)
	enrolled := filepath.Join(t.TempDir(), "enrolled")
	f := &liveFeed{g: g}
	serve := func() *unready {
		u := &unready{g: g, done: make(chan error, 1)}
		u.why.Store("the table's faces are not enrolled")
		r, w := io.Pipe()
		u.w = w
		cfg := UnreadyConfig{Open: func() (source.Source, error) { return f, nil }, Live: true, TileW: g.tileW,
			EmptyKept: EmptyKept{Enrolled: enrolled, Area: g.r.Calibration()}, Why: func() string { return u.why.Load().(string) },
			Every: time.Minute, Clock: g.clk, Out: g.out}
		go func() { u.done <- ServeUnready(context.Background(), r, cfg) }()
		return u
	}
	stop := func(u *unready) {
		u.w.Close()
		if err := <-u.done; err != nil {
			t.Errorf("served: %v", err)
		}
	}
	capture := func(u *unready, empty bool) string {
		b, err := json.Marshal(wire.Request{Op: wire.OpCapture, Area: g.r.Calibration(), Empty: empty})
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(u.ask(t, string(b)), "|")
	}
	u := serve()
	if got := capture(u, true); !strings.Contains(got, "picture") {
		t.Fatalf("the empty area: %s", got)
	}
	stop(u)
	f.lay(scene(nil, five))
	u = serve()
	defer stop(u)
	if got := capture(u, false); !strings.Contains(got, fmt.Sprintf("picture (%d,%d)", detect.CropW, detect.CropH)) {
		t.Fatalf("5D alone, the worker started again: %s", got)
	}
}
