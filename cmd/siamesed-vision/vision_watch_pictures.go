package main

import (
	"context"
	"errors"
	"fmt"
	"image"
	"sync"
	"time"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/vision/calib"
	"github.com/siamesetable/siamesed/vision/discard"
	"github.com/siamesetable/siamesed/vision/wire"
)

// The set-up page's pictures: the camera's latest frame (snapshot), and the top-down view of
// it through corners the owner is still placing (preview), warped by vision/calib as the
// worker warps with the saved calibration.

// latestFrame copies the camera's latest frame into dst.
type latestFrame func(dst *gocv.Mat) error

// withPictures answers snapshot and preview requests with a picture, and hands every other
// request to do.
func withPictures(out *wire.Writer, latest latestFrame, do func(wire.Request) ([]discard.Event, error)) func(wire.Request) ([]discard.Event, error) {
	return func(q wire.Request) ([]discard.Event, error) {
		if q.Op != wire.OpSnapshot && q.Op != wire.OpPreview {
			return do(q)
		}
		rep, err := picture(latest, q)
		if err != nil {
			return nil, err
		}
		return nil, out.Reply(rep)
	}
}

// picture is the snapshot or preview q asks for.
func picture(latest latestFrame, q wire.Request) (wire.Reply, error) {
	frame := gocv.NewMat()
	defer frame.Close()
	if err := latest(&frame); err != nil {
		return wire.Reply{}, err
	}
	if q.Op == wire.OpSnapshot {
		return encodePicture(frame)
	}
	w, h := float64(frame.Cols()), float64(frame.Rows())
	for i, c := range q.Area.Corners {
		if c[0] > w || c[1] > h {
			return wire.Reply{}, fmt.Errorf("corner %d (%v,%v) is outside the camera's %vx%v frame", i, c[0], c[1], w, h)
		}
	}
	warper, err := calib.NewWarper(q.Area)
	if err != nil {
		return wire.Reply{}, err
	}
	defer warper.Close()
	view := gocv.NewMat()
	defer view.Close()
	warper.WarpTo(frame, &view, previewSize(q.Area.Size()))
	return encodePicture(view)
}

// maxPreview bounds a preview's longer side: it is for the eye, and a view of 8192 pixels a
// side would take the worker some 200 MB.
const maxPreview = 1600

// previewSize is the view's size, scaled down to maxPreview if larger.
func previewSize(view image.Point) image.Point {
	long := max(view.X, view.Y)
	if long <= maxPreview {
		return view
	}
	return image.Pt(max(1, view.X*maxPreview/long), max(1, view.Y*maxPreview/long))
}

// encodePicture is m as a JPEG picture, at a lower quality if it would not fit a reply.
func encodePicture(m gocv.Mat) (wire.Reply, error) {
	for _, quality := range []int{85, 60, 35} {
		buf, err := gocv.IMEncodeWithParams(gocv.JPEGFileExt, m, []int{gocv.IMWriteJpegQuality, quality})
		if err != nil {
			return wire.Reply{}, fmt.Errorf("encoding a picture: %w", err)
		}
		b := append([]byte(nil), buf.GetBytes()...)
		buf.Close()
		if len(b) <= wire.MaxPicture {
			return wire.Reply{Kind: wire.KindPicture, Width: m.Cols(), Height: m.Rows(), JPEG: b}, nil
		}
	}
	return wire.Reply{}, fmt.Errorf("a %dx%d picture does not fit in %d bytes", m.Cols(), m.Rows(), wire.MaxPicture)
}

// frameTap keeps a real camera's frames for the pictures: the frame loop offers it every frame,
// and it copies one only when a picture is asked for, or once a keepEvery (so that a camera
// that stopped still shows its last frame).
type frameTap struct {
	now       func() time.Time
	keepEvery time.Duration

	mu     sync.Mutex
	last   gocv.Mat // zero until a frame is kept
	lastAt time.Time
	asked  chan struct{} // closed when a frame asked for is kept; nil: none asked for
	closed bool
}

// offer is called by the frame loop with each frame it reads.
func (t *frameTap) offer(frame gocv.Mat) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	if t.closed || (t.asked == nil && !t.lastAt.IsZero() && now.Sub(t.lastAt) < t.keepEvery) {
		return
	}
	if t.lastAt.IsZero() {
		t.last = gocv.NewMat()
	}
	frame.CopyTo(&t.last)
	t.lastAt = now
	if t.asked != nil {
		close(t.asked)
		t.asked = nil
	}
}

// latest waits up to wait for the camera's next frame; failing it, the last one kept.
func (t *frameTap) latest(ctx context.Context, wait time.Duration) latestFrame {
	return func(dst *gocv.Mat) error {
		t.mu.Lock()
		if t.asked == nil {
			t.asked = make(chan struct{})
		}
		asked := t.asked
		t.mu.Unlock()
		timer := time.NewTimer(wait)
		defer timer.Stop()
		select {
		case <-asked:
		case <-timer.C:
		case <-ctx.Done():
			return ctx.Err()
		}
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.lastAt.IsZero() {
			return errors.New("the camera has given no frame yet")
		}
		t.last.CopyTo(dst)
		return nil
	}
}

// close frees the frame kept.
func (t *frameTap) close() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.lastAt.IsZero() && !t.closed {
		t.last.Close()
	}
	t.closed = true
}
