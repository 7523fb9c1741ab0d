package game

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestResultNet: a game's money is its payouts and what was paid at once, summing to zero.
func TestResultNet(t *testing.T) {
	r := &Result{
		Scores:     []int{1500, 3000},
		Payouts:    []Payout{{From: 0, To: 1, Points: 2000}},
		PaidAtOnce: []Payout{{From: 1, To: 0, Points: 500}},
	}
	if got := fmt.Sprint(r.Net()); got != "[-1500 1500]" {
		t.Errorf("Net = %s, want [-1500 1500]", got)
	}
	four := &Result{Scores: []int{50, -10, -20, -20}, Payouts: payouts([]int{50, -10, -20, -20})}
	if got := fmt.Sprint(four.Net()); got != "[200 -40 -80 -80]" {
		t.Errorf("four players: Net = %s", got)
	}
	if got := fmt.Sprint((&Result{Scores: []int{0, 0}, Payouts: []Payout{{From: 0, To: 5, Points: 9}}}).Net()); got != "[0 0]" {
		t.Errorf("a payment to a seat the game does not have: Net = %s", got)
	}
}

// TestTallySession: a Wright-Patterson day as the text pays it. Two wall games put 50 each
// into the pot; then Bea wins a double Mah Jongg (3000) over Ann's Mah Jongg (1000), which
// "will offset the debt owed": Ann pays 2000, while Bea paid Ann's bouquet (500) at once, and
// Ann, whose Mah Jongg was the first, takes the pot (200); a last wall game's 50 each are
// refunded. Each player's net: Ann -50 -50 -2000 +500 +200 = -1400, Bea +1400. The pot's moves
// are money: they are in Net, not in Scores.
func TestTallySession(t *testing.T) {
	wall := &Result{Scores: []int{0, 0}, Payouts: []Payout{}, WallPot: &WallPotMove{PaidIn: 50}}
	double := &Result{
		Scores:     []int{1500, 3000},
		Payouts:    []Payout{{From: 0, To: 1, Points: 2000}},
		PaidAtOnce: []Payout{{From: 1, To: 0, Points: 500}},
		WallPot:    &WallPotMove{Taker: ptr(0)},
	}
	for _, tc := range []struct {
		name             string
		carried          int
		left             PotLeft
		scores, net      string
		potLeft, potSum0 int
	}{
		{"refunded at the end", 0, RefundPot, "[1500 3000]", "[-1400 1400]", 0, 0},
		{"carried to the next session", 0, CarryPot, "[1500 3000]", "[-1450 1350]", 100, 0},
		{"with 30 carried in", 30, RefundPot, "[1500 3000]", "[-1370 1400]", 0, 30},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := TallySession(2, tc.carried, []*Result{wall, wall, double, nil, wall}, tc.left)
			if fmt.Sprint(got.Scores) != tc.scores || fmt.Sprint(got.Net) != tc.net || got.WallPot == nil || got.WallPot.Left != tc.potLeft {
				t.Fatalf("scores %v net %v pot %+v; want scores %s net %s, %d left", got.Scores, got.Net, got.WallPot, tc.scores, tc.net, tc.potLeft)
			}
			// Nothing is made or lost: the nets and what the pot still holds make what came in.
			if sum := got.Net[0] + got.Net[1] + got.WallPot.Left; sum != tc.potSum0 {
				t.Errorf("nets %v and %d in the pot make %d, want the %d carried in", got.Net, got.WallPot.Left, sum, tc.potSum0)
			}
		})
	}
	plain := TallySession(2, 0, []*Result{{Scores: []int{150, -20}, Payouts: []Payout{{From: 1, To: 0, Points: 170}}}}, RefundPot)
	if plain.WallPot != nil || fmt.Sprint(plain.Scores) != "[150 -20]" || fmt.Sprint(plain.Net) != "[170 -170]" {
		t.Errorf("a session without a pot: %+v", plain)
	}
}

// sessionScenario is a session of scenario games (testdata/scenarios/*.session.json), played in
// the order listed, with a wall pot waiting from before (wall_pot), what becomes of a pot left
// at the end (wall_pot_left: refund or carry), and each player's net as the text pays it (net),
// which -update never rewrites.
type sessionScenario struct {
	About   []string `json:"about"` // what the session shows, from the rule text
	Games   []string `json:"games"` // scenario logs beside the file
	WallPot int      `json:"wall_pot"`
	Left    PotLeft  `json:"wall_pot_left"`
	Net     []int    `json:"net"` // each player's net, worked out by hand from the text
}

// TestSessionScenarios replays each session's games and compares every game's scores and net,
// and the session's tally, with the .golden.json beside it (-update rewrites them). The nets
// must be those the session file works out from the text, and make, with the pot left, what
// was carried in.
func TestSessionScenarios(t *testing.T) {
	files, _ := filepath.Glob("testdata/scenarios/*.session.json")
	if len(files) == 0 {
		t.Fatal("no session scenarios")
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".session.json")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var ss sessionScenario
			if err := strictUnmarshal(data, &ss); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if len(ss.Games) == 0 || (ss.Left != RefundPot && ss.Left != CarryPot) {
				t.Fatalf("%s: no games, or wall_pot_left %q is not refund or carry", f, ss.Left)
			}
			type gameOut struct {
				Game    string       `json:"game"`
				Reason  string       `json:"reason"`
				Scores  []int        `json:"scores"`
				Net     []int        `json:"net"`
				WallPot *WallPotMove `json:"wall_pot,omitempty"`
			}
			var games []gameOut
			var results []*Result
			players := 0
			for _, g := range ss.Games {
				sc := readScenario(t, filepath.Join("testdata/scenarios", g))
				s, _, err := Replay(sc.start, sc.log.Actions)
				if err != nil || s.Result == nil {
					t.Fatalf("%s: the game is not over (%v)", g, err)
				}
				players = len(s.Seats)
				results = append(results, s.Result)
				games = append(games, gameOut{g, s.Result.Reason, s.Result.Scores, s.Result.Net(), s.Result.WallPot})
			}
			tally := TallySession(players, ss.WallPot, results, ss.Left)
			sum := 0
			for _, n := range tally.Net {
				sum += n
			}
			if tally.WallPot != nil {
				sum += tally.WallPot.Left
			}
			if fmt.Sprint(tally.Net) != fmt.Sprint(ss.Net) {
				t.Errorf("nets %v, the text pays %v", tally.Net, ss.Net)
			}
			if sum != ss.WallPot {
				t.Errorf("nets %v and the pot left make %d, not the %d carried in", tally.Net, sum, ss.WallPot)
			}
			got, _ := json.MarshalIndent(struct {
				Games []gameOut    `json:"games"`
				Tally SessionTally `json:"tally"`
			}{games, tally}, "", "  ")
			got = append(got, '\n')
			golden := strings.TrimSuffix(f, ".session.json") + ".golden.json"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test -update writes it)", err)
			}
			if string(got) != string(want) {
				t.Errorf("the session differs from %s:\n%s", golden, got)
			}
		})
	}
}
