package card

import (
	"errors"
	"strings"
	"testing"

	"github.com/siamesetable/siamesed/engine/tile"
)

func TestTableCheck(t *testing.T) {
	table := &Table{Set: tile.American().Count}
	table.Dead[tile.North] = 2
	tests := []struct {
		concealed string
		exposed   []string
		want      string // "" for no error
	}{
		{"N N", nil, ""},
		{"N N N", nil, "3 N held and 2 dead, the set has 4"},
		{"N", []string{"N N J"}, "3 N held and 2 dead, the set has 4"},
		{"1B 1B 1B 1B 1B", nil, "5 1B, the set has 4"},
		{"F F F F F F F F J J J J J J J J", nil, ""},
		{"J J J J J", []string{"3B J J J J"}, "9 J, the set has 8"},
	}
	for _, tc := range tests {
		r := rackOf(t, tc.concealed, tc.exposed...)
		err := table.Check(r.Concealed, r.Exposed)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s %v: %v", tc.concealed, tc.exposed, err)
		case tc.want != "" && (err == nil || !errors.Is(err, ErrTooManyTiles) || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s %v: %v, want %q", tc.concealed, tc.exposed, err, tc.want)
		}
	}
}

func TestAwayLeavesOutHandsNeedingDeadTiles(t *testing.T) {
	c := mustParse(t, testCard)
	r := rackOf(t, "N E E W W S S 1B 2C 3D F F")
	ids := func(table *Table) string {
		var s []string
		for _, a := range c.AppendAway(nil, r.Concealed, nil, table) {
			s = append(s, a.HandID)
		}
		return strings.Join(s, ",")
	}
	all := "2026-1,Like Numbers-1,Run-1,Run-2,Winds-1,Singles And Pairs-1,Quints-1"
	if got := ids(nil); got != all {
		t.Fatalf("no table: %s", got)
	}
	table := &Table{Set: tile.American().Count}
	table.Dead[tile.North] = 3 // the pair of north in Singles And Pairs-1 is out of reach
	if got := ids(table); got != strings.Replace(all, ",Singles And Pairs-1", "", 1) {
		t.Errorf("three N dead: %s", got)
	}
	table.Dead[tile.North] = 2
	if got := ids(table); got != all {
		t.Errorf("two N dead (one held, one left): %s", got)
	}
	// Winds-1 needs a pung or kong of N: with every N but the one held dead and every joker
	// dead too, it is out of reach; with jokers left it is not.
	table.Dead[tile.North] = 3
	if got := ids(table); !strings.Contains(got, "Winds-1") {
		t.Errorf("jokers can fill the north pung: %s", got)
	}
	table.Dead[tile.Joker] = 8
	if got := ids(table); strings.Contains(got, "Winds-1") {
		t.Errorf("no jokers and no north left: %s", got)
	}
}
