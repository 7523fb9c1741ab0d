package tile

import "fmt"

// Set describes the tiles a table plays with.
type Set struct {
	Name  string
	Count Counts
}

// American is the standard American set of 152 tiles: four of each suit tile, wind and
// dragon, eight flowers and eight jokers.
func American() Set {
	var c Counts
	for f := Face(0); f < Flower; f++ {
		c[f] = 4
	}
	c[Flower] = 8
	c[Joker] = 8
	return Set{Name: "american", Count: c}
}

// Royale4 is the four-handed Royale Siamese set: two American sets, 304 tiles.
func Royale4() Set {
	a := American().Count
	a.Add(&a)
	return Set{Name: "royale-4", Count: a}
}

// Royale3 is the three-handed Royale Siamese set: two American sets less four jokers and
// four flowers, 296 tiles (royale rule 1b: "remember to remove 4 jokers & 4 flowers").
func Royale3() Set {
	s := Royale4()
	s.Count[Joker] -= 4
	s.Count[Flower] -= 4
	s.Name = "royale-3"
	return s
}

// SetByName returns one of the named sets: american, royale-4, royale-3.
func SetByName(name string) (Set, error) {
	switch name {
	case "american", "":
		return American(), nil
	case "royale-4":
		return Royale4(), nil
	case "royale-3":
		return Royale3(), nil
	}
	return Set{}, fmt.Errorf("tile: unknown set %q (want american, royale-4 or royale-3)", name)
}
