package loadcell_test

import (
	"fmt"

	"github.com/siamesetable/siamesed/hw/loadcell"
)

func ExampleTilesFromGrams() {
	fmt.Printf("%+v\n", loadcell.TilesFromGrams(183, 14, 0.3)) // 13 tiles and a little dust
	fmt.Printf("%+v\n", loadcell.TilesFromGrams(91, 14, 0.3))  // 6.5 tiles: a hand on the rack
	// Output:
	// {Tiles:13 Grams:183 Sure:true}
	// {Tiles:7 Grams:91 Sure:false}
}
