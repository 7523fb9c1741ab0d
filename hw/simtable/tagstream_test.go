package simtable

import "testing"

func TestTagStreamRepeatsAndAlternates(t *testing.T) {
	s := NewTagStream(1)
	var seen []string
	for i := 0; i < 20; i++ {
		u, _ := s.ReadTags()
		if i%2 == 1 && len(u) != 0 {
			t.Fatalf("call %d: %v, want an empty field", i, u)
		}
		seen = append(seen, u...)
	}
	if len(seen) != 10 || seen[4] != seen[3] {
		t.Fatalf("stream %v", seen)
	}
}
