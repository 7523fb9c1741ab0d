package watch

import (
	"context"
	"errors"
	"image"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/vision/detect"
	"github.com/siamesetable/siamesed/vision/source"
	"github.com/siamesetable/siamesed/vision/synth"
	"github.com/siamesetable/siamesed/vision/wire"
)

var (
	hand  = &image.Point{X: 320, Y: 300}
	five  = synth.Placed{Face: tile.Dot5, Center: image.Pt(300, 240), Quarter: 1}
	joker = synth.Placed{Face: tile.Joker, Center: image.Pt(150, 120), Quarter: 2}
)

func scene(hand *image.Point, tiles ...synth.Placed) synth.Scene {
	return synth.Scene{Tiles: tiles, Hand: hand}
}

// A recording of a session: the first settled view (not the first frame, where a tile and a
// hand still lie) is the empty area; a hand hovering over a laid tile decides nothing; each
// tile is named on the frame the view has been still for three frames, in the order they came
// and went; the recording's end is said, and it is not opened again.
func TestCameraSeesDiscardsInOrder(t *testing.T) {
	g := newRig(t, tile.Dot5, tile.Dot6, tile.Joker, tile.Flower, tile.East)
	steps := []synth.Step{
		{Scene: scene(hand, five), Frames: 1}, {Scene: scene(hand), Frames: 1}, // frames 1-2: a tile swept off
		{Frames: 4},                                                           // 3-6: empty, still from frame 4 on: the empty area at 6
		{Scene: scene(hand), Frames: 1}, {Scene: scene(nil, five), Frames: 2}, // 7-9
		{Scene: scene(hand, five), Frames: 1}, {Scene: scene(nil, five), Frames: 2}, // 10-12: hovering
		{Scene: scene(hand, five), Frames: 1}, {Scene: scene(nil, five), Frames: 4}, // 13-17: still from 15, decided at 17
		{Scene: scene(hand, five), Frames: 1}, {Scene: scene(nil, five, joker), Frames: 4}, // 18-22: decided at 22
		{Scene: scene(hand, joker), Frames: 1}, {Scene: scene(nil, joker), Frames: 4}, // 23-27: decided at 27
	}
	opened := 0
	open := func() (source.Source, error) {
		opened++
		return &feed{clk: g.clk, s: synth.NewScript(g.r, steps...)}, nil
	}
	g.start(g.config("session.mkv", false, open, time.Hour, time.Hour))
	got := dedup(g.out.until(t, func(r wire.Reply) bool { return strings.Contains(r.Problem, "ended") }))
	want := []string{
		"status waiting for the empty discard area to hold still, to take it as the reference",
		"status ",
		"seen 5D true frame 17",
		"seen J true frame 22",
		"taken 5D true frame 27",
		"status session.mkv ended after 27 frames",
	}
	if !slices.Equal(got, want) {
		t.Errorf("replies:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// A recording is not opened again, however long the wait: two hours on, it has still ended.
	later := g.advanceUntil(time.Minute, func(r wire.Reply) bool { return r.At.Sub(t0) >= 2*time.Hour })
	for _, l := range later {
		if l != want[len(want)-1] {
			t.Errorf("after the recording ended: %q", l)
		}
	}
	if opened != 1 {
		t.Errorf("the recording was opened %d times", opened)
	}
}

// With nothing happening, the status is written every Every, by the frame's clock: never
// sooner, and no later than the first frame after it falls due.
func TestCameraStatusEvery(t *testing.T) {
	g := newRig(t, tile.Dot5)
	open := func() (source.Source, error) {
		return &feed{clk: g.clk, s: synth.NewScript(g.r, synth.Step{Frames: 180}), hang: g.unplug}, nil // 12 s
	}
	g.start(g.config("/dev/video0", true, open, time.Second, time.Minute))
	var at []time.Time
	for r := g.out.next(t); r.At.Sub(t0) < 10*time.Second; r = g.out.next(t) {
		if r.Kind != wire.KindStatus {
			t.Fatalf("%+v in an empty area", r)
		}
		if r.Working {
			at = append(at, r.At)
		}
	}
	if len(at) < 9 || len(at) > 11 {
		t.Errorf("%d working statuses in 10 s, every second: %v", len(at), at)
	}
	for i := 1; i < len(at); i++ {
		if d := at[i].Sub(at[i-1]); d < time.Second || d > time.Second+period {
			t.Errorf("status %d came %v after the one before, want 1s to 1s+%v", i, d, period)
		}
	}
}

// The camera's health as it changes: it cannot be opened (and is tried again after Every); it
// opens, and works once the empty area is known; it sticks in a read, and is said to give no
// frame once Stale has passed; it stops (and is opened again after Every), and works again.
func TestCameraHealth(t *testing.T) {
	g := newRig(t, tile.Dot5)
	hang := []chan struct{}{make(chan struct{}), g.unplug}
	unstick := sync.OnceFunc(func() { close(hang[0]) })
	opened := 0
	open := func() (source.Source, error) {
		opened++
		switch opened {
		case 1:
			return nil, errors.New("no such device")
		case 2:
			return &feed{clk: g.clk, s: synth.NewScript(g.r, synth.Step{Frames: 6}), hang: hang[0]}, nil
		}
		return &feed{clk: g.clk, s: synth.NewScript(g.r, synth.Step{Frames: 6}), hang: hang[1]}, nil
	}
	g.start(g.config("/dev/video0", true, open, 5*time.Second, 3*time.Second))
	t.Cleanup(unstick) // before the camera is stopped (cleanups run last first), should the test fail sooner
	var got []string
	got = append(got, g.out.until(t, func(r wire.Reply) bool { return strings.Contains(r.Problem, "cannot be opened") })...)
	got = append(got, g.advanceUntil(time.Second/4, func(r wire.Reply) bool { return r.Working })...) // opened again after 5 s
	// Stuck in a read: the reporter says so once 3 s have passed since the last frame.
	got = append(got, g.advanceUntil(time.Second/4, func(r wire.Reply) bool { return strings.HasPrefix(r.Problem, "no frame from") })...)
	unstick() // the read gives up: the camera stopped
	got = append(got, g.out.until(t, func(r wire.Reply) bool { return strings.Contains(r.Problem, "stopped") })...)
	got = append(got, g.advanceUntil(time.Second/4, func(r wire.Reply) bool { return r.Working })...)
	// The stale status says how long since the last frame when the reporter looked: 3 s at the
	// instant it fell due, more when the reporter, woken by the camera's reopening, ran late
	// while the test's clock went on (250 ms for every 50 ms of the wall clock); under the 5 s
	// after which it would say it again.
	stale := regexp.MustCompile(`^(status no frame from camera /dev/video0 for )(\d+)s$`)
	for i, l := range got {
		if m := stale.FindStringSubmatch(l); m != nil {
			if n, _ := strconv.Atoi(m[2]); n >= 3 && n < 5 {
				got[i] = m[1] + "3s or a little more"
			}
		}
	}
	want := []string{
		"status camera /dev/video0 cannot be opened: no such device",
		"status waiting for the empty discard area to hold still, to take it as the reference",
		"status ",
		"status no frame from camera /dev/video0 for 3s or a little more",
		"status camera /dev/video0 stopped giving frames",
		"status ",
	}
	if got = dedup(got); !slices.Equal(got, want) {
		t.Errorf("statuses:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if opened != 3 {
		t.Errorf("opened %d times, want 3", opened)
	}
}

// A camera stuck in a read is left behind when the worker stops, so that it can exit; its
// frame loop is not waited for.
func TestCameraLeftStuck(t *testing.T) {
	g := newRig(t, tile.Dot5)
	closed, stuck := make(chan struct{}), make(chan struct{})
	open := func() (source.Source, error) {
		return &feed{clk: g.clk, s: synth.NewScript(g.r, synth.Step{Frames: 2}), hang: g.unplug, closed: closed, stuck: stuck}, nil
	}
	c, err := NewCamera(g.config("/dev/video0", true, open, time.Hour, time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan struct{})
	go func() { defer close(ran); c.Run(ctx) }()
	<-stuck
	cancel()
	for step := 0; ; step++ {
		select {
		case <-ran:
		case <-time.After(20 * time.Millisecond):
			if step > 1000 {
				t.Fatal("Run waits for a camera stuck in a read")
			}
			g.clk.Advance(100 * time.Millisecond)
			continue
		}
		break
	}
	select {
	case <-closed:
		t.Fatal("the camera was not stuck")
	default:
	}
	c.Close() // leaves the frame loop's images alone
	close(g.unplug)
	<-closed
}

// BenchmarkCameraFrame is the frame loop's cost for one frame of a still discard area (most of
// a game's frames: the area already decided on): the small warp and the motion gate, the copy
// kept for a snapshot, the status looked at.
func BenchmarkCameraFrame(b *testing.B) {
	g := newRig(b, tile.Dot5)
	c, err := NewCamera(g.config("/dev/video0", true, func() (source.Source, error) { return nil, errors.New("unused") }, time.Hour, time.Hour))
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	frame, err := g.r.Render(scene(nil, five), 1)
	if err != nil {
		b.Fatal(err)
	}
	defer frame.Close()
	if err := c.SetEmpty(frame); err != nil {
		b.Fatal(err)
	}
	gate := detect.NewGate()
	defer gate.Close()
	for b.Loop() {
		now := g.clk.Now()
		if err := c.see(frame, gate, now); err != nil {
			b.Fatal(err)
		}
		c.status(now)
		g.clk.Advance(period)
	}
}
