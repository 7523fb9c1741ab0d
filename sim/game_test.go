package sim

import (
	"os"
	"testing"

	"github.com/siamesetable/siamesed/engine/card"
	"github.com/siamesetable/siamesed/engine/game"
)

func loadRules(t testing.TB, spec string) *game.Ruleset {
	t.Helper()
	r, err := game.LoadRuleset(spec, func(name string) ([]byte, error) { return os.ReadFile("../configs/rules/" + name + ".yaml") })
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func loadCard(t testing.TB) *card.Card { return loadCardFile(t, "example.yaml") }

// loadCardFile parses a card of configs/cards.
func loadCardFile(t testing.TB, name string) *card.Card {
	t.Helper()
	data, err := os.ReadFile("../configs/cards/" + name)
	if err != nil {
		t.Fatal(err)
	}
	c, err := card.Parse(name, data)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestVirtualPlayersPlayWholeGames: games end; every act the players choose is possible; the
// rules broken on purpose are the only faults the referee finds, and each is found.
func TestVirtualPlayersPlayWholeGames(t *testing.T) {
	c := loadCard(t)
	endings := map[string]int{}
	mahjongs := 0
	for _, spec := range []string{"siamese", "siamese-masters", "royale-4", "royale-3"} {
		r := loadRules(t, spec)
		for seed := uint64(0); seed < 30; seed++ {
			g := NewGame(r, c, seed, 0.02)
			var verdicts []game.Verdict
			for steps := 0; ; steps++ {
				if steps > 3000 {
					t.Fatalf("%s seed %d: no end after 3000 acts", spec, seed)
				}
				before := g.State
				turn, ok := g.Next()
				if !ok {
					break
				}
				_, vs, err := game.Apply(before, turn.Act)
				if err != nil {
					t.Fatal(err)
				}
				verdicts = append(verdicts, vs...)
			}
			endings[g.State.Result.Reason]++
			mahjongs += len(g.State.Result.MahJonggs)
			faults := map[int]bool{}
			for _, v := range verdicts {
				if v.Faulty() {
					faults[v.Seq] = true
				}
			}
			for _, d := range g.Deliberate {
				if !faults[d.Seq] {
					t.Errorf("%s seed %d: %s by seat %d at seq %d not found by the referee", spec, seed, d.Kind, d.Seat, d.Seq)
				}
				delete(faults, d.Seq)
			}
			for seq := range faults {
				t.Errorf("%s seed %d: a fault at seq %d nobody committed on purpose: %v", spec, seed, seq, g.Log()[seq-1])
			}
		}
	}
	t.Logf("endings %v, %d Mah Jonggs", endings, mahjongs)
	if mahjongs == 0 {
		t.Error("no virtual player ever made Mah Jongg")
	}
}
