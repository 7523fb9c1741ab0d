// Package visiontest is a fake camera worker for tests of the code that runs siamesed-vision,
// in the manner of periph's i2ctest: a test binary serves as the worker when started with Env
// set (its TestMain calls Main), so that the daemon's side is tested without OpenCV. It speaks
// vision/wire like `vision watch --sim`, and misbehaves as told.
package visiontest

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/vision/wire"
)

// Env names the variable that makes a test binary the fake worker, and how it behaves:
//
//	sim        the simulated camera: a put is seen (known, Settle later), a take is taken, a
//	           clear takes every tile lying there, then done; a snapshot or preview is
//	           answered with Picture, then done
//	camera     as sim, but says hello as a real camera
//	crash:N    as sim, but exits (status 3) on reading request N+1, saying so on stderr
//	hang:N     as sim, but answers nothing after N requests
//	mute       never says hello
//	old        says hello in a version this daemon does not speak
//	down       a camera that says hello, then that it is not working
const Env = "SIAMESED_FAKE_VISION"

// Picture is the fake camera's every picture: a JPEG's first bytes, 4x3 pixels.
var Picture = wire.Reply{Kind: wire.KindPicture, Width: 4, Height: 3, JPEG: []byte{0xff, 0xd8, 0xff, 0xe0}}

// Settle is how long after a move the fake's events are dated.
const Settle = 267 * time.Millisecond

// Main serves as the fake worker and exits when Env is set; otherwise it returns at once.
func Main() {
	if mode := os.Getenv(Env); mode != "" {
		os.Exit(Serve(mode, os.Stdin, os.Stdout, os.Stderr))
	}
}

// Serve runs the fake worker in mode and returns its exit status.
func Serve(mode string, stdin io.Reader, stdout, stderr io.Writer) int {
	name, arg, _ := strings.Cut(mode, ":")
	n, _ := strconv.Atoi(arg)
	out := wire.NewWriter(stdout)
	switch name {
	case "mute":
		_, _ = io.Copy(io.Discard, stdin)
		return 0
	case "old":
		fmt.Fprintln(stdout, `{"kind":"hello","version":99,"mode":"sim"}`)
		return 0
	case "down":
		_ = out.Reply(wire.Reply{Kind: wire.KindHello, Version: wire.Version, Mode: wire.ModeCamera})
		_ = out.Reply(wire.Reply{Kind: wire.KindStatus, Problem: "no frame from camera 0 for 3s", At: time.Now()})
		_, _ = io.Copy(io.Discard, stdin)
		return 0
	case "env": // says what the worker's C library was told, and ends
		fmt.Fprintf(stderr, "MALLOC_ARENA_MAX=%s\n", os.Getenv("MALLOC_ARENA_MAX"))
		return 1
	case "sim", "crash", "hang", "camera":
	default:
		fmt.Fprintf(stderr, "visiontest: no mode %q\n", mode)
		return 2
	}
	hello := wire.ModeSim
	if name == "camera" {
		hello = wire.ModeCamera
	}
	_ = out.Reply(wire.Reply{Kind: wire.KindHello, Version: wire.Version, Mode: hello})
	r := wire.NewReader(stdin)
	var lying []tile.Face
	for served := 0; ; served++ {
		q, err := r.Request()
		var le *wire.LineError
		switch {
		case errors.Is(err, io.EOF):
			return 0
		case name == "crash" && served == n:
			fmt.Fprintf(stderr, "visiontest: crashed after %d requests\n", n)
			return 3
		case name == "hang" && served >= n:
			continue
		case errors.As(err, &le):
			_ = out.Reply(wire.Reply{Kind: wire.KindError, Line: le.Line, Error: err.Error()})
			continue
		case err != nil:
			return 1
		}
		event := func(k wire.Kind, f tile.Face) {
			_ = out.Reply(wire.Reply{Kind: k, Face: f, Known: true, Confidence: 0.9, Runner: tile.NoFace, At: q.At.Add(Settle)})
		}
		switch q.Op {
		case wire.OpPut:
			lying = append(lying, q.Face)
			event(wire.KindSeen, q.Face)
		case wire.OpTake:
			i := slices.Index(lying, q.Face)
			if i < 0 {
				_ = out.Reply(wire.Reply{Kind: wire.KindError, Line: r.Line(), Error: fmt.Sprintf("line %d: no %v lies there", r.Line(), q.Face)})
				continue
			}
			lying = slices.Delete(lying, i, i+1)
			event(wire.KindTaken, q.Face)
		case wire.OpClear:
			for _, f := range lying {
				event(wire.KindTaken, f)
			}
			lying = nil
		case wire.OpLay:
			lying = append(lying, q.Faces...)
		case wire.OpSnapshot, wire.OpPreview:
			_ = out.Reply(Picture)
		}
		_ = out.Reply(wire.Reply{Kind: wire.KindDone, Line: r.Line()})
	}
}
