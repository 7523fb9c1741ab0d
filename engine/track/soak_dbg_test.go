package track
import ("testing";"time";"fmt")
func TestSoakDbg(t *testing.T) {
	fails := 0
	caught := map[string]int{}
	for _, spec := range []string{"siamese", "siamese-masters", "royale-4", "royale-3"} {
		for seed := uint64(100); seed < 140; seed++ {
			for _, rate := range []float64{0, 0.03} {
				p := playTracked(t, spec, seed, rate, tableNoise{Jitter: 400 * time.Millisecond, Unreadable: 0.03, Unknown: 0.1})
				err := sameGame(p.tracker.State(), p.truth.State)
				if err == nil && faultsOf(p.steps) != len(p.truth.Deliberate) { err = fmt.Errorf("faults %d want %d %+v", faultsOf(p.steps), len(p.truth.Deliberate), p.truth.Deliberate) }
				if err != nil { fails++; fmt.Println(spec, seed, rate, err) }
				for _, d := range p.truth.Deliberate { caught[d.Kind]++ }
			}
		}
	}
	fmt.Println("fails", fails, caught)
}
