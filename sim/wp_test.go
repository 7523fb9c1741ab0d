package sim

import (
	"testing"

	"github.com/siamesetable/siamesed/engine/card"
	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/tile"
)

func loadLimitList(t testing.TB) *card.Card {
	return loadCardFile(t, "wright-patterson-example.yaml")
}

// TestVirtualPlayersPlayWrightPatterson: on a Wright-Patterson table the players roll for East
// and the prevailing wind, exchange every flower of the deal in turn before East's first
// discard and every flower picked in play, and never break a rule they did not mean to: no
// infraction and no refusal unless committed on purpose, bouquets paid, Mah Jonggs made.
func TestVirtualPlayersPlayWrightPatterson(t *testing.T) {
	c := loadLimitList(t)
	var games, bouquets, mahjongs, flowers, rolls int
	for _, spec := range []string{"wright-patterson-siamese", "wright-patterson-siamese+four-flowers+no-jokers"} {
		r := loadRules(t, spec)
		for seed := uint64(0); seed < 25; seed++ {
			g := NewGame(r, c, seed, 0.02)
			committed := map[int]bool{}
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
				if turn.Act.Act == game.ActDiscard && turn.Act.Tiles[0] == tile.Flower && before.WallLeft > 0 {
					t.Errorf("%s seed %d: seat %d discarded a flower with %d tiles in the wall to replace it", spec, seed, turn.Act.Seat, before.WallLeft)
				}
				if turn.Act.Act == game.ActDiscard && len(before.Discards) == 0 {
					for i := range before.Seats {
						if holdsFlower(&before.Seats[i]) {
							t.Errorf("%s seed %d: East's first discard while seat %d holds a flower", spec, seed, i)
						}
					}
				}
				switch turn.Act.Act {
				case game.ActFlower:
					flowers++
				case game.ActRoll:
					rolls++
				}
				for _, d := range g.Deliberate {
					committed[d.Seq] = true
				}
				for _, v := range vs {
					switch {
					case v.Kind == game.Bouquet:
						bouquets++
					case v.Faulty() && !committed[g.State.Seq]:
						t.Errorf("%s seed %d: %v: %s %s nobody committed on purpose", spec, seed, turn.Act, v.Rule, v.Detail)
					}
				}
			}
			games++
			mahjongs += len(g.State.Result.MahJonggs)
			if !g.State.EastRolled || g.State.Prevailing == 0 {
				t.Errorf("%s seed %d: East rolled %v, prevailing %d", spec, seed, g.State.EastRolled, g.State.Prevailing)
			}
		}
	}
	t.Logf("%d games: %d rolls, %d flowers exchanged, %d bouquets, %d Mah Jonggs", games, rolls, flowers, bouquets, mahjongs)
	if bouquets == 0 || mahjongs == 0 || flowers == 0 {
		t.Errorf("%d bouquets, %d Mah Jonggs, %d flowers: want some of each", bouquets, mahjongs, flowers)
	}
}
