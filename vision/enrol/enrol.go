// Package enrol makes an enrolment folder (labels.csv, images/) for the recogniser from photos a
// user already has: single tiles, labelled in a labels.csv beside them.
package enrol

import (
	"fmt"
	"image"
	"os"
	"path/filepath"
	"strings"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/vision/detect"
	"github.com/siamesetable/siamesed/vision/labels"
	"github.com/siamesetable/siamesed/vision/source"
)

// FromLabelled reads the photos listed in src/labels.csv (paths under src/images/, one tile
// each, any size, portrait or landscape, a little table around is fine), cuts each to the tile
// (detect.Centre) at the extractor's crop size and writes them with their labels to out. It
// returns how many it wrote and which of want no photo shows. Every unreadable photo is
// reported, with its line's image name.
func FromLabelled(src, out string, want []tile.Face) (n int, missing []tile.Face, err error) {
	items, err := labels.Read(src)
	if err != nil {
		return 0, nil, fmt.Errorf("enrol: %w", err)
	}
	if len(items) == 0 {
		return 0, nil, fmt.Errorf("enrol: %s lists no photos", filepath.Join(src, labels.FileName))
	}
	if err := os.MkdirAll(filepath.Join(out, labels.ImageDir), 0o755); err != nil {
		return 0, nil, fmt.Errorf("enrol: %w", err)
	}
	var written []labels.Item
	var bad []string
	for i, it := range items {
		name := fmt.Sprintf("%03d-%v.png", i+1, it.Tile)
		if err := cut(filepath.Join(src, labels.ImageDir, it.Image), filepath.Join(out, labels.ImageDir, name)); err != nil {
			bad = append(bad, err.Error())
			continue
		}
		written = append(written, labels.Item{Image: name, Tile: it.Tile})
	}
	if len(bad) > 0 {
		return 0, nil, fmt.Errorf("enrol: %d of %d photos unusable:\n  %s", len(bad), len(items), strings.Join(bad, "\n  "))
	}
	var b strings.Builder
	if err := labels.Write(&b, written); err != nil {
		return 0, nil, err
	}
	if err := os.WriteFile(filepath.Join(out, labels.FileName), []byte(b.String()), 0o644); err != nil {
		return 0, nil, fmt.Errorf("enrol: %w", err)
	}
	have := make([]tile.Face, len(written))
	for i, it := range written {
		have[i] = it.Tile
	}
	return len(written), labels.Missing(have, want), nil
}

// cut reads one photo, turns it portrait, centres it on the tile and writes it at crop size.
func cut(from, to string) error {
	m, err := source.ReadImage(from)
	if err != nil {
		return err
	}
	defer m.Close()
	if m.Cols() < 16 || m.Rows() < 16 {
		return fmt.Errorf("%s: %dx%d, too small for a tile", from, m.Cols(), m.Rows())
	}
	if m.Cols() > m.Rows() {
		gocv.Rotate(m, &m, gocv.Rotate90Clockwise)
	}
	small := gocv.NewMat()
	defer small.Close()
	gocv.Resize(m, &small, image.Pt(detect.CropW, detect.CropH), 0, 0, gocv.InterpolationArea)
	centred := detect.Centre(small)
	defer centred.Close()
	if !gocv.IMWrite(to, centred) {
		return fmt.Errorf("%s: cannot write %s", from, to)
	}
	return nil
}
