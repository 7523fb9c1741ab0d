package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/vision/calib"
	"github.com/siamesetable/siamesed/vision/source"
)

func init() {
	register("calibrate camera", "save the discard area's corners: calibrate camera --corners \"x,y x,y x,y x,y\" [--size 640x480] [--out FILE | --data DIR] [--image IMG --warped OUT]; by default into the data directory, where siamesed run looks", calibrateCamera)
}

func calibrateCamera(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("calibrate camera", stderr)
	corners := fs.String("corners", "", "the area's corners in camera pixels: top-left, top-right, bottom-right, bottom-left")
	size := fs.String("size", "640x480", "size of the top-down view, WxH")
	out := fs.String("out", "", "calibration file to write (YAML; default: "+defaultCalibration+" in the data directory)")
	data := dataFlag(fs)
	img := fs.String("image", "", "a camera image to check the warp on")
	warped := fs.String("warped", "", "where to write the warped --image")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *corners == "" || (*img == "") != (*warped == "") || fs.NArg() > 0 {
		return fmt.Errorf("%w: want --corners (and --image with --warped)", errUsage)
	}
	path, err := outPath(*out, *data, defaultCalibration)
	if err != nil {
		return err
	}
	c, err := parseCalibration(*corners, *size)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if *img != "" {
		frame, err := source.ReadImage(*img)
		if err != nil {
			return err
		}
		defer frame.Close()
		w, err := calib.NewWarper(c)
		if err != nil {
			return err
		}
		defer w.Close()
		view := gocv.NewMat()
		defer view.Close()
		w.Warp(frame, &view)
		if !gocv.IMWrite(*warped, view) {
			return fmt.Errorf("cannot write %s", *warped)
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("calibrate camera: %w", err)
	}
	if err := c.Save(path); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s\n", path)
	return nil
}

// parseCalibration reads "x,y x,y x,y x,y" and "WxH".
func parseCalibration(corners, size string) (calib.Calibration, error) {
	var c calib.Calibration
	ps := strings.Fields(corners)
	if len(ps) != 4 {
		return c, fmt.Errorf("--corners: want 4 points x,y, got %d", len(ps))
	}
	for i, p := range ps {
		xs, ys, ok := strings.Cut(p, ",")
		x, err1 := strconv.ParseFloat(xs, 64)
		y, err2 := strconv.ParseFloat(ys, 64)
		if !ok || err1 != nil || err2 != nil {
			return c, fmt.Errorf("--corners: point %d %q is not x,y", i+1, p)
		}
		c.Corners[i] = [2]float64{x, y}
	}
	ws, hs, ok := strings.Cut(strings.ToLower(size), "x")
	w, err1 := strconv.Atoi(ws)
	h, err2 := strconv.Atoi(hs)
	if !ok || err1 != nil || err2 != nil {
		return c, fmt.Errorf("--size %q is not WxH", size)
	}
	c.Width, c.Height = w, h
	return c, c.Validate()
}
