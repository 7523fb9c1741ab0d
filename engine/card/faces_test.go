package card

import (
	"testing"

	"github.com/siamesetable/siamesed/engine/tile"
)

// The example card uses every face but the joker; a card of winds alone uses the four winds.
func TestFaces(t *testing.T) {
	if got, want := tile.Format(loadExampleCard(t).Faces()), "1B 2B 3B 4B 5B 6B 7B 8B 9B 1C 2C 3C 4C 5C 6C 7C 8C 9C 1D 2D 3D 4D 5D 6D 7D 8D 9D E S W N RD GD WD F"; got != want {
		t.Errorf("example card: %s, want %s", got, want)
	}
	c, err := Parse("winds.yaml", []byte("name: winds\nyear: 2026\nhands:\n  - {id: w, section: Winds, patterns: [\"NNNN EEEE WWWW SS\"], value: 25}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := tile.Format(c.Faces()), "E S W N"; got != want {
		t.Errorf("winds card: %s, want %s", got, want)
	}
}
