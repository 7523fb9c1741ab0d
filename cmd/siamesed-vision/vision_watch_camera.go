package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/vision/calib"
	"github.com/siamesetable/siamesed/vision/classify"
	"github.com/siamesetable/siamesed/vision/detect"
	"github.com/siamesetable/siamesed/vision/discard"
	"github.com/siamesetable/siamesed/vision/labels"
	"github.com/siamesetable/siamesed/vision/source"
	"github.com/siamesetable/siamesed/vision/wire"
)

// watchCamera runs a real camera (or a video, or a folder of frames): every frame is watched
// (warped small for the motion gate, whole when the view has settled); events are written as they come, and a status line every
// --status-every and whenever the camera's health changes. Moves are refused (ping, snapshot and preview are not).
func watchCamera(ctx context.Context, stdin io.Reader, out *wire.Writer, stderr io.Writer, c *classify.Classifier, f watchFlags) error {
	cal, err := calib.Load(f.calib)
	if err != nil {
		return err
	}
	warper, err := calib.NewWarper(cal)
	if err != nil {
		return err
	}
	defer warper.Close()
	items, err := labels.Read(f.enrolled)
	if err != nil {
		return fmt.Errorf("vision watch: the table's tiles must be enrolled first (siamesed enroll camera --out %s): %w", f.enrolled, err)
	}
	if err := c.EnrolDir(f.enrolled, items); err != nil {
		return err
	}
	cw := &camWatch{f: f, out: out, log: stderr, warper: warper, cls: c, since: time.Now(), tap: &frameTap{now: time.Now, keepEvery: time.Second}}
	defer cw.close()
	if f.empty != "" {
		frame, err := source.ReadImage(f.empty)
		if err != nil {
			return fmt.Errorf("vision watch: the empty view: %w", err)
		}
		defer frame.Close()
		if err := cw.setEmpty(frame, true); err != nil {
			return err
		}
	}
	if err := out.Reply(wire.Reply{Kind: wire.KindHello, Version: wire.Version, Mode: wire.ModeCamera}); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { cw.frames(ctx) })
	wg.Go(func() { cw.report(ctx) })
	err = serve(ctx, stdin, out, withPictures(out, cw.tap.latest(ctx, 2*time.Second), func(q wire.Request) ([]discard.Event, error) {
		if q.Op != wire.OpPing {
			return nil, fmt.Errorf("a real camera sees what hands do: %s is for the simulated camera (--sim)", q.Op)
		}
		return nil, nil
	}))
	cancel()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Second): // a camera stuck in a read: leave it, the process ends
		fmt.Fprintf(stderr, "vision watch: camera %s does not answer; leaving it\n", f.source)
	}
	return err
}

// camWatch is the camera worker's state: the frame loop writes it, the reporter reads it.
type camWatch struct {
	f      watchFlags
	out    *wire.Writer
	log    io.Writer
	warper *calib.Warper
	cls    *classify.Classifier
	tap    *frameTap // the set-up page's snapshots

	mu      sync.Mutex
	watch   *discard.Watcher // nil until the empty area is known
	problem string           // a lasting trouble: cannot open, source ended
	last    time.Time        // of the last frame
	since   time.Time        // the worker's start
	frameN  int
	said    *wire.Reply // the last status written
	saidAt  time.Time
}

// device says whether the source is a camera (which may come back) rather than a recording.
func (cw *camWatch) device() bool {
	_, err := strconv.Atoi(cw.f.source)
	return err == nil || strings.HasPrefix(cw.f.source, "/dev/")
}

// frames opens the source (again and again while it fails), reads it until ctx ends and
// watches every frame. A recording that ends is reported and not reopened.
func (cw *camWatch) frames(ctx context.Context) {
	frame, small := gocv.NewMat(), gocv.NewMat()
	defer frame.Close()
	defer small.Close()
	gate := detect.NewGate()
	defer gate.Close()
	var src source.Source
	defer func() {
		if src != nil {
			src.Close()
		}
	}()
	for ctx.Err() == nil {
		if src == nil {
			var err error
			if src, err = source.Open(cw.f.source); err != nil {
				cw.trouble(fmt.Sprintf("camera %s cannot be opened: %v", cw.f.source, err))
				sleep(ctx, cw.f.every)
				continue
			}
			cw.trouble("")
		}
		err := src.Read(&frame)
		if err != nil {
			src.Close()
			src = nil
			switch {
			case errors.Is(err, io.EOF) && !cw.device():
				cw.trouble(fmt.Sprintf("%s ended after %d frames", cw.f.source, cw.frameN))
				return
			case errors.Is(err, io.EOF):
				cw.trouble(fmt.Sprintf("camera %s stopped giving frames", cw.f.source))
			default:
				cw.trouble(fmt.Sprintf("camera %s: %v", cw.f.source, err))
			}
			sleep(ctx, cw.f.every)
			continue
		}
		cw.tap.offer(frame)
		if err := cw.see(frame, &small, gate, time.Now()); err != nil {
			fmt.Fprintf(cw.log, "vision watch: %v\n", err)
		}
	}
}

// see watches one camera frame: until the empty area is known, the first settled view is it.
// Most frames are only warped small, for the motion gate (Watcher.ProcessFrame).
func (cw *camWatch) see(frame gocv.Mat, small *gocv.Mat, gate *detect.Gate, now time.Time) error {
	cw.mu.Lock()
	cw.last, cw.frameN = now, cw.frameN+1
	w := cw.watch
	cw.mu.Unlock()
	if w == nil {
		cw.warper.WarpTo(frame, small, discard.GateView)
		if settled, _ := gate.Update(*small); settled {
			return cw.setEmpty(frame, true)
		}
		return nil
	}
	evs, err := w.ProcessFrame(frame, cw.warper, now)
	for _, e := range evs {
		if err := cw.out.Reply(eventReply(e)); err != nil {
			return err
		}
	}
	return err
}

// setEmpty starts the Watcher on the empty area: a camera frame (to warp) or a settled view.
func (cw *camWatch) setEmpty(m gocv.Mat, frame bool) error {
	view := m
	if frame {
		view = gocv.NewMat()
		defer view.Close()
		cw.warper.Warp(m, &view)
	}
	w, err := discard.NewWatcher(view, cw.f.tileW, cw.cls)
	if err != nil {
		return err
	}
	cw.mu.Lock()
	cw.watch = w
	cw.mu.Unlock()
	return nil
}

// trouble sets (or, with "", clears) the lasting trouble and reports the change at once.
func (cw *camWatch) trouble(p string) {
	cw.mu.Lock()
	cw.problem = p
	cw.mu.Unlock()
	cw.status(time.Now())
}

// report writes the status every --status-every, and as soon as frames stop coming.
func (cw *camWatch) report(ctx context.Context) {
	tick := time.NewTicker(min(cw.f.every, cw.f.stale) / 4)
	defer tick.Stop()
	for {
		cw.status(time.Now())
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// status writes the status when it changed, or when --status-every has passed since the last.
func (cw *camWatch) status(now time.Time) {
	cw.mu.Lock()
	defer cw.mu.Unlock()
	r := wire.Reply{Kind: wire.KindStatus, Working: true, At: now}
	last := cw.last
	if last.IsZero() {
		last = cw.since
	}
	switch {
	case cw.problem != "":
		r.Problem = cw.problem
	case now.Sub(last) > cw.f.stale:
		r.Problem = fmt.Sprintf("no frame from camera %s for %v", cw.f.source, now.Sub(last).Round(time.Second))
	case cw.watch == nil:
		r.Problem = "waiting for the empty discard area to hold still, to take it as the reference"
	}
	r.Working = r.Problem == ""
	changed := cw.said == nil || cw.said.Working != r.Working || (cw.said.Problem != r.Problem && !strings.HasPrefix(r.Problem, "no frame from"))
	if !changed && now.Sub(cw.saidAt) < cw.f.every {
		return
	}
	if err := cw.out.Reply(r); err != nil {
		fmt.Fprintf(cw.log, "vision watch: %v\n", err)
	}
	cw.said, cw.saidAt = &r, now
}

func (cw *camWatch) close() {
	cw.mu.Lock()
	defer cw.mu.Unlock()
	if cw.watch != nil {
		cw.watch.Close()
	}
	cw.tap.close()
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
