package game

// Net is what each seat won (+) or paid (-) in the game: the payouts that settle it at the end
// and what the table paid during it (a bouquet). Scores are points, which the payouts settle by
// their differences; Net is what changed hands, so it sums to zero over the seats. A payment
// naming a seat the result does not have is left out.
func (r *Result) Net() []int {
	out := make([]int, len(r.Scores))
	for _, paid := range [][]Payout{r.Payouts, r.PaidAtOnce} {
		for _, p := range paid {
			if p.From >= 0 && p.From < len(out) && p.To >= 0 && p.To < len(out) {
				out[p.From] -= p.Points
				out[p.To] += p.Points
			}
		}
	}
	return out
}

// SessionTally is a session's games added up by seat position, in the order they were played.
type SessionTally struct {
	// Scores are the games' points added up (Tally): what a Royale pot is paid out by (royale
	// 16), and what two players settle by their difference (siamese 17).
	Scores []int `json:"scores"`
	// Net is each seat's money: every game's Net, plus or minus the wall pot's moves.
	Net []int `json:"net"`
	// WallPot follows a pot that grows across games (wright-patterson-siamese); nil when no
	// game fed or took one and none was carried in.
	WallPot *WallPotTally `json:"wall_pot,omitempty"`
}

// TallySession adds up a session's results, in the order played, with a wall pot carried in
// from before and left at the end as left says. A wall pot is money paid in and taken out, so
// its moves go into Net and never into Scores: added to points that are settled by their
// difference, every pot move would count twice, and added to one player's points it would
// hide the other's debt. Net sums to zero over the seats, but for the pot: the seats' Net and
// what the pot holds at the end together make what was carried in.
func TallySession(players, carried int, results []*Result, left PotLeft) SessionTally {
	t := SessionTally{Scores: Tally(players, results), Net: make([]int, players)}
	for _, r := range results {
		if r == nil {
			continue
		}
		for i, n := range r.Net() {
			if i < players {
				t.Net[i] += n
			}
		}
	}
	if wp := WallPotOf(players, carried, results, left); len(wp.Games) > 0 || carried > 0 {
		t.WallPot = &wp
		for i, n := range wp.Net {
			t.Net[i] += n
		}
	}
	return t
}
