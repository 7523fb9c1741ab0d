package track
import ("testing";"fmt";"time";"slices";"os";"github.com/siamesetable/siamesed/engine/game")
func canon(a game.Action) string { a.Tiles = slices.Clone(a.Tiles); slices.Sort(a.Tiles); return a.String() }
func TestDbg(t *testing.T) {
	p := playTracked(t, os.Getenv("SPEC"), 104, 0.03, tableNoise{Jitter: 400 * time.Millisecond, Unreadable: 0.03, Unknown: 0.1})
	tl := p.truth.Log()
	for i := 0; i < len(tl) || i < len(p.steps); i++ {
		a, b := "", ""
		if i < len(tl) { a = canon(tl[i]) }
		if i < len(p.steps) { b = canon(p.steps[i].Action) + fmt.Sprint(game.OutcomeOf(p.steps[i].Verdicts)) }
		mark := ""
		if i >= len(p.steps) || a != canon(p.steps[i].Action) { mark = "  <<< " + p.steps[min(i,len(p.steps)-1)].Source }
		fmt.Printf("%3d %-80s | %s%s\n", i+1, a, b, mark)
	}
	fmt.Printf("%+v\n", p.tracker.Questions())
}
