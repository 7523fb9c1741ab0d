package tile

import "testing"

func TestSetsHaveTheRightTiles(t *testing.T) {
	tests := []struct {
		set             Set
		total, j, fl, n int
	}{
		{American(), 152, 8, 8, 4},
		{Royale4(), 304, 16, 16, 8},
		{Royale3(), 296, 12, 12, 8},
	}
	for _, tc := range tests {
		t.Run(tc.set.Name, func(t *testing.T) {
			c := tc.set.Count
			if c.Total() != tc.total || int(c[Joker]) != tc.j || int(c[Flower]) != tc.fl || int(c[Dot5]) != tc.n || int(c[White]) != tc.n {
				t.Errorf("total %d jokers %d flowers %d 5D %d", c.Total(), c[Joker], c[Flower], c[Dot5])
			}
			byName, err := SetByName(tc.set.Name)
			if err != nil || byName.Count != c {
				t.Errorf("SetByName(%q) = %v", tc.set.Name, err)
			}
		})
	}
	if _, err := SetByName("riichi"); err == nil {
		t.Error("unknown set accepted")
	}
}

func TestCountsArithmetic(t *testing.T) {
	fs, _ := ParseList("1B 1B J RD")
	c, err := CountsOf(fs)
	if err != nil || c.Total() != 4 || c.String() != "1B 1B RD J" {
		t.Fatalf("CountsOf = %v %v", c, err)
	}
	o, _ := CountsOf([]Face{Bam1, Joker})
	if !c.Contains(&o) {
		t.Fatal("Contains")
	}
	d := c
	if !d.Sub(&o) || d.String() != "1B RD" {
		t.Fatalf("Sub -> %v", d)
	}
	if d.Sub(&o) {
		t.Fatal("Sub of a missing joker succeeded")
	}
	d.Add(&o)
	if d != c {
		t.Fatalf("Add -> %v", d)
	}
	if c.Mask() != 1<<Bam1|1<<Red|1<<Joker {
		t.Fatalf("Mask = %b", c.Mask())
	}
	if _, err := CountsOf([]Face{NoFace}); err == nil {
		t.Fatal("NoFace counted")
	}
	if got := Format(c.Faces()); got != "1B 1B RD J" {
		t.Fatalf("Faces = %s", got)
	}
}
