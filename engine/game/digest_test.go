package game

import (
	"math/rand/v2"
	"testing"

	"github.com/siamesetable/siamesed/engine/tile"
)

// TestDigestNamesTheWholeState: along random games, a state and its deep copy share a digest;
// every applied act changes it; and so does moving one concealed tile between a seat's racks,
// which the public JSON does not show.
func TestDigestNamesTheWholeState(t *testing.T) {
	c := loadCard(t)
	r := loadRules(t, allRulesets[0])
	rng := rand.New(rand.NewPCG(11, 12))
	moved := 0
	for g := 0; g < 5; g++ {
		randomGame(t, rng, r, c, func(before, after State, a Action) {
			if before.Digest() != copyState(before).Digest() {
				t.Fatalf("game %d: a copy of the state has another digest", g)
			}
			if before.Digest() == after.Digest() {
				t.Fatalf("game %d: %v changed the state but not its digest", g, a)
			}
			s := copyState(after)
			for i := range s.Seats {
				from, to := &s.Seats[i].Racks[0].Concealed, &s.Seats[i].Racks[1].Concealed
				for f := tile.Face(0); int(f) < len(from); f++ {
					if from[f] > 0 {
						from[f]--
						to[f]++
						if s.Digest() == after.Digest() {
							t.Fatalf("game %d: a concealed tile moved between racks and the digest stayed", g)
						}
						moved++
						return
					}
				}
			}
		})
	}
	if moved == 0 {
		t.Fatal("no concealed tile was ever moved: the test checked nothing")
	}
}
