package watch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/internal/clock"
	"github.com/siamesetable/siamesed/vision/classify"
	"github.com/siamesetable/siamesed/vision/detect"
	"github.com/siamesetable/siamesed/vision/discard"
	"github.com/siamesetable/siamesed/vision/source"
	"github.com/siamesetable/siamesed/vision/wire"
)

// Config is a real camera to watch (or a recording of one).
type Config struct {
	// Name is the camera as its user named it, for messages.
	Name string
	// Open opens the camera; it is called again after the camera fails.
	Open func() (source.Source, error)
	// Live: a camera, opened again when it stops giving frames. Otherwise a recording, which
	// ends.
	Live bool
	// Warp makes top-down views of the discard area (calib.Warper).
	Warp discard.Warp
	// Classifier names the faces, with the table's faces enrolled.
	Classifier *classify.Classifier
	// TileW is a tile's width in the top-down view, pixels.
	TileW int
	// EmptyKept is where the set-up page's captures keep the empty area's view across restarts.
	EmptyKept EmptyKept
	// Every is how often the status is written while nothing changes, and how long to wait
	// before opening a failed camera again.
	Every time.Duration
	// Stale: no frame for this long and the camera is not working.
	Stale time.Duration
	// Clock tells the frames' time and paces the status; clock.Real outside tests.
	Clock clock.Clock
	// Out takes the events and status lines.
	Out Out
	// Log takes what goes wrong and is not the camera's health (stderr).
	Log io.Writer
}

// Camera watches a real camera's frames: each is warped small for the motion gate, and whole
// when the view has settled; events are written as they come, and the status every Every and
// whenever the camera's health changes. The frame loop writes its state, the reporter and the
// request handlers read it.
type Camera struct {
	cfg  Config
	poke chan struct{} // trouble changed: the reporter looks again

	mu      sync.Mutex
	watch   *discard.Watcher // nil until the empty area is known
	problem string           // a lasting trouble: cannot open, stopped, ended
	last    time.Time        // of the last frame
	heard   time.Time        // the last frame, or the camera's (re)opening if later: stale from then
	since   time.Time        // the camera's start
	frames  int
	latest  gocv.Mat // the last frame, for a snapshot
	said    *wire.Reply
	saidAt  time.Time
	stuck   bool // the frame loop was left in a read: its Mats are not freed

	capture *Capturer // the set-up page's enrolment, from the latest frames
}

// NewCamera checks cfg and returns a Camera; Close frees it.
func NewCamera(cfg Config) (*Camera, error) {
	if cfg.Open == nil || cfg.Warp == nil || cfg.Classifier == nil || cfg.Clock == nil || cfg.Out == nil || cfg.Log == nil {
		return nil, errors.New("vision watch: a camera needs Open, Warp, Classifier, Clock, Out and Log")
	}
	if cfg.TileW < 8 || cfg.Every <= 0 || cfg.Stale <= 0 {
		return nil, fmt.Errorf("vision watch: tile width %d (want 8 or more), status every %v and stale %v (want above 0)", cfg.TileW, cfg.Every, cfg.Stale)
	}
	now := cfg.Clock.Now()
	c := &Camera{cfg: cfg, since: now, heard: now, latest: gocv.NewMat(), poke: make(chan struct{}, 1)}
	c.capture = NewCapturer(c.latestFrame, c.nextFrame, cfg.TileW)
	c.capture.Keep(cfg.EmptyKept)
	return c, nil
}

// latestFrame is Latest as a LatestFrame.
func (c *Camera) latestFrame(dst *gocv.Mat) error {
	if _, ok := c.Latest(dst); !ok {
		return errors.New("the camera has given no frame yet")
	}
	return nil
}

// nextFrame waits about a frame of a camera at 15 frames a second, on the camera's clock.
func (c *Camera) nextFrame() {
	_, ch := c.cfg.Clock.NewTimer(time.Second / 15)
	<-ch
}

// SetEmpty starts the Watcher on a camera frame of the empty discard area (without it, the
// first settled view is taken as the empty area).
func (c *Camera) SetEmpty(frame gocv.Mat) error {
	view := gocv.NewMat()
	defer view.Close()
	c.cfg.Warp.Warp(frame, &view)
	w, err := discard.NewWatcher(view, c.cfg.TileW, c.cfg.Classifier)
	if err != nil {
		return err
	}
	c.mu.Lock()
	old := c.watch
	c.watch = w
	c.mu.Unlock()
	if old != nil {
		old.Close()
	}
	c.status(c.cfg.Clock.Now())
	return nil
}

// Latest copies the camera's last frame into dst and says when it came; false before the
// first.
func (c *Camera) Latest(dst *gocv.Mat) (time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.latest.Empty() {
		return time.Time{}, false
	}
	c.latest.CopyTo(dst)
	return c.last, true
}

// Run reads and watches frames, and reports the camera's health, until ctx ends. A camera
// stuck in a read is left behind after a second and a half, so that the worker can exit.
func (c *Camera) Run(ctx context.Context) {
	var wg sync.WaitGroup
	wg.Go(func() { c.report(ctx) })
	loop := make(chan struct{})
	go func() { defer close(loop); c.frameLoop(ctx) }()
	select {
	case <-loop:
		<-ctx.Done() // a recording ended; the health is still reported
	case <-ctx.Done():
		timer, fired := c.cfg.Clock.NewTimer(1500 * time.Millisecond)
		defer timer.Stop()
		select {
		case <-loop:
		case <-fired:
			c.mu.Lock()
			c.stuck = true
			c.mu.Unlock()
			fmt.Fprintf(c.cfg.Log, "vision watch: camera %s does not answer; leaving it\n", c.cfg.Name)
		}
	}
	wg.Wait()
}

// frameLoop opens the camera (again and again while it fails), reads it until ctx ends and
// watches every frame. A recording that ends is reported and not opened again.
func (c *Camera) frameLoop(ctx context.Context) {
	frame := gocv.NewMat()
	gate := detect.NewGate()
	var src source.Source
	defer func() {
		if src != nil {
			src.Close()
		}
		frame.Close()
		gate.Close()
	}()
	for ctx.Err() == nil {
		if src == nil {
			var err error
			if src, err = c.cfg.Open(); err != nil {
				c.trouble(fmt.Sprintf("camera %s cannot be opened: %v", c.cfg.Name, err))
				c.sleep(ctx, c.cfg.Every)
				continue
			}
			c.mu.Lock()
			c.heard = c.cfg.Clock.Now()
			c.mu.Unlock()
			c.trouble("")
		}
		if err := src.Read(&frame); err != nil {
			src.Close()
			src = nil
			switch {
			case errors.Is(err, io.EOF) && !c.cfg.Live:
				c.trouble(fmt.Sprintf("%s ended after %d frames", c.cfg.Name, c.frameCount()))
				return
			case errors.Is(err, io.EOF):
				c.trouble(fmt.Sprintf("camera %s stopped giving frames", c.cfg.Name))
			default:
				c.trouble(fmt.Sprintf("camera %s: %v", c.cfg.Name, err))
			}
			c.sleep(ctx, c.cfg.Every)
			continue
		}
		now := c.cfg.Clock.Now()
		if err := c.see(frame, gate, now); err != nil {
			fmt.Fprintf(c.cfg.Log, "vision watch: %v\n", err)
		}
		c.status(now)
	}
}

// see watches one camera frame: until the empty area is known, the first settled view is it.
// Most frames are only warped small, for the motion gate (Watcher.ProcessFrame).
func (c *Camera) see(frame gocv.Mat, gate *detect.Gate, now time.Time) error {
	c.mu.Lock()
	c.last, c.heard, c.frames = now, now, c.frames+1
	frame.CopyTo(&c.latest)
	w := c.watch
	c.mu.Unlock()
	if w == nil {
		small := gocv.NewMat()
		defer small.Close()
		c.cfg.Warp.WarpTo(frame, &small, discard.GateView)
		if settled, _ := gate.Update(small); settled {
			return c.SetEmpty(frame)
		}
		return nil
	}
	evs, err := w.ProcessFrame(frame, c.cfg.Warp, now)
	for _, e := range evs {
		if err := c.cfg.Out.Reply(EventReply(e)); err != nil {
			return err
		}
	}
	return err
}

func (c *Camera) frameCount() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.frames
}

// sleep waits d on the clock, or until ctx ends.
func (c *Camera) sleep(ctx context.Context, d time.Duration) { sleep(ctx, c.cfg.Clock, d) }

// Close frees the camera's images (not those of a frame loop left stuck in a read).
func (c *Camera) Close() error {
	c.capture.Close() // first: a capture in flight takes c.mu for each frame
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stuck {
		return nil
	}
	if c.watch != nil {
		c.watch.Close()
		c.watch = nil
	}
	return c.latest.Close()
}
