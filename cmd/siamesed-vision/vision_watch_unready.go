package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/vision/source"
	"github.com/siamesetable/siamesed/vision/watch"
	"github.com/siamesetable/siamesed/vision/wire"
)

// A real camera on a new table has no calibration and no enrolled faces yet, and the set-up
// page needs its frames to make them: until both are there the worker shows its frames
// (snapshot, preview), captures faces to enrol and checks them (capture, check), and says, as
// its status, what is missing; it watches nothing.

// unready says what a real camera's worker lacks to watch the game ("": nothing).
func unready(f watchFlags) string {
	if _, err := os.Stat(f.calib); errors.Is(err, fs.ErrNotExist) {
		return fmt.Sprintf("the discard area is not calibrated (no %s): set its corners in the set-up page's Camera section", f.calib)
	}
	if _, err := os.Stat(f.enrolled); errors.Is(err, fs.ErrNotExist) {
		return fmt.Sprintf("the table's faces are not enrolled (no %s): enrol them in the set-up page's Camera section, or siamesed enroll camera --out %s", f.enrolled, f.enrolled)
	}
	return ""
}

// watchUnready runs a real camera that cannot watch yet: its frames for the set-up page, and a
// status line saying why it does not watch, every --status-every.
func watchUnready(ctx context.Context, stdin io.Reader, out *wire.Writer, f watchFlags, why string) error {
	tap := &frameTap{now: time.Now, keepEvery: time.Second}
	if err := out.Reply(wire.Reply{Kind: wire.KindHello, Version: wire.Version, Mode: wire.ModeCamera}); err != nil {
		return err
	}
	if err := out.Reply(wire.Reply{Kind: wire.KindStatus, Problem: why, At: time.Now()}); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { tapFrames(ctx, tap, f) })
	wg.Go(func() {
		for sleep(ctx, f.every); ctx.Err() == nil; sleep(ctx, f.every) {
			_ = out.Reply(wire.Reply{Kind: wire.KindStatus, Problem: why, At: time.Now()})
		}
	})
	refuse := func(q wire.Request) ([]wire.Reply, error) {
		return nil, fmt.Errorf("the camera does not watch yet: %s", why)
	}
	latest := tap.latest(ctx, 2*time.Second)
	capture := watch.NewCapturer(latest, nil, f.tileW) // latest waits for the next frame itself
	defer capture.Close()
	ops := watch.PictureOps(latest)
	for op, h := range watch.EnrolOps(capture) {
		ops[op] = h
	}
	ops[wire.OpPing] = func(wire.Request) ([]wire.Reply, error) { return nil, nil }
	for _, op := range []wire.Op{wire.OpPut, wire.OpTake, wire.OpClear, wire.OpLay, wire.OpShow} {
		ops[op] = refuse
	}
	err := watch.Serve(ctx, stdin, out, ops)
	cancel()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
		tap.close()
	case <-time.After(2 * time.Second): // a camera stuck in a read: leave it (and its frame), the process ends
	}
	return err
}

// tapFrames reads the source into tap until ctx ends, opening it again while it fails; a
// recording that ends is not reopened (its last frame kept stays shown).
func tapFrames(ctx context.Context, tap *frameTap, f watchFlags) {
	frame := gocv.NewMat()
	defer frame.Close()
	for ctx.Err() == nil {
		src, err := source.Open(f.source)
		if err != nil {
			sleep(ctx, f.every)
			continue
		}
		for err == nil && ctx.Err() == nil {
			if err = src.Read(&frame); err == nil {
				tap.offer(frame)
			}
		}
		src.Close()
		if errors.Is(err, io.EOF) && !isDevice(f.source) {
			return
		}
		sleep(ctx, f.every)
	}
}

// isDevice says whether src is a camera (which may come back) rather than a recording.
func isDevice(src string) bool {
	_, err := strconv.Atoi(src)
	return err == nil || strings.HasPrefix(src, "/dev/")
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
