package watch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"
	"time"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/internal/clock"
	"github.com/siamesetable/siamesed/vision/source"
	"github.com/siamesetable/siamesed/vision/wire"
)

// A real camera on a new table has no calibration and no enrolled faces yet, and the set-up
// page needs its frames to make them: until both are there the worker shows its frames
// (snapshot, preview), captures faces to enrol and checks them (capture, check), and says, as
// its status, what is missing; it watches nothing.

// Missing says what a real camera's worker lacks to watch the game, given its calibration file
// and its enrolled faces' folder ("": nothing).
func Missing(calib, enrolled string) string {
	if _, err := os.Stat(calib); errors.Is(err, fs.ErrNotExist) {
		return fmt.Sprintf("the discard area is not calibrated (no %s): set its corners in the set-up page's Camera section", calib)
	}
	if _, err := os.Stat(enrolled); errors.Is(err, fs.ErrNotExist) {
		return fmt.Sprintf("the table's faces are not enrolled (no %s): enrol them in the set-up page's Camera section, or siamesed enroll camera --out %s", enrolled, enrolled)
	}
	return ""
}

// UnreadyConfig is a real camera that cannot watch yet.
type UnreadyConfig struct {
	// Open opens the camera; it is called again after the camera fails.
	Open func() (source.Source, error)
	// Live: a camera, opened again when it stops giving frames. Otherwise a recording, whose
	// last frame stays shown once it ends.
	Live bool
	// TileW is the tile width in the top-down view, for the faces captured to enrol.
	TileW int
	// EmptyKept is where the empty area's view for those captures is kept across restarts.
	EmptyKept EmptyKept
	// Why says what the worker lacks to watch; it is asked again for every status line and
	// every move refused, so the status follows what the owner has done meanwhile.
	Why func() string
	// Every is how often the status is written, and how long to wait before opening a failed
	// camera again.
	Every time.Duration
	// Clock paces the status, the camera's reopening and the pictures' waits.
	Clock clock.Clock
	// Out takes the replies.
	Out Out
}

// ServeUnready says hello as a real camera that does not watch: its frames for the set-up page,
// and a status line saying why it does not watch, every Every; moves are refused, saying why.
// It serves requests until in ends or ctx does.
func ServeUnready(ctx context.Context, in io.Reader, cfg UnreadyConfig) error {
	if cfg.Open == nil || cfg.Why == nil || cfg.Clock == nil || cfg.Out == nil || cfg.Every <= 0 {
		return errors.New("vision watch: an unready camera needs Open, Why, Clock, Out and a positive Every")
	}
	if err := cfg.Out.Reply(wire.Reply{Kind: wire.KindHello, Version: wire.Version, Mode: wire.ModeCamera}); err != nil {
		return err
	}
	if err := cfg.status(); err != nil {
		return err
	}
	tap := &frameTap{clk: cfg.Clock, keepEvery: time.Second}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { cfg.tapFrames(ctx, tap) })
	wg.Go(func() {
		for sleep(ctx, cfg.Clock, cfg.Every); ctx.Err() == nil; sleep(ctx, cfg.Clock, cfg.Every) {
			_ = cfg.status()
		}
	})
	refuse := func(q wire.Request) ([]wire.Reply, error) {
		return nil, fmt.Errorf("the camera does not watch yet: %s", cfg.Why())
	}
	latest := tap.latest(ctx, 2*time.Second)
	capture := NewCapturer(latest, nil, cfg.TileW) // latest waits for the next frame itself
	defer capture.Close()
	capture.Keep(cfg.EmptyKept)
	ops := PictureOps(latest).with(EnrolOps(capture)).with(Ops{wire.OpPing: ping,
		wire.OpPut: refuse, wire.OpTake: refuse, wire.OpClear: refuse, wire.OpLay: refuse, wire.OpShow: refuse})
	err := Serve(ctx, in, cfg.Out, ops)
	cancel()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	timer, fired := cfg.Clock.NewTimer(2 * time.Second)
	defer timer.Stop()
	select {
	case <-done:
		tap.close()
	case <-fired: // a camera stuck in a read: leave it (and its frame), the process ends
	}
	return err
}

// status says why the camera does not watch, as it stands now.
func (cfg UnreadyConfig) status() error {
	why := cfg.Why()
	if why == "" {
		why = "the camera can watch now: the worker watches once it starts again"
	}
	return cfg.Out.Reply(wire.Reply{Kind: wire.KindStatus, Problem: why, At: cfg.Clock.Now()})
}

// tapFrames reads the camera into tap until ctx ends, opening it again while it fails; a
// recording that ends is not reopened (its last frame kept stays shown).
func (cfg UnreadyConfig) tapFrames(ctx context.Context, tap *frameTap) {
	frame := gocv.NewMat()
	defer frame.Close()
	for ctx.Err() == nil {
		src, err := cfg.Open()
		if err != nil {
			sleep(ctx, cfg.Clock, cfg.Every)
			continue
		}
		for err == nil && ctx.Err() == nil {
			if err = src.Read(&frame); err == nil {
				tap.offer(frame)
			}
		}
		src.Close()
		if errors.Is(err, io.EOF) && !cfg.Live {
			return
		}
		sleep(ctx, cfg.Clock, cfg.Every)
	}
}

// sleep waits d on clk, or until ctx ends.
func sleep(ctx context.Context, clk clock.Clock, d time.Duration) {
	t, fired := clk.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-fired:
	}
}
