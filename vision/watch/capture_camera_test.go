package watch

import (
	"errors"
	"io"
	"sync"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/vision/source"
	"github.com/siamesetable/siamesed/vision/synth"
	"github.com/siamesetable/siamesed/vision/wire"
)

// liveFeed is a live fake camera showing whatever scene the test lays, a frame every couple of
// milliseconds, each period on the fake clock, with fresh sensor noise, until the test ends.
type liveFeed struct {
	g     *rig
	mu    sync.Mutex
	scene synth.Scene
	n     uint64
}

func (f *liveFeed) Read(dst *gocv.Mat) error {
	select {
	case <-f.g.unplug:
		return io.EOF
	case <-time.After(2 * time.Millisecond):
	}
	f.g.clk.Advance(period)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n++
	return f.g.r.RenderTo(f.scene, f.n, dst)
}

func (f *liveFeed) Close() error { return nil }

func (f *liveFeed) lay(s synth.Scene) {
	f.mu.Lock()
	f.scene = s
	f.mu.Unlock()
}

// A real camera's worker captures from its live frames, waiting a frame between two on its
// clock: the empty area, then a 5D laid alone, named 5D from its crop; two tiles are refused;
// the simulated camera's show is refused, naming why.
func TestCaptureOnALiveCamera(t *testing.T) {
	g := newRig(t, tile.Dot5, tile.Joker)
	f := &liveFeed{g: g}
	c := g.start(g.config("camera 0", true, func() (source.Source, error) { return f, nil }, time.Hour, time.Hour))
	ops := c.Ops()
	a := g.r.Calibration()
	capture := func(empty bool) (wire.Reply, error) {
		reps, err := dispatch(ops, wire.Request{Op: wire.OpCapture, Area: a, Empty: empty})
		if err != nil {
			return wire.Reply{}, err
		}
		return reps[0], nil
	}
	awaitFrame(t, c)
	if _, err := capture(true); err != nil {
		t.Fatalf("the empty area: %v", err)
	}
	f.lay(scene(nil, five))
	rep, err := capture(false)
	if err != nil {
		t.Fatalf("5D alone: %v", err)
	}
	if got := named(t, g.cls, rep.JPEG); got != tile.Dot5 {
		t.Errorf("the crop of 5D is named %v", got)
	}
	f.lay(scene(nil, five, joker))
	if _, err := capture(false); !errors.Is(err, ErrManyTiles) {
		t.Errorf("two tiles: %v, want ErrManyTiles", err)
	}
	if _, err := dispatch(ops, wire.Request{Op: wire.OpShow, Faces: []tile.Face{tile.Dot5}}); err == nil {
		t.Error("a real camera took show")
	}
}

// awaitFrame waits, a minute at most, for the camera's first frame.
func awaitFrame(t *testing.T, c *Camera) {
	t.Helper()
	m := gocv.NewMat()
	defer m.Close()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		if _, ok := c.Latest(&m); ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the camera gave no frame within a minute")
		}
	}
}
