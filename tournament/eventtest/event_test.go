package eventtest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/siamesetable/siamesed/internal/natstest"
	"github.com/siamesetable/siamesed/tournament/wire"
)

const waitLimit = 90 * time.Second

// seatsByHand moves the players of one round to the next as the NMJL text says, table by
// table: East stays, West up two tables, North up one, South down one, the top table's "up"
// being table 1. It is written apart from package movement, on purpose.
func seatsByHand(prev [][]string) [][]string {
	n := len(prev)
	next := make([][]string, n)
	for i := range next {
		next[i] = make([]string, 4)
	}
	wrap := func(t int) int { return ((t-1)%n+n)%n + 1 } // tables 1..n
	for i, row := range prev {
		t := i + 1
		next[t-1][0] = row[0]         // East stays
		next[wrap(t-1)-1][1] = row[1] // South down one
		next[wrap(t+2)-1][2] = row[2] // West up two
		next[wrap(t+1)-1][3] = row[3] // North up one
	}
	return next
}

// signInBrowser signs a table's sheet through its seat view: for each seat, the page is
// opened, the seat logs in with its password, and every button it has (sign a game, initial
// a total) is pressed until none is left.
func signInBrowser(t *testing.T, ctx context.Context, st *simTable, round int) {
	t.Helper()
	sh := st.Sheet(round)
	need := map[int]bool{}
	for _, g := range sh.Played {
		for _, s := range g.Signers {
			need[s] = true
		}
	}
	for _, by := range sh.Initial {
		need[by] = true
	}
	for seat := range 4 {
		if !need[seat] {
			continue
		}
		var err error
		for try := 1; try <= 3; try++ {
			// A page of its own each time: a navigation to the page already shown can race the
			// browser's execution contexts under load ("Cannot find context"); a try that fails
			// so is made again from the start, the buttons pressed before staying pressed.
			var pressed int
			err = chromedp.Run(ctx,
				chromedp.Navigate(fmt.Sprintf("%ssheet.html?seat=%d&round=%d&try=%d", st.URL, seat, round, try)),
				chromedp.Poll(`document.querySelectorAll('#seat option').length === 4`, nil, chromedp.WithPollingTimeout(20*time.Second)),
				chromedp.SetValue(`#seat`, fmt.Sprint(seat)),
				chromedp.SetValue(`#password`, st.passwords[seat]),
				chromedp.Click(`#login button[type=submit]`),
				chromedp.Poll(`window.siameseSheet.sheet !== null`, nil, chromedp.WithPollingTimeout(20*time.Second)),
				chromedp.Evaluate(`(async () => {
				let n = 0;
				for (;;) {
					const b = document.querySelector('#games button');
					if (!b) return n;
					const what = b.dataset.sign || ('i' + b.dataset.initial);
					b.click(); n++;
					for (let i = 0; i < 200; i++) {
						await new Promise(r => setTimeout(r, 25));
						if (window.siameseSheet.error) throw new Error(window.siameseSheet.error);
						const same = [...document.querySelectorAll('#games button')].some(x => (x.dataset.sign || ('i' + x.dataset.initial)) === what);
						if (!same) break;
					}
					if (n > 12) throw new Error('buttons do not go away: ' + [...document.querySelectorAll('#games button')].map(x => x.textContent).join(', ') + ' ' + JSON.stringify(window.siameseSheet.sheet));
				}
			})()`, &pressed, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }),
			)
			if err == nil {
				break
			}
			t.Logf("table %d round %d seat %d in the browser, try %d: %v", st.Number, round, seat, try, err)
		}
		if err != nil {
			t.Fatalf("table %d round %d seat %d in the browser: %v", st.Number, round, seat, err)
		}
	}
	if after := st.Sheet(round); len(after.Played) != sh.Games {
		t.Fatalf("table %d round %d: %d games", st.Number, round, len(after.Played))
	}
	for _, g := range st.Sheet(round).Played {
		if len(g.Signed) != len(g.Signers) {
			t.Fatalf("table %d round %d game %d: signed by %v of %v after the browser", st.Number, round, g.Game, g.Signed, g.Signers)
		}
	}
}

// TestWholeEvent: 16 simulated tables play 3 rounds of 2 games with the NMJL movement through
// a three-node NATS cluster; every score sheet is signed in the seat view in Chromium; in round
// 2 a NATS node is killed and the desk stopped, both started again after the round. The desk
// counts every result exactly once, its standings equal the games' scores added up here, and
// its seatings equal the movement worked out here table by table. East's call reaches the
// desk with the table's state, and the director's ruling reaches the table.
func TestWholeEvent(t *testing.T) {
	if testing.Short() {
		t.Skip("a whole event: a NATS cluster, 16 tables, Chromium")
	}
	const tables, rounds, games = 16, 3, 2
	ctx := browser(t)
	ev := writeEvent(t, tables, rounds, games)
	cl := natstest.Start(t, 3)
	dsk := startDesk(t, ev, t.TempDir(), cl.URLs())
	sims := startTables(t, ev, cl)

	seating := ev.First
	for round := 1; round <= rounds; round++ {
		if round > 1 {
			seating = seatsByHand(seating)
		}
		for i, st := range sims {
			if round == 2 && i == tables/2 {
				cl.Kill(1)
				dsk.stop()
			}
			sh := st.Sheet(0)
			if sh.Round != round || fmt.Sprint(sh.Players) != fmt.Sprint(seating[i]) {
				t.Fatalf("round %d table %d seats %v (round %d), by hand %v", round, i+1, sh.Players, sh.Round, seating[i])
			}
			for range games {
				if _, _, err := st.Play(time.Now()); err != nil {
					t.Fatal(err)
				}
			}
		}
		if round == 3 { // East of table 5 calls the director; Chromium presses the button
			err := chromedp.Run(ctx,
				chromedp.Navigate(sims[4].URL+"sheet.html"),
				chromedp.Poll(`document.querySelectorAll('#seat option').length === 4`, nil, chromedp.WithPollingTimeout(20*time.Second)),
				chromedp.SetValue(`#seat`, "0"),
				chromedp.SetValue(`#password`, sims[4].passwords[0]),
				chromedp.Click(`#login button[type=submit]`),
				chromedp.WaitVisible(`#call`),
				chromedp.SetValue(`#call-note`, "South touched the next tile"),
				chromedp.Click(`#call`),
				chromedp.Poll(`window.siameseSheet.sheet.calls && window.siameseSheet.sheet.calls.length === 1`, nil, chromedp.WithPollingTimeout(20*time.Second)),
			)
			if err != nil {
				t.Fatal(err)
			}
		}
		for _, st := range sims {
			signInBrowser(t, ctx, st, round)
		}
		if round == 2 {
			dsk.start()
			cl.Restart(1)
		}
	}
	d := func() *runningDesk { return dsk }
	waitFor(t, "East's call at the desk", waitLimit, func() bool { return len(d().D.View().Calls) == 1 })
	call := dsk.D.View().Calls[0]
	if call.Table != 5 || call.Round != 3 || call.Note != "South touched the next tile" {
		t.Errorf("call %+v", call)
	}
	if _, err := dsk.D.Rule(5, 3, wire.Ruling{Call: call.ID, Director: "Jo", Text: "picking ahead: minus 10", Penalty: &wire.Penalty{Game: 2, Seat: 1, Points: -10}}); err != nil {
		t.Fatal(err)
	}
	err := chromedp.Run(ctx,
		chromedp.Navigate(sims[4].URL+"sheet.html"),
		chromedp.Poll(`document.querySelectorAll('#seat option').length === 4`, nil, chromedp.WithPollingTimeout(20*time.Second)),
		chromedp.SetValue(`#seat`, "1"),
		chromedp.SetValue(`#password`, sims[4].passwords[1]),
		chromedp.Click(`#login button[type=submit]`),
		chromedp.Poll(`document.querySelectorAll('#rulings .ruling').length === 1`, nil, chromedp.WithPollingTimeout(waitLimit)))
	if err != nil {
		t.Fatalf("the ruling did not reach table 5's seat view: %v", err)
	}
	var png []byte
	if err := chromedp.Run(ctx, chromedp.FullScreenshot(&png, 100)); err == nil {
		dir := os.Getenv("SIAMESED_SCREENSHOTS")
		if dir == "" {
			dir = filepath.Join(os.TempDir(), "siamesed-screenshots")
		}
		if os.MkdirAll(dir, 0o755) == nil {
			os.WriteFile(filepath.Join(dir, "sheet.png"), png, 0o644)
		}
	}
	// West of table 5 (seat 2 initials for East and herself; seat 1 for himself) initials again.
	signInBrowser(t, ctx, sims[4], 3)
	waitFor(t, "every sheet closed at the desk", waitLimit, func() bool {
		for _, tv := range dsk.D.View().Tables {
			for _, s := range tv.Sheets {
				if !s.Closed {
					return false
				}
			}
		}
		return true
	})

	// Standings, worked out here from the games the engine played and the seating by hand.
	type tally struct{ points, mahjongs, games int }
	want := map[string]*tally{}
	seating = ev.First
	for round := 1; round <= rounds; round++ {
		if round > 1 {
			seating = seatsByHand(seating)
		}
		for i, st := range sims {
			for g := range games {
				s := st.Played[(round-1)*games+g]
				for seat, p := range seating[i] {
					if want[p] == nil {
						want[p] = &tally{}
					}
					want[p].points += s.Result.Scores[seat]
					want[p].games++
				}
				for _, mj := range s.Result.MahJonggs {
					want[seating[i][mj.Seat]].mahjongs++
				}
			}
		}
	}
	want[seating[4][1]].points -= 10 // the ruling: table 5's South in round 3
	v := dsk.D.View()
	if len(v.Standings) != 4*tables {
		t.Fatalf("%d players in the standings", len(v.Standings))
	}
	for _, s := range v.Standings {
		w := want[s.Player]
		if s.Points != w.points || s.MahJongs != w.mahjongs || s.Games != w.games || s.Pending != 0 {
			t.Errorf("%s: desk %+v, worked out %+v", s.Player, s, *w)
		}
	}
	for r := 1; r <= rounds; r++ {
		for i, tv := range v.Tables {
			if got := tv.Sheets[r-1].Players; fmt.Sprint(got) != fmt.Sprint(ev.Seating(r)[i]) {
				t.Errorf("desk's sheet of table %d round %d: %v", i+1, r, got)
			}
		}
	}
	// Every result exactly once, each named by a game log at its table.
	all, err := dsk.D.Changes(0)
	if err != nil {
		t.Fatal(err)
	}
	results := map[string]int{}
	for _, c := range all {
		if c.Kind == wire.KindResult {
			results[c.Ref]++
		}
	}
	if len(results) != tables*rounds*games {
		t.Errorf("%d results recorded, want %d", len(results), tables*rounds*games)
	}
	for ref, n := range results {
		if n != 1 {
			t.Errorf("result %s recorded %d times", ref, n)
		}
	}
	for _, st := range sims {
		for r := 1; r <= rounds; r++ {
			for _, g := range st.Sheet(r).Played {
				if results[g.ID] != 1 {
					t.Errorf("table %d round %d game %d (%s) not recorded once", st.Number, r, g.Game, g.ID)
				}
			}
		}
	}
	t.Logf("%d results, %d changes recorded; %d players", len(results), len(all), len(v.Standings))
}
