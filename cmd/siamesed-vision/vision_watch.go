package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/vision/classify"
	"github.com/siamesetable/siamesed/vision/discard"
	"github.com/siamesetable/siamesed/vision/simcam"
	"github.com/siamesetable/siamesed/vision/synth"
	"github.com/siamesetable/siamesed/vision/wire"
)

func init() {
	register("vision watch", "the daemon's camera worker: requests on stdin, discard events as JSON lines on stdout (vision/wire): "+
		"vision watch --sim [--seed N] [--unknown RATE] [--tiles N] | --source SRC --calib FILE --enrolled DIR [--empty IMG]", func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		return visionWatch(ctx, os.Stdin, args, stdout, stderr)
	})
}

// watchFlags are vision watch's flags.
type watchFlags struct {
	sim      bool
	seed     uint64
	unknown  float64
	tiles    int
	model    string
	source   string
	calib    string
	enrolled string
	empty    string
	tileW    int
	every    time.Duration
	stale    time.Duration
}

func visionWatch(ctx context.Context, stdin io.Reader, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("vision watch", stderr)
	var f watchFlags
	fs.BoolVar(&f.sim, "sim", false, "the simulated camera: frames rendered from the built-in tile faces as stdin's requests lay and take tiles")
	fs.Uint64Var(&f.seed, "seed", 1, "with --sim: the camera's tilt, the tiles' places and turns, glare and noise")
	fs.Float64Var(&f.unknown, "unknown", 0, "with --sim: the chance a laid tile catches the light, washing its face out (the classifier then cannot name it)")
	fs.IntVar(&f.tiles, "tiles", 152, "with --sim: how many tiles the discard area must hold at once")
	fs.StringVar(&f.model, "model", "", `embedding network (ONNX file); "" for the built-in one (a refused file falls back to it, with a warning)`)
	fs.StringVar(&f.source, "source", "", "a camera index (0 = /dev/video0), video file or folder of frames")
	fs.StringVar(&f.calib, "calib", "", "with --source: the discard area's calibration (calibrate camera)")
	fs.StringVar(&f.enrolled, "enrolled", "", "with --source: the table's enrolled faces (enroll camera --out DIR)")
	fs.StringVar(&f.empty, "empty", "", "with --source: a camera frame of the empty discard area; default: the first settled view")
	fs.IntVar(&f.tileW, "tile-width", 36, "with --source: tile width in the top-down view, pixels")
	fs.DurationVar(&f.every, "status-every", 5*time.Second, "with --source: how often the status line is written")
	fs.DurationVar(&f.stale, "stale", 3*time.Second, "with --source: no frame for this long and the camera is not working")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return fmt.Errorf("%w: vision watch takes flags only", errUsage)
	case f.sim == (f.source != ""):
		return fmt.Errorf("%w: want --sim or --source SRC, one of them", errUsage)
	case f.sim && (f.unknown < 0 || f.unknown > 1 || f.tiles < 1 || f.tiles > 1000):
		return fmt.Errorf("%w: --unknown is a chance (0 to 1), --tiles 1 to 1000", errUsage)
	case !f.sim && (f.calib == "" || f.enrolled == "" || f.tileW < 8 || f.every <= 0 || f.stale <= 0):
		return fmt.Errorf("%w: --source needs --calib FILE and --enrolled DIR (and a positive --tile-width, --status-every, --stale)", errUsage)
	}
	c, warnings := classify.Open(f.model)
	for _, w := range warnings {
		fmt.Fprintf(stderr, "vision watch: %v\n", w)
	}
	defer c.Close()
	out := wire.NewWriter(stdout)
	if f.sim {
		return watchSim(ctx, stdin, out, c, f)
	}
	if why := unready(f); why != "" {
		return watchUnready(ctx, stdin, out, f, why)
	}
	return watchCamera(ctx, stdin, out, stderr, c, f)
}

// watchSim runs the simulated camera: each request moves tiles in the simulated discard area,
// and its frames go through the real pipeline.
func watchSim(ctx context.Context, stdin io.Reader, out *wire.Writer, c *classify.Classifier, f watchFlags) error {
	art, err := synth.Embedded()
	if err != nil {
		return err
	}
	defer art.Close()
	cam, err := simcam.New(art, c, simcam.Options{Tiles: f.tiles, Glare: f.unknown, Seed: f.seed})
	if err != nil {
		return err
	}
	defer cam.Close()
	if err := out.Reply(wire.Reply{Kind: wire.KindHello, Version: wire.Version, Mode: wire.ModeSim}); err != nil {
		return err
	}
	snapshot := func(dst *gocv.Mat) error { cam.Snapshot(dst); return nil }
	return serve(ctx, stdin, out, withPictures(out, snapshot, func(q wire.Request) ([]discard.Event, error) {
		switch q.Op {
		case wire.OpPut:
			return cam.Put(q.Face, q.At)
		case wire.OpTake:
			return cam.Take(q.Face, q.At)
		case wire.OpClear:
			return cam.Clear(q.At)
		case wire.OpLay:
			_, err := cam.Lay(q.Faces, q.At) // the daemon knows these tiles: nothing to report
			return nil, err
		}
		return nil, nil
	}))
}

// serve reads requests until stdin ends, answering each: the events do gives, then done, or an
// error naming the request's line. A line that is not a request gets an error naming it, and
// serving goes on.
func serve(ctx context.Context, stdin io.Reader, out *wire.Writer, do func(wire.Request) ([]discard.Event, error)) error {
	r := wire.NewReader(stdin)
	for ctx.Err() == nil {
		q, err := r.Request()
		var le *wire.LineError
		switch {
		case errors.Is(err, io.EOF):
			return nil
		case errors.As(err, &le):
			if err := out.Reply(wire.Reply{Kind: wire.KindError, Line: le.Line, Error: err.Error()}); err != nil {
				return err
			}
			continue
		case err != nil:
			return fmt.Errorf("vision watch: stdin: %w", err)
		}
		evs, err := do(q)
		for _, e := range evs {
			if err := out.Reply(eventReply(e)); err != nil {
				return err
			}
		}
		end := wire.Reply{Kind: wire.KindDone, Line: r.Line()}
		if err != nil {
			end = wire.Reply{Kind: wire.KindError, Line: r.Line(), Error: fmt.Sprintf("line %d: %s: %v", r.Line(), q.Op, err)}
		}
		if err := out.Reply(end); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// eventReply is a Watcher's event as a reply line.
func eventReply(e discard.Event) wire.Reply {
	r := wire.Reply{Kind: wire.KindSeen, Face: e.Face, Known: e.Known, Confidence: e.Confidence, Runner: e.Runner, At: e.At}
	if e.Kind == discard.DiscardTaken {
		r.Kind = wire.KindTaken
	}
	switch {
	case e.Known:
	case e.Why == classify.TooClose:
		r.Why = wire.WhyClose
	default:
		r.Why = wire.WhyFar
	}
	return r
}
