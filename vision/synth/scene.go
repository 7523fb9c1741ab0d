package synth

import (
	"fmt"
	"image"
)

// Place adds a tile to the scene, for a caller that plays a table (the simulated table renders
// each discard this way). A tile already lying within a tile's width of c is refused: real tiles
// do not stack.
func (s *Scene) Place(p Placed, tileW int) error {
	if p.Quarter < 0 || p.Quarter > 3 {
		return fmt.Errorf("synth: place %v: quarter turn %d, want 0 to 3", p.Face, p.Quarter)
	}
	if i := s.near(p.Center, tileW); i >= 0 {
		return fmt.Errorf("synth: place %v at %v: %v already lies at %v", p.Face, p.Center, s.Tiles[i].Face, s.Tiles[i].Center)
	}
	s.Tiles = append(s.Tiles, p)
	return nil
}

// Remove takes away the tile lying nearest c, within half a tile's width, and returns it.
func (s *Scene) Remove(c image.Point, tileW int) (Placed, bool) {
	i := s.near(c, tileW/2)
	if i < 0 {
		return Placed{}, false
	}
	p := s.Tiles[i]
	s.Tiles = append(s.Tiles[:i], s.Tiles[i+1:]...)
	return p, true
}

// Nearest is the index of the tile nearest c within d pixels, or -1.
func (s *Scene) Nearest(c image.Point, d int) int { return s.near(c, d) }

// near is the index of the tile nearest c within d pixels, or -1.
func (s *Scene) near(c image.Point, d int) int {
	best, bi := d*d, -1
	for i, p := range s.Tiles {
		v := p.Center.Sub(c)
		if dd := v.X*v.X + v.Y*v.Y; dd < best {
			best, bi = dd, i
		}
	}
	return bi
}
