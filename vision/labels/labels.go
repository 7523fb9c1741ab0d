// Package labels reads and writes the labels.csv of a folder of tile crops: a header
// `image,tile[,...]`, then one crop a line, its image path relative to the folder's images/
// directory and its tile in the project's notation. It is the layout of shared/data/photos-dev and
// of the folders `siamesed enroll camera` writes.
package labels

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"

	"github.com/siamesetable/siamesed/internal/userfile"

	"github.com/siamesetable/siamesed/engine/tile"
)

// FileName is the name of the labels file inside a folder; ImageDir holds the crops.
const (
	FileName = "labels.csv"
	ImageDir = "images"
)

// EmptyView names the files beside the enrolment folder dir where the set-up page keeps its
// view of the empty discard area, which the crops are cut out against: the top-down view (PNG)
// and the corners it was taken through (a calibration file, as vision/area writes them). They
// are kept so that a camera worker started again goes on capturing; a view taken through other
// corners than those saved is never used.
func EmptyView(dir string) (png, corners string) {
	base := filepath.Clean(dir) + "-empty"
	return base + ".png", base + ".yaml"
}

// ErrFormat marks a malformed labels file.
var ErrFormat = errors.New("labels: bad format")

// Item is one labelled crop.
type Item struct {
	Image string    // path relative to the images/ directory
	Tile  tile.Face // the face it shows
	// Set names the physical tile set the crop comes from, when the file has a `set` column
	// (../shared/data/photos-sets): every face of a set shares one artwork and one light.
	Set string
}

// Parse reads a labels file; name is used in errors. Every bad line is reported, with its line number.
func Parse(name string, r io.Reader) ([]Item, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	recs, err := cr.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("labels: %s: %w", name, err)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("%w: %s: empty, want header image,tile", ErrFormat, name)
	}
	h := recs[0]
	if len(h) < 2 || strings.TrimSpace(h[0]) != "image" || strings.TrimSpace(h[1]) != "tile" {
		return nil, fmt.Errorf("%w: %s:1: header %q, want image,tile first", ErrFormat, name, strings.Join(h, ","))
	}
	setCol := slices.IndexFunc(h, func(name string) bool { return strings.TrimSpace(name) == "set" })
	var items []Item
	var errs []error
	for i, rec := range recs[1:] {
		line := i + 2
		if len(rec) < 2 {
			errs = append(errs, fmt.Errorf("%w: %s:%d: want at least 2 fields, got %d", ErrFormat, name, line, len(rec)))
			continue
		}
		img := strings.TrimSpace(rec[0])
		if img == "" || filepath.IsAbs(img) || slices.Contains(strings.Split(filepath.ToSlash(img), "/"), "..") {
			errs = append(errs, fmt.Errorf("%w: %s:%d: image %q must be a relative path inside images/", ErrFormat, name, line, img))
			continue
		}
		f, err := tile.Parse(strings.TrimSpace(rec[1]))
		if err != nil {
			errs = append(errs, fmt.Errorf("%w: %s:%d: tile: %v", ErrFormat, name, line, err))
			continue
		}
		it := Item{Image: img, Tile: f}
		if setCol >= 0 {
			if setCol >= len(rec) || strings.TrimSpace(rec[setCol]) == "" {
				errs = append(errs, fmt.Errorf("%w: %s:%d: no set named in column %d", ErrFormat, name, line, setCol+1))
				continue
			}
			it.Set = strings.TrimSpace(rec[setCol])
		}
		items = append(items, it)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return items, nil
}

// MaxFileBytes bounds a labels file (a line per photo).
const MaxFileBytes = 16 << 20

// Read reads dir/labels.csv.
func Read(dir string) ([]Item, error) {
	p := filepath.Join(dir, FileName)
	f, err := userfile.Open(p, "a labels file", MaxFileBytes)
	if err != nil {
		return nil, fmt.Errorf("labels: %w", err)
	}
	defer f.Close()
	return Parse(p, f)
}

// Write writes items as a labels file, with a `set` column when any item names its set.
func Write(w io.Writer, items []Item) error {
	withSet := slices.ContainsFunc(items, func(it Item) bool { return it.Set != "" })
	cw := csv.NewWriter(w)
	row := func(fields ...string) []string {
		if !withSet {
			return fields[:2]
		}
		return fields
	}
	if err := cw.Write(row("image", "tile", "set")); err != nil {
		return fmt.Errorf("labels: %w", err)
	}
	for _, it := range items {
		if err := cw.Write(row(it.Image, it.Tile.String(), it.Set)); err != nil {
			return fmt.Errorf("labels: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("labels: %w", err)
	}
	return nil
}

// Split divides items per tile: about frac of each tile's crops (at least one when a tile has two
// or more) go to a, the rest to b. The same seed gives the same split.
func Split(items []Item, frac float64, seed uint64) (a, b []Item) {
	byTile := map[tile.Face][]Item{}
	var order []tile.Face
	for _, it := range items {
		if _, ok := byTile[it.Tile]; !ok {
			order = append(order, it.Tile)
		}
		byTile[it.Tile] = append(byTile[it.Tile], it)
	}
	slices.Sort(order)
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	for _, f := range order {
		its := byTile[f]
		rng.Shuffle(len(its), func(i, j int) { its[i], its[j] = its[j], its[i] })
		n := int(frac*float64(len(its)) + 0.5)
		if len(its) >= 2 {
			n = max(1, min(n, len(its)-1))
		}
		a = append(a, its[:n]...)
		b = append(b, its[n:]...)
	}
	return a, b
}
