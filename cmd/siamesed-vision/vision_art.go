package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/vision/synth"
)

func init() {
	register("vision art", "write each face as the synthetic frames draw it, <tile>.png: vision art --art ARTDIR --out DIR [--size 60x80]", visionArt)
}

// visionArt writes the face images synth composes from the tile artwork (and its stand-ins for
// white dragon, flower and joker): the network's training script renders its synthetic crops from
// them, and at --size 60x80 they are the faces built into the simulated camera
// (vision/synth/art, regenerated with --out vision/synth/art --size 60x80).
func visionArt(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("vision art", stderr)
	artDir := fs.String("art", "", "tile-art/png folder")
	out := fs.String("out", "", "folder to write <tile>.png into")
	size := fs.String("size", fmt.Sprintf("%dx%d", synth.ArtW, synth.ArtH), "size of each face, WxH (3:4, at most the default)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	var w, h int
	if _, err := fmt.Sscanf(*size, "%dx%d", &w, &h); err != nil || w < 12 || w*4 != h*3 || w > synth.ArtW {
		return fmt.Errorf("%w: --size %q: want WxH of 3:4, from 12x16 to %dx%d", errUsage, *size, synth.ArtW, synth.ArtH)
	}
	if *artDir == "" || *out == "" || fs.NArg() > 0 {
		return fmt.Errorf("%w: want --art DIR and --out DIR", errUsage)
	}
	art, err := synth.LoadArt(*artDir)
	if err != nil {
		return err
	}
	defer art.Close()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return fmt.Errorf("vision art: %w", err)
	}
	for f := range tile.Face(tile.NumFaces) {
		m := synth.ScaleFace(art.Face(f), w, h)
		p := filepath.Join(*out, f.String()+".png")
		ok := gocv.IMWriteWithParams(p, m, []int{gocv.IMWritePngCompression, 9})
		m.Close()
		if !ok {
			return fmt.Errorf("vision art: cannot write %s", p)
		}
	}
	fmt.Fprintf(stdout, "wrote %d faces of %dx%d to %s\n", tile.NumFaces, w, h, *out)
	return nil
}
