package labels

import (
	"testing"

	"github.com/siamesetable/siamesed/engine/tile"
)

// The joker is required whatever the card uses; each face once, in order.
func TestRequired(t *testing.T) {
	for _, tc := range []struct{ card, want string }{
		{"E S W N", "E S W N J"},
		{"N E N", "E N J"},
		{"J 1B", "1B J"},
		{"", "J"},
	} {
		in, err := tile.ParseList(tc.card)
		if err != nil {
			t.Fatal(err)
		}
		if got := tile.Format(Required(in)); got != tc.want {
			t.Errorf("Required(%s) = %s, want %s", tc.card, got, tc.want)
		}
	}
}

func TestMissing(t *testing.T) {
	have, _ := tile.ParseList("F F E J")
	want, _ := tile.ParseList("E S F W S J")
	if got := tile.Format(Missing(have, want)); got != "S W" {
		t.Errorf("Missing = %s, want S W", got)
	}
}
