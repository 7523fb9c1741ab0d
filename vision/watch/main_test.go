package watch

import (
	"context"
	"fmt"
	"image"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/internal/clock"
	"github.com/siamesetable/siamesed/vision/calib"
	"github.com/siamesetable/siamesed/vision/classify"
	"github.com/siamesetable/siamesed/vision/detect"
	"github.com/siamesetable/siamesed/vision/simcam"
	"github.com/siamesetable/siamesed/vision/source"
	"github.com/siamesetable/siamesed/vision/synth"
	"github.com/siamesetable/siamesed/vision/wire"
)

// TestMain lets this test binary serve as the child process that loads a model first.
func TestMain(m *testing.M) {
	classify.ServeProbe()
	os.Exit(m.Run())
}

var t0 = time.Date(2026, 11, 25, 19, 0, 0, 0, time.UTC)

// period is the fake camera's time between frames: 15 frames a second.
const period = time.Second / 15

// rig is a camera's surroundings in a test: synthetic frames of a calibrated camera, a
// classifier that knows the faces the test lays, a fake clock and the replies written.
type rig struct {
	t     testing.TB
	r     *synth.Renderer
	warp  *calib.Warper
	cls   *classify.Classifier
	clk   *clock.Fake
	out   *chanOut
	tileW int
	// unplug ends, when the test does, the reads of feeds that hang at their end.
	unplug chan struct{}
}

func newRig(t testing.TB, faces ...tile.Face) *rig {
	t.Helper()
	art, err := synth.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { art.Close() })
	opts := simcam.Camera()
	opts.Seed = 3
	r, err := synth.NewRenderer(art, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	warp, err := calib.NewWarper(r.Calibration())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { warp.Close() })
	cls, warnings := classify.Open("")
	if len(warnings) > 0 {
		t.Fatal(warnings)
	}
	t.Cleanup(func() { cls.Close() })
	g := &rig{t: t, r: r, warp: warp, cls: cls, clk: clock.NewFake(t0), out: &chanOut{c: make(chan wire.Reply, 10000)}, tileW: opts.TileW, unplug: make(chan struct{})}
	g.enrol(faces)
	return g
}

// enrol shows the classifier each face once, as enroll camera does: all laid out on the
// area, found against the empty view.
func (g *rig) enrol(faces []tile.Face) {
	var s synth.Scene
	for i, f := range faces {
		s.Tiles = append(s.Tiles, synth.Placed{Face: f, Center: image.Pt(80+120*(i%5), 90+150*(i/5))})
	}
	empty, full := g.view(synth.Scene{}), g.view(s)
	defer empty.Close()
	defer full.Close()
	found, _, err := detect.Extractor{TileW: g.tileW}.Extract(full, empty)
	if err != nil {
		g.t.Fatal(err)
	}
	for _, fd := range found {
		if i := s.Nearest(fd.Center, g.tileW/3); i >= 0 {
			if err := g.cls.Enrol(s.Tiles[i].Face, fd.Crop); err != nil {
				g.t.Fatal(err)
			}
		}
		fd.Crop.Close()
	}
	if g.cls.Len() != len(faces) {
		g.t.Fatalf("enrolled %d of %d faces", g.cls.Len(), len(faces))
	}
}

func (g *rig) view(s synth.Scene) gocv.Mat {
	frame, err := g.r.Render(s, 99)
	if err != nil {
		g.t.Fatal(err)
	}
	defer frame.Close()
	v := gocv.NewMat()
	g.warp.Warp(frame, &v)
	return v
}

// config is a camera on the rig: status every and stale as given.
func (g *rig) config(name string, live bool, open func() (source.Source, error), every, stale time.Duration) Config {
	return Config{Name: name, Open: open, Live: live, Warp: g.warp, Classifier: g.cls, TileW: g.tileW,
		Every: every, Stale: stale, Clock: g.clk, Out: g.out, Log: testLog{g.t}}
}

// start runs a camera until the test ends; then its cables come loose (unplug), and the
// camera is stopped and freed once its frame loop has ended.
func (g *rig) start(cfg Config) *Camera {
	c, err := NewCamera(cfg)
	if err != nil {
		g.t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); c.Run(ctx) }()
	g.t.Cleanup(func() {
		close(g.unplug)
		cancel()
		<-done
		c.Close()
	})
	return c
}

// feed is a fake camera: a script of synthetic frames, each coming period after the last on
// the fake clock; at its end it either ends (io.EOF) or, with hang, blocks until hang is closed,
// as a camera whose cable came loose.
type feed struct {
	clk    *clock.Fake
	s      *synth.Script
	hang   chan struct{}
	closed chan struct{} // closed by Close, when given
	stuck  chan struct{} // closed as it starts to hang, when given
}

func (f *feed) Read(dst *gocv.Mat) error {
	f.clk.Advance(period)
	err := f.s.Read(dst)
	if err == io.EOF && f.hang != nil {
		if f.stuck != nil {
			close(f.stuck)
		}
		<-f.hang
	}
	return err
}

func (f *feed) Close() error {
	if f.closed != nil {
		close(f.closed)
	}
	return nil
}

// chanOut keeps the replies written, in order.
type chanOut struct{ c chan wire.Reply }

func (o *chanOut) Reply(r wire.Reply) error {
	if _, err := r.MarshalJSON(); err != nil {
		return err // as a wire.Writer refuses it
	}
	o.c <- r
	return nil
}

// next waits for the next reply.
func (o *chanOut) next(t *testing.T) wire.Reply {
	t.Helper()
	select {
	case r := <-o.c:
		return r
	case <-time.After(time.Minute):
		t.Fatal("no reply within a minute")
		return wire.Reply{}
	}
}

// until reads replies up to one that ok accepts, and returns them all as lines (see line).
func (o *chanOut) until(t *testing.T, ok func(wire.Reply) bool) []string {
	t.Helper()
	var got []string
	for {
		r := o.next(t)
		got = append(got, line(r))
		if ok(r) {
			return got
		}
	}
}

// line is a reply as a test compares it: events with their face, whether known, and the
// frame they were decided on; statuses with their problem.
func line(r wire.Reply) string {
	switch r.Kind {
	case wire.KindSeen, wire.KindTaken:
		return fmt.Sprintf("%s %v %v frame %d", r.Kind, r.Face, r.Known, frameAt(r.At))
	case wire.KindStatus:
		return "status " + r.Problem
	}
	return string(r.Kind)
}

// frameAt is the number (from 1) of the fake camera's frame that came at t.
func frameAt(t time.Time) int { return int((t.Sub(t0) + period/2) / period) }

// dedup drops a status line repeating the one before it.
func dedup(lines []string) []string {
	var out []string
	said := ""
	for _, l := range lines {
		if strings.HasPrefix(l, "status ") {
			if l == said {
				continue
			}
			said = l
		}
		out = append(out, l)
	}
	return out
}

type testLog struct{ t testing.TB }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// advanceUntil moves the fake clock on step at a time, giving the camera's
// goroutines a moment after each step, until a reply ok accepts has come (within 240 steps),
// and returns the replies up to it as lines.
func (g *rig) advanceUntil(step time.Duration, ok func(wire.Reply) bool) []string {
	g.t.Helper()
	var got []string
	for range 240 {
		g.clk.Advance(step)
		for wait := time.After(50 * time.Millisecond); ; {
			select {
			case r := <-g.out.c:
				got = append(got, line(r))
				if ok(r) {
					return got
				}
				continue
			case <-wait:
			}
			break
		}
	}
	g.t.Fatalf("nothing awaited within 240 steps of the fake clock; replies: %q", got)
	return nil
}
