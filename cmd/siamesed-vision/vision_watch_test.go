package main

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"io"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/vision/synth"
	"github.com/siamesetable/siamesed/vision/wire"
)

var watchT0 = time.Date(2026, 11, 23, 19, 0, 0, 0, time.UTC)

// replies reads every reply line of out, failing on a line that is not one.
func replies(t *testing.T, out string) []wire.Reply {
	t.Helper()
	r := wire.NewReader(strings.NewReader(out))
	var rs []wire.Reply
	for {
		rep, err := r.Reply()
		if err == io.EOF {
			return rs
		}
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		rs = append(rs, rep)
	}
}

func request(op wire.Op, f tile.Face, at time.Time) string {
	b, err := wire.Request{Op: op, Face: f, At: at}.MarshalJSON()
	if err != nil {
		panic(err)
	}
	return string(b) + "\n"
}

// The simulated camera: each put of a face gives a seen event naming it (or honestly not
// known), each take a taken event, then done naming the request's line; a bad line and an
// impossible take get an error naming their line, and the worker carries on; it ends cleanly
// when stdin ends.
func TestVisionWatchSim(t *testing.T) {
	var in strings.Builder
	type want struct {
		kind wire.Kind
		face tile.Face
	}
	wants := map[int][]want{} // by request line
	line := 0
	add := func(s string, w ...want) { in.WriteString(s); line++; wants[line] = w }
	add(request(wire.OpPut, tile.Dot5, watchT0), want{wire.KindSeen, tile.Dot5}, want{wire.KindDone, 0})
	add(request(wire.OpPut, tile.Joker, watchT0.Add(time.Second)), want{wire.KindSeen, tile.Joker}, want{wire.KindDone, 0})
	add("put 5D now\n", want{wire.KindError, 0})
	add(request(wire.OpTake, tile.Dot5, watchT0.Add(2*time.Second)), want{wire.KindTaken, tile.Dot5}, want{wire.KindDone, 0})
	add(request(wire.OpTake, tile.Crak9, watchT0.Add(3*time.Second)), want{wire.KindError, 0})
	add(`{"op":"ping"}`+"\n", want{wire.KindDone, 0})
	rng := rand.New(rand.NewPCG(4, 4))
	for i := range 24 {
		f := tile.Face(rng.IntN(tile.NumFaces))
		add(request(wire.OpPut, f, watchT0.Add(time.Duration(10+i)*time.Second)), want{wire.KindSeen, f}, want{wire.KindDone, 0})
	}
	add(request(wire.OpClear, 0, watchT0.Add(time.Minute)), make([]want, 26)...) // the joker and the 24 taken, done
	var out, errb bytes.Buffer
	if err := visionWatch(context.Background(), strings.NewReader(in.String()), []string{"--sim", "--seed", "2", "--tiles", "60"}, &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	rs := replies(t, out.String())
	if len(rs) == 0 || rs[0].Kind != wire.KindHello || rs[0].Mode != wire.ModeSim || rs[0].Version != wire.Version {
		t.Fatalf("first reply %+v, want hello", rs)
	}
	rs = rs[1:]
	unknown := 0
	for n := 1; n <= line; n++ {
		w := wants[n]
		if len(rs) < len(w) {
			t.Fatalf("line %d: replies %+v, want %d", n, rs, len(w))
		}
		got := rs[:len(w)]
		rs = rs[len(w):]
		end := got[len(got)-1]
		if end.Line != n || (end.Kind != w[len(w)-1].kind && w[len(w)-1].kind != "") {
			t.Errorf("line %d ends with %+v, want %s naming line %d", n, end, w[len(w)-1].kind, n)
		}
		if end.Kind == wire.KindError && !strings.Contains(end.Error, fmt.Sprintf("line %d", n)) {
			t.Errorf("line %d: error %q does not name the line", n, end.Error)
		}
		for i, e := range got[:len(got)-1] {
			switch {
			case w[i].kind == "" && e.Kind != wire.KindTaken: // clear
				t.Errorf("line %d: %+v, want taken", n, e)
			case w[i].kind == "":
			case e.Kind != w[i].kind:
				t.Errorf("line %d: %+v, want %s", n, e, w[i].kind)
			case !e.Known:
				unknown++
				t.Logf("line %d: %v not known (%s, runner %v, confidence %.3f)", n, w[i].face, e.Why, e.Runner, e.Confidence)
			case e.Face != w[i].face:
				t.Errorf("line %d: %v named %v, known, confidence %.3f", n, w[i].face, e.Face, e.Confidence)
			}
		}
	}
	if len(rs) > 0 {
		t.Errorf("more replies than asked for: %+v", rs)
	}
	if unknown > 2 {
		t.Errorf("%d of 27 clean tiles not known", unknown)
	}
}

// --unknown 1: every laid tile catches the light, and the classifier says it cannot name it.
func TestVisionWatchSimUnknown(t *testing.T) {
	var in strings.Builder
	for i, f := range []tile.Face{tile.Bam3, tile.Red, tile.Flower} {
		in.WriteString(request(wire.OpPut, f, watchT0.Add(time.Duration(i)*time.Second)))
	}
	var out, errb bytes.Buffer
	if err := visionWatch(context.Background(), strings.NewReader(in.String()), []string{"--sim", "--unknown", "1", "--tiles", "40"}, &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	seen := 0
	for _, r := range replies(t, out.String()) {
		if r.Kind == wire.KindSeen {
			seen++
			if r.Known || r.Why == "" {
				t.Errorf("a tile under glare: %+v", r)
			}
		}
	}
	if seen != 3 {
		t.Errorf("%d seen, want 3:\n%s", seen, out.String())
	}
}

// syncBuffer is a buffer written by one goroutine and read by another.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A camera session from a folder of frames: the worker takes the first settled view as the empty
// area, reports a tile laid and one taken, says when the recording has ended, refuses sim
// requests, and ends when stdin does.
func TestVisionWatchCamera(t *testing.T) {
	art, err := synth.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	defer art.Close()
	opts := synth.Options{Tilt: 0.06, Light: 0.2, Blur: 3, Noise: 3, Seed: 3}
	r, err := synth.NewRenderer(art, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	dir := t.TempDir()
	cal := filepath.Join(dir, "camera.yaml")
	if err := r.Calibration().Save(cal); err != nil {
		t.Fatal(err)
	}
	// Enrol the faces shown, one at a time, as at a table: those of the session and every face
	// the card (winds alone) uses.
	faces := []tile.Face{tile.Dot5, tile.Dot6, tile.Joker, tile.Flower, tile.East, tile.South, tile.West, tile.North}
	enrolSteps := []synth.Step{{Frames: 4}}
	hand := &image.Point{X: 320, Y: 300}
	for i, f := range faces {
		p := synth.Placed{Face: f, Center: image.Pt(150+110*(i%4), 150+150*(i/4)), Quarter: i % 4}
		enrolSteps = append(enrolSteps, synth.Step{Scene: synth.Scene{Hand: hand}, Frames: 1},
			synth.Step{Scene: synth.Scene{Tiles: []synth.Placed{p}}, Frames: 4},
			synth.Step{Scene: synth.Scene{Hand: hand}, Frames: 1}, synth.Step{Frames: 4})
	}
	set := filepath.Join(dir, "set")
	if code, out, errs := run(t, "enroll", "camera", "--source", writeFrames(t, r, enrolSteps), "--calib", cal, "--out", set, "--card", windsCard(t), "--faces", tile.Format(faces)); code != 0 {
		t.Fatalf("enroll camera: exit %d: %s%s", code, out, errs)
	}
	five := synth.Placed{Face: tile.Dot5, Center: image.Pt(300, 240), Quarter: 1}
	joker := synth.Placed{Face: tile.Joker, Center: image.Pt(150, 120), Quarter: 2}
	session := writeFrames(t, r, []synth.Step{{Frames: 4},
		{Scene: synth.Scene{Hand: hand}, Frames: 1}, {Scene: synth.Scene{Tiles: []synth.Placed{five}}, Frames: 4},
		{Scene: synth.Scene{Tiles: []synth.Placed{five}, Hand: hand}, Frames: 1}, {Scene: synth.Scene{Tiles: []synth.Placed{five, joker}}, Frames: 4},
		{Scene: synth.Scene{Tiles: []synth.Placed{joker}, Hand: hand}, Frames: 1}, {Scene: synth.Scene{Tiles: []synth.Placed{joker}}, Frames: 4},
	})
	stdin, feed := io.Pipe()
	var out, errb syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- visionWatch(context.Background(), stdin, []string{"--source", session, "--calib", cal, "--enrolled", set, "--status-every", "50ms", "--stale", "10s"}, &out, &errb)
	}()
	for deadline := time.Now().Add(time.Minute); !strings.Contains(out.String(), "ended after"); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the worker never said the recording ended:\n%s%s", out.String(), errb.String())
		}
	}
	fmt.Fprintln(feed, request(wire.OpPut, tile.Dot5, watchT0)+`{"op":"ping"}`)
	feed.Close()
	if err := <-done; err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	var got []string
	said := "none"
	for _, rep := range replies(t, out.String()) {
		switch rep.Kind {
		case wire.KindStatus:
			if said != rep.Problem {
				got = append(got, "status "+rep.Problem)
			}
			said = rep.Problem
		case wire.KindSeen, wire.KindTaken:
			got = append(got, fmt.Sprintf("%s %v %v", rep.Kind, rep.Face, rep.Known))
		case wire.KindError:
			got = append(got, fmt.Sprintf("error %d %v", rep.Line, strings.Contains(rep.Error, "for the simulated camera")))
		default:
			got = append(got, fmt.Sprintf("%s %d", rep.Kind, rep.Line))
		}
	}
	want := []string{"hello 0", "status waiting for the empty discard area to hold still, to take it as the reference", "status ",
		"seen 5D true", "seen J true", "taken 5D true", "status " + session + " ended after 19 frames", "error 1 true", "done 2"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("replies:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// writeFrames renders steps into a new folder of frames and returns it.
func writeFrames(t *testing.T, r *synth.Renderer, steps []synth.Step) string {
	t.Helper()
	dir := t.TempDir()
	s := synth.NewScript(r, steps...)
	m := gocv.NewMat()
	defer m.Close()
	for i := 0; s.Read(&m) == nil; i++ {
		if !gocv.IMWrite(filepath.Join(dir, fmt.Sprintf("%04d.png", i)), m) {
			t.Fatal("cannot write a frame")
		}
	}
	return dir
}
