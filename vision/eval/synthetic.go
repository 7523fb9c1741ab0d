package eval

import (
	"fmt"
	"image"
	"math/rand/v2"
	"slices"
	"time"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/vision/calib"
	"github.com/siamesetable/siamesed/vision/classify"
	"github.com/siamesetable/siamesed/vision/detect"
	"github.com/siamesetable/siamesed/vision/synth"
)

// FrameReport is the outcome of detection and classification together on synthetic frames.
type FrameReport struct {
	Accuracy float64 `json:"accuracy"` // placed tiles found and named right
	N        int     `json:"n"`        // tiles placed
	Found    int     `json:"found"`    // placed tiles found
	Extra    int     `json:"extra"`    // tiles found where none was placed
	Frames   int     `json:"frames"`
	MedianMS float64 `json:"median_ms"` // per crop: the frame's extraction and classification time shared out
	P99MS    float64 `json:"p99_ms"`
	FrameMS  float64 `json:"frame_median_ms"` // per frame: extraction and classification of every tile
	// Jokers and Flowers count those faces apart: every frame has one of each (American sets have
	// eight jokers; the artwork has none, so synth draws one of its own).
	Jokers  FaceCount `json:"jokers"`
	Flowers FaceCount `json:"flowers"`
}

// FaceCount is how one face fared: placed, named right, and answered Known.
type FaceCount struct {
	N     int `json:"n"`
	Right int `json:"right"`
	Known int `json:"known"`
}

func (fc *FaceCount) add(right, known bool) {
	fc.N++
	if right {
		fc.Right++
	}
	if known {
		fc.Known++
	}
}

// Synthetic enrols every face once into c (empty), upright, as the camera sees it (the enroll
// camera step), then renders frames scenes of tiles at random places and quarter turns and scores
// them.
func Synthetic(c *classify.Classifier, art *synth.Art, opts synth.Options, frames, tiles int, seed uint64) (FrameReport, error) {
	r, err := synth.NewRenderer(art, opts)
	if err != nil {
		return FrameReport{}, fmt.Errorf("eval: %w", err)
	}
	defer r.Close()
	w, err := calib.NewWarper(r.Calibration())
	if err != nil {
		return FrameReport{}, fmt.Errorf("eval: %w", err)
	}
	defer w.Close()
	view := func(s synth.Scene, seed uint64) (gocv.Mat, error) {
		frame, err := r.Render(s, seed)
		if err != nil {
			return gocv.Mat{}, fmt.Errorf("eval: %w", err)
		}
		defer frame.Close()
		v := gocv.NewMat()
		w.Warp(frame, &v)
		return v, nil
	}
	empty, err := view(synth.Scene{}, seed<<20)
	if err != nil {
		return FrameReport{}, err
	}
	defer empty.Close()
	ext := detect.Extractor{TileW: opts.TileSize().X}
	rng := rand.New(rand.NewPCG(seed, 11))

	all := synth.RandomScene(opts, tile.NumFaces, rng)
	if len(all.Tiles) < tile.NumFaces {
		return FrameReport{}, fmt.Errorf("eval: the area holds %d tiles, want room for %d", len(all.Tiles), tile.NumFaces)
	}
	for i := range all.Tiles {
		all.Tiles[i].Face, all.Tiles[i].Quarter = tile.Face(i), 0
	}
	if _, err := score(all, ext, empty, view, seed<<20+1, func(p synth.Placed, crop gocv.Mat) error { return c.Enrol(p.Face, crop) }, nil); err != nil {
		return FrameReport{}, err
	}
	var rep FrameReport
	var perCrop, perFrame []time.Duration
	for i := range frames {
		s := synth.RandomScene(opts, tiles, rng)
		for k, f := range []tile.Face{tile.Joker, tile.Flower} {
			if k < len(s.Tiles) {
				s.Tiles[k].Face = f
			}
		}
		right := 0
		d, err := score(s, ext, empty, view, seed<<20+uint64(i)+2, func(p synth.Placed, crop gocv.Mat) error {
			res, err := c.Classify(crop)
			if err != nil {
				return err
			}
			if res.Face == p.Face {
				right++
			}
			switch p.Face {
			case tile.Joker:
				rep.Jokers.add(res.Face == p.Face, res.Known)
			case tile.Flower:
				rep.Flowers.add(res.Face == p.Face, res.Known)
			}
			return nil
		}, &rep)
		if err != nil {
			return FrameReport{}, err
		}
		perFrame = append(perFrame, d)
		for range s.Tiles {
			perCrop = append(perCrop, d/time.Duration(max(1, len(s.Tiles))))
		}
		rep.N += len(s.Tiles)
		rep.Accuracy += float64(right)
		rep.Frames++
	}
	if rep.N > 0 {
		rep.Accuracy /= float64(rep.N)
		slices.Sort(perCrop)
		slices.Sort(perFrame)
		rep.MedianMS, rep.P99MS = ms(at(perCrop, 0.5)), ms(at(perCrop, 0.99))
		rep.FrameMS = ms(at(perFrame, 0.5))
	}
	return rep, nil
}

// score renders s, extracts its tiles and calls use for each found tile that was placed. It
// returns the time taken by extraction and the calls, not by the rendering.
func score(s synth.Scene, ext detect.Extractor, empty gocv.Mat, view func(synth.Scene, uint64) (gocv.Mat, error),
	seed uint64, use func(synth.Placed, gocv.Mat) error, rep *FrameReport) (time.Duration, error) {
	v, err := view(s, seed)
	if err != nil {
		return 0, err
	}
	defer v.Close()
	t0 := time.Now()
	found, _, err := ext.Extract(v, empty)
	if err != nil {
		return 0, fmt.Errorf("eval: %w", err)
	}
	defer func() {
		for _, f := range found {
			f.Crop.Close()
		}
	}()
	near := ext.TileW / 3
	for _, f := range found {
		p, ok := placedNear(s, f.Center, near)
		if !ok {
			if rep != nil {
				rep.Extra++
			}
			continue
		}
		if rep != nil {
			rep.Found++
		}
		if err := use(p, f.Crop); err != nil {
			return 0, fmt.Errorf("eval: %w", err)
		}
	}
	return time.Since(t0), nil
}

func placedNear(s synth.Scene, c image.Point, px int) (synth.Placed, bool) {
	for _, p := range s.Tiles {
		if d := p.Center.Sub(c); d.X*d.X+d.Y*d.Y <= px*px {
			return p, true
		}
	}
	return synth.Placed{}, false
}
