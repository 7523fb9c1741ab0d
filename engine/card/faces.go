package card

import "github.com/siamesetable/siamesed/engine/tile"

// Faces are the faces some hand of the card uses, in order: the tiles a table playing it must
// tell apart (the camera's enrolment asks for each). Jokers stand in for them and are not
// among them.
func (c *Card) Faces() []tile.Face {
	var used uint64
	for _, h := range c.Hands {
		used |= h.unionMsk
	}
	var out []tile.Face
	for f := range tile.Face(tile.NumFaces) {
		if used&(1<<f) != 0 {
			out = append(out, f)
		}
	}
	return out
}
