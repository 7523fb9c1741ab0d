package game

// WallPotMove is what one game does to a wall-game pot that grows across games (Wright-Patterson:
// "Players contribute blue chip/50 points to a pot for the player with the next Mah Jongg. The
// pot will increase with each Wall game."): at a wall game with no Mah Jongg every seat pays
// PaidIn; in a game with a Mah Jongg, Taker (the seat of its first) takes what the pot holds.
type WallPotMove struct {
	PaidIn int  `json:"paid_in,omitempty"`
	Taker  *int `json:"taker,omitempty"`
}

// wallPotMove is the game's move on the pot, nil where the ruleset has none.
func wallPotMove(s *State, reason string, sc *Scoring) *WallPotMove {
	if sc.WallGamePot == 0 || reason == "misdeal" {
		return nil
	}
	first := -1
	for i := range s.Seats {
		for _, rk := range s.Seats[i].Racks {
			if mj := rk.MahJongg; mj != nil && mj.Nth == 1 {
				first = i
			}
		}
	}
	switch {
	case first >= 0:
		return &WallPotMove{Taker: &first}
	case reason == "wall_game":
		return &WallPotMove{PaidIn: sc.WallGamePot}
	}
	return nil
}

// PotLeft says what the end-of-day tally does with a wall pot no Mah Jongg has taken.
type PotLeft string

const (
	// RefundPot gives each seat back what it paid into the pot since it was last taken.
	RefundPot PotLeft = "refund"
	// CarryPot leaves the pot waiting for the next session's first Mah Jongg.
	CarryPot PotLeft = "carry"
)

// WallPotTally follows a wall pot through a session's games in the order they were played.
type WallPotTally struct {
	Carried int           `json:"carried"` // waiting when the session began
	Games   []WallPotGame `json:"games"`   // one per game that fed or took the pot
	Net     []int         `json:"net"`     // per seat: what it took from the pot, less what it paid in
	Refund  []int         `json:"refund,omitempty"`
	Left    int           `json:"left"` // still waiting for a Mah Jongg at the end (after a refund: what came from before the session)
}

// WallPotGame is one game's move, with the pot it left.
type WallPotGame struct {
	Game   int  `json:"game"` // the game's index in the session, from 0
	PaidIn int  `json:"paid_in,omitempty"`
	Taker  *int `json:"taker,omitempty"`
	Taken  int  `json:"taken,omitempty"`
	Pot    int  `json:"pot"`
}

// WallPotOf carries a pot through a session's results, in the order played, from what was
// waiting before it (carried); left says what the end of the session does with a pot no Mah
// Jongg took. Results without a move (other rulesets, unfinished games) leave the pot alone.
// Seats count by position, as Tally does.
func WallPotOf(players, carried int, results []*Result, left PotLeft) WallPotTally {
	t := WallPotTally{Carried: carried, Games: []WallPotGame{}, Net: make([]int, players), Left: carried}
	since := make([]int, players) // paid in since the pot was last taken
	for gi, r := range results {
		if r == nil || r.WallPot == nil {
			continue
		}
		mv := r.WallPot
		g := WallPotGame{Game: gi, PaidIn: mv.PaidIn, Taker: mv.Taker}
		if mv.PaidIn > 0 {
			for i := 0; i < players && i < len(r.Scores); i++ {
				t.Net[i] -= mv.PaidIn
				since[i] += mv.PaidIn
				t.Left += mv.PaidIn
			}
		}
		if mv.Taker != nil && *mv.Taker >= 0 && *mv.Taker < players {
			g.Taken = t.Left
			t.Net[*mv.Taker] += t.Left
			t.Left = 0
			clear(since)
		}
		g.Pot = t.Left
		t.Games = append(t.Games, g)
	}
	if left == RefundPot {
		t.Refund = since
		for i, v := range since {
			t.Net[i] += v
			t.Left -= v
		}
	}
	return t
}
