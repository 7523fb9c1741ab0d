package tile

import (
	"fmt"
	"strings"
)

// Counts is a multiset of tiles: Counts[f] tiles of face f. It is a value type, cheap to copy
// and compare, and the representation the matcher works on.
type Counts [NumFaces]uint8

// CountsOf builds the multiset of a list of faces. Faces outside the set are an error.
func CountsOf(fs []Face) (Counts, error) {
	var c Counts
	for i, f := range fs {
		if f >= NumFaces {
			return c, fmt.Errorf("tile: position %d: %v is not a face", i+1, f)
		}
		if c[f] == 255 {
			return c, fmt.Errorf("tile: more than 255 of %v", f)
		}
		c[f]++
	}
	return c, nil
}

// Total is the number of tiles.
func (c *Counts) Total() int {
	n := 0
	for _, v := range c {
		n += int(v)
	}
	return n
}

// Add adds o to c.
func (c *Counts) Add(o *Counts) {
	for f := range c {
		c[f] += o[f]
	}
}

// Sub removes o from c; ok is false (and c unchanged) if o is not contained in c.
func (c *Counts) Sub(o *Counts) (ok bool) {
	if !c.Contains(o) {
		return false
	}
	for f := range c {
		c[f] -= o[f]
	}
	return true
}

// Contains reports whether every tile of o is in c.
func (c *Counts) Contains(o *Counts) bool {
	for f := range c {
		if o[f] > c[f] {
			return false
		}
	}
	return true
}

// Mask has bit f set for every face present.
func (c *Counts) Mask() uint64 {
	var m uint64
	for f, v := range c {
		if v > 0 {
			m |= 1 << uint(f)
		}
	}
	return m
}

// Faces lists the tiles in canonical order.
func (c *Counts) Faces() []Face {
	out := make([]Face, 0, c.Total())
	for f, v := range c {
		for i := 0; i < int(v); i++ {
			out = append(out, Face(f))
		}
	}
	return out
}

// String prints the tiles in canonical order, e.g. "1B 1B 2C J".
func (c Counts) String() string {
	var b strings.Builder
	for f, v := range c {
		for i := 0; i < int(v); i++ {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(Face(f).String())
		}
	}
	return b.String()
}
