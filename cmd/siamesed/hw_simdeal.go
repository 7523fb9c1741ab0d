package main

import (
	"math/rand/v2"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/hw/rack"
	"github.com/siamesetable/siamesed/hw/simtable"
)

// hwDealDemo deals what `hw scan` shows on a simulated table: a kong on the first rack's first
// "on" position (its reader reaches two of the four tags; the load cell weighs all four) and 13
// tiles, drawn from the shuffled rest of the set, in every rack.
func hwDealDemo(t *simtable.Table, seed uint64) error {
	racks := t.Racks()
	if len(racks) == 0 {
		return nil
	}
	if err := t.Put(racks[0], rack.On, tile.North, tile.North, tile.North, tile.North); err != nil {
		return err
	}
	var wall []tile.Face
	set := tile.American().Count
	set[tile.North] = 0
	for f := tile.Face(0); f < tile.NumFaces; f++ {
		for range set[f] {
			wall = append(wall, f)
		}
	}
	rng := rand.New(rand.NewPCG(seed, 0xdea1))
	rng.Shuffle(len(wall), func(i, j int) { wall[i], wall[j] = wall[j], wall[i] })
	for i, r := range racks {
		if err := t.Put(r, rack.In, wall[13*i:13*(i+1)]...); err != nil {
			return err
		}
	}
	return nil
}
