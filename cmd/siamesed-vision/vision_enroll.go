package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/configs"
	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/vision/calib"
	"github.com/siamesetable/siamesed/vision/detect"
	"github.com/siamesetable/siamesed/vision/enrol"
	"github.com/siamesetable/siamesed/vision/labels"
	"github.com/siamesetable/siamesed/vision/source"
)

func init() {
	register("enroll camera", "show each face to the camera once, or give a folder of labelled photos (labels.csv); saves crops for the recogniser: enroll camera --source SRC [--out DIR | --data DIR] [--calib F]; by default into the data directory, where siamesed run looks [--card FILE] [--faces \"1B 2B ...\"]; every face the card uses and J are required", enrollCamera)
}

func enrollCamera(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("enroll camera", stderr)
	src := fs.String("source", "0", "camera index, video file or folder of frames")
	calPath := fs.String("calib", "", "calibration file (calibrate camera); without it frames are taken as top-down views")
	tileW := fs.Int("tile-width", 36, "tile width in the top-down view, pixels")
	outFlag := fs.String("out", "", "folder to write labels.csv and images/ to (default: "+defaultEnrolled+" in the data directory)")
	data := dataFlag(fs)
	cardPath := fs.String("card", "", "the card the table plays (default: the built-in example card): every face it uses, and J, must be enrolled")
	faces := fs.String("faces", "", "the faces to show, in order (default: every face the card uses, then J); list a face again for each picture of it, e.g. each flower")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	required, err := requiredFaces(*cardPath)
	if err != nil {
		return err
	}
	want := required
	if *faces != "" {
		want, err = tile.ParseList(*faces)
	}
	if err != nil || len(want) == 0 || fs.NArg() > 0 {
		return fmt.Errorf("%w: want a list of faces (%v)", errUsage, err)
	}
	if lack := labels.Missing(want, required); len(lack) > 0 {
		return fmt.Errorf("%w: --faces lacks %s: the card uses them (and every set has jokers), and the camera names only faces it was shown", errUsage, tile.Format(lack))
	}
	dir, err := outPath(*outFlag, *data, defaultEnrolled)
	if err != nil {
		return err
	}
	out := &dir
	if _, err := os.Stat(filepath.Join(*src, labels.FileName)); err == nil {
		n, missing, err := enrol.FromLabelled(*src, *out, want)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "enrolled %d labelled crops from %s in %s\n", n, *src, *out)
		if len(missing) > 0 {
			return fmt.Errorf("enroll: no photo of %s in %s (the crops of the others are saved in %s): the card uses them (and every set has jokers); add a photo of each to labels.csv and enrol again",
				tile.Format(missing), *src, *out)
		}
		return reviewEnrolment(*out, stderr)
	}
	var warper *calib.Warper
	if *calPath != "" {
		c, err := calib.Load(*calPath)
		if err != nil {
			return err
		}
		if warper, err = calib.NewWarper(c); err != nil {
			return err
		}
		defer warper.Close()
	}
	if err := os.MkdirAll(filepath.Join(*out, labels.ImageDir), 0o755); err != nil {
		return err
	}
	s, err := source.Open(*src)
	if err != nil {
		return err
	}
	defer s.Close()
	e := &enroller{want: want, out: *out, ext: detect.Extractor{TileW: *tileW}, log: stderr}
	defer e.close()
	frame, view := gocv.NewMat(), gocv.NewMat()
	defer frame.Close()
	defer view.Close()
	gate := detect.NewGate()
	defer gate.Close()
	fmt.Fprintln(stderr, "enroll: clear the discard area")
	decided := false
	for len(e.items) < len(want) {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := s.Read(&frame); err != nil {
			if errors.Is(err, io.EOF) {
				return fmt.Errorf("enroll: the source ended after %d of %d faces (saved in %s)%s", len(e.items), len(want), *out, endHint(e))
			}
			return err
		}
		if warper != nil {
			warper.Warp(frame, &view)
		} else {
			frame.CopyTo(&view)
		}
		settled, moving := gate.Update(view)
		if moving {
			decided = false
		}
		if settled && !decided {
			decided = true
			if err := e.settled(view); err != nil {
				return err
			}
		}
	}
	fmt.Fprintf(stdout, "enrolled %d faces in %s\n", len(e.items), *out)
	return reviewEnrolment(*out, stderr)
}

// requiredFaces are the faces the card at path ("": the built-in example card) uses, and J.
func requiredFaces(path string) ([]tile.Face, error) {
	c, err := configs.LoadCard(path)
	if err != nil {
		return nil, err
	}
	return labels.Required(c.Card.Faces()), nil
}

// reviewEnrolment checks the enrolment with the built-in network (enrol.Review) and warns about
// each crop not named back as its own face, and each pair of faces held alike: at the table a
// crop of one may be answered as the other.
func reviewEnrolment(dir string, stderr io.Writer) error {
	r, err := enrol.Review(dir)
	if err != nil {
		return err
	}
	for _, c := range r.Misread() {
		fmt.Fprintf(stderr, "enroll: warning: %s, enrolled as %v, is named back as %v (sure: %v): enrol a clearer crop of it, or check it is the face named\n", c.Image, c.Face, c.As, c.Known)
	}
	for _, p := range r.Alike {
		fmt.Fprintf(stderr, "enroll: warning: %v: a tile of one may be taken for the other; enrol a clearer crop of each, or check they are the faces named\n", p)
	}
	return nil
}

// endHint says what a source that ended too soon must look like.
func endHint(e *enroller) string {
	if e.empty != nil && len(e.items) > 0 {
		return ""
	}
	return "; a camera or video source must first show the empty discard area, then each face alone, " +
		"one after another, each held still for a few frames; photos of single tiles need a labels.csv " +
		"(image,tile) beside an images/ folder, see docs/vision.md"
}

// enroller keeps the empty reference and the crops saved so far.
type enroller struct {
	want    []tile.Face
	out     string
	ext     detect.Extractor
	log     io.Writer
	empty   *gocv.Mat // the first settled view: the area with nothing in it
	items   []labels.Item
	holding bool // a crop was saved; waiting for the area to clear
}

// settled handles one settled view: the first is the empty area; then one tile a face.
func (e *enroller) settled(view gocv.Mat) error {
	if e.empty == nil {
		m := view.Clone()
		e.empty = &m
		fmt.Fprintf(e.log, "enroll: show %v\n", e.want[0])
		return nil
	}
	found, others, err := e.ext.Extract(view, *e.empty)
	if err != nil {
		return err
	}
	defer func() {
		for _, f := range found {
			f.Crop.Close()
		}
	}()
	switch {
	case e.holding && len(found) == 0 && others == 0:
		e.holding = false
		fmt.Fprintf(e.log, "enroll: show %v\n", e.want[len(e.items)])
	case e.holding:
	case len(found) == 1 && others == 0:
		f := e.want[len(e.items)]
		name := fmt.Sprintf("%02d-%v.png", len(e.items)+1, f)
		if !gocv.IMWrite(filepath.Join(e.out, labels.ImageDir, name), found[0].Crop) {
			return fmt.Errorf("enroll: cannot write %s", name)
		}
		e.items = append(e.items, labels.Item{Image: name, Tile: f})
		if err := e.writeLabels(); err != nil {
			return err
		}
		e.holding = true
		fmt.Fprintf(e.log, "enroll: got %v; take it away\n", f)
	default:
		fmt.Fprintf(e.log, "enroll: want one tile in the area, see %d tiles and %d other shapes\n", len(found), others)
	}
	return nil
}

func (e *enroller) writeLabels() error {
	var b strings.Builder
	if err := labels.Write(&b, e.items); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(e.out, labels.FileName), []byte(b.String()), 0o644)
}

func (e *enroller) close() {
	if e.empty != nil {
		e.empty.Close()
	}
}
