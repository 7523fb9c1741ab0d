package simcam

import (
	"fmt"
	"image"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/vision/calib"
	"github.com/siamesetable/siamesed/vision/synth"
)

// Show lays fs alone in the area, at free places in random quarter turns, as a player lays a
// tile to enrol it on the set-up page, and renders the frame the camera then sees (none: the
// empty area). It is the set-up's hook, not a move: the game's tiles and the Watcher are left as
// they are, and the next move draws the game's scene again.
func (t *Table) Show(fs []tile.Face) error {
	if len(fs) > len(t.free) {
		return fmt.Errorf("%w: show %d tiles, %d places free", ErrFull, len(fs), len(t.free))
	}
	var s synth.Scene
	j := t.o.Camera.TileW / 12
	for i, k := range t.rng.Perm(len(t.free))[:len(fs)] {
		if fs[i] >= tile.NumFaces {
			return fmt.Errorf("simcam: show: no such face %d", fs[i])
		}
		c := t.free[k].Add(image.Pt(t.rng.IntN(2*j+1)-j, t.rng.IntN(2*j+1)-j))
		if err := s.Place(synth.Placed{Face: fs[i], Center: c, Quarter: t.rng.IntN(4)}, t.o.Camera.TileW); err != nil {
			return fmt.Errorf("simcam: show: %w", err)
		}
	}
	return t.render(s)
}

// TileW is a tile's width in the top-down view, pixels.
func (t *Table) TileW() int { return t.o.Camera.TileW }

// Calibration is the discard area's corners in the camera's frame, exactly: what an owner
// clicks on the set-up page.
func (t *Table) Calibration() calib.Calibration { return t.r.Calibration() }
