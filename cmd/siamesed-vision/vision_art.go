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
	register("vision art", "write each face as the synthetic frames draw it, <tile>.png: vision art --art ARTDIR --out DIR", visionArt)
}

// visionArt writes the face images synth composes from the tile artwork (and its stand-ins for
// white dragon, flower and joker): the network's training script renders its synthetic crops from
// them.
func visionArt(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("vision art", stderr)
	artDir := fs.String("art", "", "tile-art/png folder")
	out := fs.String("out", "", "folder to write <tile>.png into")
	if err := parseFlags(fs, args); err != nil {
		return err
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
		p := filepath.Join(*out, f.String()+".png")
		if !gocv.IMWrite(p, art.Face(f)) {
			return fmt.Errorf("vision art: cannot write %s", p)
		}
	}
	fmt.Fprintf(stdout, "wrote %d faces to %s\n", tile.NumFaces, *out)
	return nil
}
