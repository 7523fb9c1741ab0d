package daemon

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/configs"
	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/history"
	"github.com/siamesetable/siamesed/journal"
	"github.com/siamesetable/siamesed/sim/players"
	"github.com/siamesetable/siamesed/sim/table"
)

// wpConfig is fastConfig at a Wright-Patterson table, with the built-in limit list.
func wpConfig(n int, faults float64) Config {
	c := fastConfig(n, faults)
	c.Rules = "wright-patterson-siamese"
	return c
}

// TestWrightPattersonTablesAreTrackedFromTheSensors: virtual players play whole
// Wright-Patterson games (rolls entered by hand, flowers exchanged from the flower wall in turn
// and in play, bouquets, limit hands, wall games into the pot) on the simulated table, without
// noise and with sensor noise; the daemon tracks each game exactly as played, every flower on
// its rack, and each journal replays to the game the daemon ended. With rules broken on purpose
// it names exactly the faults committed (faultsNamed).
func TestWrightPattersonTablesAreTrackedFromTheSensors(t *testing.T) {
	n := 4
	if testing.Short() {
		n = 2
	}
	var flowers, bouquets, limits, walls int
	for _, tc := range []struct {
		name   string
		cfg    Config
		faults bool
	}{
		{"quiet", func() Config { c := wpConfig(n, 0); c.Sim.Noise = table.Noise{}; return c }(), false},
		{"noisy", wpConfig(n, 0), false},
		{"faults", wpConfig(n, 0.01), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			r := runSim(t, tc.cfg, dir)
			if tc.faults {
				r.faultsNamed(t, n)
			} else {
				r.trackedExactly(t, n)
			}
			// The scoreboard's wall-game pot is what the session's games left in it.
			results := make([]*game.Result, len(r.games))
			for i, g := range r.games {
				results[i] = g.tracked.Result
			}
			want := game.WallPotOf(2, 0, results, game.CarryPot).Left
			if got := r.d.table.State().WallPot; got == nil || *got != want {
				t.Errorf("the scoreboard's wall-game pot is %v, the games left %d in it", got, want)
			}
			for _, g := range r.games {
				if g.tracked.Rules.Name != "wright-patterson-siamese" || !g.tracked.EastRolled || g.tracked.Prevailing == 0 {
					t.Errorf("game %s: rules %s, East rolled %v, prevailing roll %d", g.id, g.tracked.Rules.Name, g.tracked.EastRolled, g.tracked.Prevailing)
				}
				for i := range g.tracked.Seats {
					st := &g.tracked.Seats[i]
					flowers += st.Racks[0].Flowers + st.Racks[1].Flowers
					bouquets += st.Bouquets
				}
				res := g.tracked.Result
				lp := g.tracked.Rules.Scoring.LimitPoints
				for _, m := range res.MahJonggs {
					if m.Limit < 1 || m.Limit > len(lp) || m.Value != lp[m.Limit-1] {
						t.Errorf("game %s: a Mah Jongg of limit %d valued %d (limits pay %v)", g.id, m.Limit, m.Value, lp)
					}
					limits++
				}
				switch {
				case res.WallPot == nil && (len(res.MahJonggs) > 0 || res.Reason == "wall_game"):
					t.Errorf("game %s (%s): no move on the wall pot", g.id, res.Reason)
				case res.WallPot != nil && res.WallPot.PaidIn > 0:
					walls++
				}
				jg, err := journal.Load(filepath.Join(dir, "games", g.id+".jsonl"), journal.Sources{})
				if err != nil {
					t.Fatal(err)
				}
				if jg.State.Digest() != g.tracked.Digest() {
					t.Errorf("game %s: its journal replays to %+v, the daemon ended it %+v", g.id, jg.State.Result, g.tracked.Result)
				}
			}
		})
	}
	t.Logf("%d flowers laid, %d points of bouquets, %d limit Mah Jonggs, %d wall games paid into the pot", flowers, bouquets, limits, walls)
	if flowers == 0 || bouquets == 0 || limits == 0 {
		t.Errorf("the games tested too little: %d flowers, %d bouquet points, %d Mah Jonggs", flowers, bouquets, limits)
	}
}

// faultsNamed checks games with rules broken on purpose: n games finished, and every game in
// which no rule was broken was tracked exactly with no fault named. A game with a fault may be
// tracked otherwise, as at any table (a tile picked and thrown before its rack settled, read
// after the next seat's pick, makes a second pick a pick out of turn); such a game is logged
// with the soak's figures.
func (r *simRun) faultsNamed(t *testing.T, n int) {
	t.Helper()
	if len(r.games) != n {
		t.Fatalf("%d games finished, want %d", len(r.games), n)
	}
	var st players.Stats
	for _, g := range r.games {
		err := st.Add(g.tracked, g.truth, g.faults, nil)
		switch {
		case g.faults == 0 && err != nil:
			t.Errorf("game %s, no rule broken: %v", g.id, err)
		case g.faults == 0 && players.FaultCount(g.tracked) > 0:
			t.Errorf("game %s, no rule broken: %d faults named", g.id, players.FaultCount(g.tracked))
		case err != nil:
			t.Logf("game %s, %d rules broken on purpose, tracked otherwise: %v", g.id, g.faults, err)
		}
	}
	t.Logf("%v", st)
}

// TestSessionWallPot: the scoreboard's wall-game pot grows by what each player pays in at a
// wall game with no Mah Jongg and is emptied by the next first Mah Jongg, over the session's
// games in the order they finished (another session's games are not counted); a ruleset
// without a pot shows none.
func TestSessionWallPot(t *testing.T) {
	dir := t.TempDir()
	rules, err := configs.LoadRuleset("wright-patterson-siamese")
	if err != nil {
		t.Fatal(err)
	}
	tb := &Table{cfg: Config{Session: "evening"}, rules: rules, layout: layout{names: []string{"Ann", "Bea"}}, history: history.Path(dir)}
	pot := func() int {
		t.Helper()
		p, err := tb.sessionWallPot(time.Now())
		if err != nil || p == nil {
			t.Fatalf("pot %v: %v", p, err)
		}
		return *p
	}
	if got := pot(); got != 0 {
		t.Fatalf("no history: pot %d", got)
	}
	taker := 1
	start := time.Date(2026, 11, 23, 19, 0, 0, 0, time.UTC)
	paid := rules.Scoring.WallGamePot
	for i, g := range []struct {
		session string
		move    game.WallPotMove
		want    int
	}{
		{"evening", game.WallPotMove{PaidIn: paid}, 2 * paid},
		{"afternoon", game.WallPotMove{PaidIn: paid}, 2 * paid},
		{"evening", game.WallPotMove{PaidIn: paid}, 4 * paid},
		{"evening", game.WallPotMove{Taker: &taker}, 0},
		{"evening", game.WallPotMove{PaidIn: paid}, 2 * paid},
	} {
		db, err := history.Open(tb.history, history.Options{})
		if err != nil {
			t.Fatal(err)
		}
		mv := g.move
		hg := history.Game{ID: fmt.Sprintf("g%d", i), Rules: rules.Name, Seats: []string{"Ann", "Bea"}, Session: g.session,
			Finished: start.Add(time.Duration(i) * time.Hour), Result: game.Result{Reason: "wall_game", Scores: []int{0, 0}, WallPot: &mv}}
		if _, err := db.Record(hg); err != nil {
			t.Fatal(err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		if got := pot(); got != g.want {
			t.Fatalf("after game %d (%+v in %s): pot %d, want %d", i, g.move, g.session, got, g.want)
		}
	}
	siamese, err := configs.LoadRuleset("siamese")
	if err != nil {
		t.Fatal(err)
	}
	tb.rules = siamese
	if p, err := tb.sessionWallPot(time.Now()); p != nil || err != nil {
		t.Fatalf("siamese: pot %v, %v", p, err)
	}
}

// TestWrightPattersonExampleConfig: configs/sim-wp.yaml is a valid configuration of a
// Wright-Patterson table whose card is the built-in limit list.
func TestWrightPattersonExampleConfig(t *testing.T) {
	b, err := configs.Files.ReadFile("sim-wp.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c, err := ParseConfig("sim-wp.yaml", b)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Check(); err != nil {
		t.Fatal(err)
	}
	r, err := configs.LoadRuleset(c.Rules)
	if err != nil {
		t.Fatal(err)
	}
	card, err := configs.LoadCardFor(c.Card, r)
	if err != nil || r.Name != "wright-patterson-siamese" || !card.Limits {
		t.Fatalf("rules %s, card %q (limits %v): %v", r.Name, card.Name, card.Limits, err)
	}
}

// TestWrightPattersonRestart: a Wright-Patterson daemon stopped during the flower exchange, or
// in play with flowers laid, restarts to exactly the state its journal holds (the players lay
// the table out again, flowers on their racks) and the game is played to its end with no fault
// named, journaled and recorded.
func TestWrightPattersonRestart(t *testing.T) {
	dir := t.TempDir()
	r := runSim(t, wpConfig(1, 0), dir)
	if len(r.games) != 1 {
		t.Fatalf("%d games", len(r.games))
	}
	r.d.close()
	id := r.games[0].id
	path := filepath.Join(dir, journal.GamesDir, id+journal.LogExt)
	whole, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(whole, []byte("\n"))
	// lines[0] is the header; lines[i] the i-th act.
	jg, err := journal.Load(path, journal.Sources{})
	if err != nil {
		t.Fatal(err)
	}
	acts := jg.Actions
	firstFlower, laterFlower := -1, -1
	for a := range acts {
		if acts[a].Act != game.ActFlower {
			continue
		}
		if firstFlower < 0 {
			firstFlower = a + 1
		} else if acts[a-1].Act == game.ActDraw {
			laterFlower = a + 1
		}
	}
	if firstFlower < 0 || laterFlower < 0 {
		t.Fatalf("the game laid no flower after the deal (%d) or in play (%d)", firstFlower, laterFlower)
	}
	for _, keep := range []int{firstFlower, laterFlower + 2} {
		t.Run(fmt.Sprintf("after act %d", keep), func(t *testing.T) {
			rdir := t.TempDir()
			games := filepath.Join(rdir, journal.GamesDir)
			if err := os.CopyFS(rdir, os.DirFS(dir)); err != nil {
				t.Fatal(err)
			}
			if err := os.Remove(history.Path(rdir)); err != nil {
				t.Fatal(err)
			}
			cut := bytes.Join(lines[:keep+1], nil)
			rpath := filepath.Join(games, id+journal.LogExt)
			if err := os.WriteFile(rpath, cut, 0o644); err != nil {
				t.Fatal(err)
			}
			want, err := journal.Read(rpath, bytes.NewReader(cut), journal.Sources{})
			if err != nil {
				t.Fatal(err)
			}
			d, err := startDaemon(t, wpConfig(1, 0), rdir, newLogBuffer())
			if err != nil {
				t.Fatal(err)
			}
			if got := d.table.Game(); got.Digest() != want.State.Digest() {
				t.Fatalf("resumed at act %d, the journal holds %d", got.Seq, want.State.Seq)
			}
			if err := d.runFast(t.Context()); err != errDone {
				t.Fatalf("the resumed game did not finish: %v", err)
			}
			g := d.table.Game()
			if g.Result == nil || players.FaultCount(g) != 0 {
				t.Fatalf("the resumed game: result %+v, %d faults named: %+v", g.Result, players.FaultCount(g), g.Warnings)
			}
			again, err := journal.Load(rpath, journal.Sources{})
			if err != nil || again.State.Digest() != g.Digest() {
				t.Fatalf("the journal after the restart: %v", err)
			}
			assertRecorded(t, rdir, id)
		})
	}
}
