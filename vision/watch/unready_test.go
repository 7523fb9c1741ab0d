package watch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/jpeg"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/vision/source"
	"github.com/siamesetable/siamesed/vision/synth"
	"github.com/siamesetable/siamesed/vision/wire"
)

// unready is a camera that does not watch yet, served on the rig's fake clock: its requests go
// in through w, its replies come out on the rig.
type unready struct {
	g      *rig
	w      *io.PipeWriter
	why    atomic.Value // string
	opened atomic.Int32
	done   chan error
}

// startUnready serves a camera whose opens after the first failing (a camera still starting)
// give three synthetic frames and end; live, it is opened again after every minute.
func startUnready(t *testing.T, g *rig, live bool) *unready {
	u := &unready{g: g, done: make(chan error, 1)}
	u.why.Store("the discard area is not calibrated")
	r, w := io.Pipe()
	u.w = w
	open := func() (source.Source, error) {
		if u.opened.Add(1) == 1 {
			return nil, errors.New("no such camera yet")
		}
		return &feed{clk: g.clk, s: synth.NewScript(g.r, synth.Step{Frames: 3})}, nil
	}
	cfg := UnreadyConfig{Open: open, Live: live, Why: func() string { return u.why.Load().(string) }, Every: time.Minute, Clock: g.clk, Out: g.out}
	go func() { u.done <- ServeUnready(context.Background(), r, cfg) }()
	t.Cleanup(func() {
		w.Close()
		if err := <-u.done; err != nil {
			t.Errorf("served: %v", err)
		}
	})
	return u
}

// ask sends a request line and moves the clock on a second at a time until it is answered
// (done or an error); it returns the replies to it and any status line written meanwhile.
func (u *unready) ask(t *testing.T, line string) []string {
	t.Helper()
	go fmt.Fprintln(u.w, line)
	return u.until(t, time.Second, func(r wire.Reply) bool { return r.Kind == wire.KindDone || r.Kind == wire.KindError })
}

// until moves the clock on step at a time until a reply ok accepts has come, returning the
// replies as unreadyLines.
func (u *unready) until(t *testing.T, step time.Duration, ok func(wire.Reply) bool) []string {
	t.Helper()
	var got []string
	for range 240 {
		for wait := time.After(50 * time.Millisecond); ; {
			select {
			case r := <-u.g.out.c:
				got = append(got, unreadyLine(t, r))
				if ok(r) {
					return got
				}
				continue
			case <-wait:
			}
			break
		}
		u.g.clk.Advance(step)
	}
	t.Fatalf("nothing awaited within 240 steps of the fake clock; replies: %q", got)
	return nil
}

// unreadyLine is a reply as these tests compare it: a picture by its size.
func unreadyLine(t *testing.T, r wire.Reply) string {
	switch r.Kind {
	case wire.KindPicture:
		img, err := jpeg.Decode(bytes.NewReader(r.JPEG))
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("picture %v", img.Bounds().Size())
	case wire.KindError:
		return "error " + r.Error
	case wire.KindDone:
		return fmt.Sprintf("done %d", r.Line)
	case wire.KindHello:
		return "hello " + r.Mode
	}
	return line(r)
}

func frameSize(t *testing.T, g *rig) string {
	m := gocv.NewMat()
	defer m.Close()
	if err := synth.NewScript(g.r, synth.Step{Frames: 1}).Read(&m); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("picture (%d,%d)", m.Cols(), m.Rows())
}

// A real camera that cannot watch yet: it says hello and why it does not watch; before its
// first frame a snapshot is an error saying so; a camera that failed to open is opened again
// after Every, and its frames are shown; the status is written every Every, saying what is
// missing as it stands then; moves are refused, saying why now.
func TestUnreadyShowsFramesAndSaysWhy(t *testing.T) {
	g := newRig(t)
	u := startUnready(t, g, true)
	if got := u.until(t, time.Second, func(r wire.Reply) bool { return r.Kind == wire.KindStatus }); strings.Join(got, "|") != "hello camera|status the discard area is not calibrated" {
		t.Fatalf("at start: %q", got)
	}
	if got := u.ask(t, `{"op":"snapshot"}`); len(got) != 1 || got[0] != "error line 1: snapshot: the camera has given no frame yet" {
		t.Fatalf("before any frame: %q", got)
	}
	// A minute on, the status again, and the camera is opened again: its frames come.
	if got := u.until(t, 10*time.Second, func(r wire.Reply) bool { return r.Kind == wire.KindStatus }); got[len(got)-1] != "status the discard area is not calibrated" {
		t.Fatalf("a minute on: %q", got)
	}
	if got := u.ask(t, `{"op":"snapshot"}`); len(got) < 2 || got[len(got)-2] != frameSize(t, g) || got[len(got)-1] != "done 2" {
		t.Fatalf("a snapshot once the camera opened: %q", got)
	}
	// The owner calibrates: the next status says what is missing now, and so does a refusal.
	u.why.Store("the table's faces are not enrolled")
	if got := u.until(t, 10*time.Second, func(r wire.Reply) bool { return r.Kind == wire.KindStatus }); got[len(got)-1] != "status the table's faces are not enrolled" {
		t.Fatalf("once calibrated: %q", got)
	}
	put := `{"op":"put","face":"5D","at":"2026-11-25T19:00:00Z"}`
	if got := u.ask(t, put); got[len(got)-1] != "error line 3: put: the camera does not watch yet: the table's faces are not enrolled" {
		t.Fatalf("a move: %q", got)
	}
	u.why.Store("")
	if got := u.until(t, 10*time.Second, func(r wire.Reply) bool { return r.Kind == wire.KindStatus }); !strings.HasPrefix(got[len(got)-1], "status the camera can watch now") {
		t.Fatalf("with nothing missing: %q", got)
	}
	if n := u.opened.Load(); n < 3 {
		t.Errorf("opened %d times: a live camera whose frames stopped is opened again every minute", n)
	}
}

// A recording that ends is not opened again, however long the wait; its last frame stays shown.
func TestUnreadyRecordingEnds(t *testing.T) {
	g := newRig(t)
	u := startUnready(t, g, false)
	u.until(t, 10*time.Second, func(r wire.Reply) bool { return r.Kind == wire.KindStatus && u.opened.Load() == 2 })
	for range 5 {
		u.until(t, 10*time.Second, func(r wire.Reply) bool { return r.Kind == wire.KindStatus })
	}
	if n := u.opened.Load(); n != 2 {
		t.Errorf("opened %d times: the recording ended is opened again", n)
	}
	if got := u.ask(t, `{"op":"snapshot"}`); len(got) < 2 || got[len(got)-2] != frameSize(t, g) {
		t.Fatalf("a snapshot of the recording ended: %q", got)
	}
}

// Missing names the calibration first, then the enrolled faces, then nothing.
func TestMissing(t *testing.T) {
	dir := t.TempDir()
	cal, enrolled := filepath.Join(dir, "calibration.yaml"), filepath.Join(dir, "enrolled")
	if m := Missing(cal, enrolled); !strings.HasPrefix(m, "the discard area is not calibrated (no "+cal+")") {
		t.Errorf("with neither: %q", m)
	}
	if err := os.WriteFile(cal, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if m := Missing(cal, enrolled); !strings.HasPrefix(m, "the table's faces are not enrolled (no "+enrolled+")") {
		t.Errorf("calibrated: %q", m)
	}
	if err := os.Mkdir(enrolled, 0o755); err != nil {
		t.Fatal(err)
	}
	if m := Missing(cal, enrolled); m != "" {
		t.Errorf("with both: %q", m)
	}
}
