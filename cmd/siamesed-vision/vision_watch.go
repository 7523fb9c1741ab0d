package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/siamesetable/siamesed/internal/clock"
	"github.com/siamesetable/siamesed/vision/calib"
	"github.com/siamesetable/siamesed/vision/classify"
	"github.com/siamesetable/siamesed/vision/labels"
	"github.com/siamesetable/siamesed/vision/simcam"
	"github.com/siamesetable/siamesed/vision/source"
	"github.com/siamesetable/siamesed/vision/synth"
	"github.com/siamesetable/siamesed/vision/watch"
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
	fs.StringVar(&f.source, "source", "", "the camera: /dev/video0 (USB), libcamera[:WIDTHxHEIGHT] (the Pi Camera Module), gst:PIPELINE (ending in appsink), a camera index, a video file or a folder of frames")
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
	if watch.Missing(f.calib, f.enrolled) != "" {
		return watchUnready(ctx, stdin, out, f)
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
	return watch.ServeSim(ctx, stdin, out, cam)
}

// watchCamera runs a real camera (or a video, or a folder of frames) with the calibration and
// the table's enrolled faces: watch.Camera on the wall clock.
func watchCamera(ctx context.Context, stdin io.Reader, out *wire.Writer, stderr io.Writer, c *classify.Classifier, f watchFlags) error {
	spec, err := source.Parse(f.source)
	if err != nil {
		return fmt.Errorf("%w: --source: %v", errUsage, err)
	}
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
	cam, err := watch.NewCamera(watch.Config{Name: f.source, Open: func() (source.Source, error) { return source.OpenSpec(spec) }, Live: spec.Live(),
		Warp: warper, Classifier: c, TileW: f.tileW, EmptyKept: watch.EmptyKept{Enrolled: f.enrolled, Area: cal}, Every: f.every, Stale: f.stale, Clock: clock.Real{}, Out: out, Log: stderr})
	if err != nil {
		return err
	}
	defer cam.Close()
	if f.empty != "" {
		frame, err := source.ReadImage(f.empty)
		if err != nil {
			return fmt.Errorf("vision watch: the empty view: %w", err)
		}
		defer frame.Close()
		if err := cam.SetEmpty(frame); err != nil {
			return err
		}
	}
	return watch.ServeCamera(ctx, stdin, out, cam)
}
