package game

// Kind classifies a verdict.
type Kind string

// Verdict kinds.
const (
	Legal       Kind = "legal"
	Infraction  Kind = "infraction"    // applied, but a rule broken; Rule and Quote say which
	Refused     Kind = "refused"       // not applied: the rules forbid it and the players undo it
	DeadHand    Kind = "dead"          // a rack is dead; Detail says why
	MahJonggOK  Kind = "mahjong"       // a Mah Jongg verified
	MahJonggBad Kind = "mahjong_error" // a Mah Jongg declared in error
	Misdeal     Kind = "misdeal"       // wrong tile count right after the deal: redeal
	Penalty     Kind = "penalty"       // points to a seat (negative: a penalty)
	Bouquet     Kind = "bouquet"       // a bouquet of flowers on a rack: Points paid at once
	GameOver    Kind = "game_over"     // Result holds the scores
	TakenBack   Kind = "taken_back"    // the last act in effect never happened; Detail names it
)

// Outcome is what happened to an act as a whole, so a caller never reads verdict text.
type Outcome string

// Outcomes of an act.
const (
	// Applied: the act was legal and is on the table.
	Applied Outcome = "applied"
	// AppliedInfraction: the act broke a rule but happened, so it stands (the table is the truth)
	// and its consequences follow.
	AppliedInfraction Outcome = "infraction"
	// NotApplied: the rules forbid the act and the players must undo it; the state is as before
	// but for the sequence number. (An act that cannot have happened at all is not a verdict but
	// an error wrapping ErrImpossible.)
	NotApplied Outcome = "refused"
)

// OutcomeOf classifies the verdicts Apply returned for one act.
func OutcomeOf(vs []Verdict) Outcome {
	out := Applied
	for _, v := range vs {
		switch {
		case v.Kind == Refused:
			return NotApplied
		case v.Faulty():
			out = AppliedInfraction
		}
	}
	return out
}

// Faulty reports whether the verdict records a broken rule: an infraction, a refused act, a Mah
// Jongg declared in error or a misdeal (what `replay --strict` fails on).
func (v Verdict) Faulty() bool {
	switch v.Kind {
	case Infraction, Refused, MahJonggBad, Misdeal:
		return true
	}
	return false
}

// HasFaults reports whether any verdict records a broken rule.
func HasFaults(vs []Verdict) bool {
	for _, v := range vs {
		if v.Faulty() {
			return true
		}
	}
	return false
}

// Verdict is one finding about one action.
type Verdict struct {
	Seq    int     `json:"seq"` // the action's number in the log, from 1
	Kind   Kind    `json:"kind"`
	Seat   int     `json:"seat"`
	Rack   int     `json:"rack,omitempty"`
	Rule   string  `json:"rule,omitempty"`  // ruleset rule id, e.g. "siamese 18C"
	Quote  string  `json:"quote,omitempty"` // the rule's text
	Detail string  `json:"detail,omitempty"`
	Hand   string  `json:"hand,omitempty"`
	Points int     `json:"points,omitempty"`
	Result *Result `json:"result,omitempty"`
}

// Result is how a game ended and what everyone scored.
type Result struct {
	Reason  string   `json:"reason"` // second_mahjong, wall_game, two_dead, all_dead, misdeal
	Scores  []int    `json:"scores"` // per seat
	Payouts []Payout `json:"payouts"`
	// PaidAtOnce are payments the table made during the game (a bouquet): in Scores, but not in
	// Payouts, which settle the rest.
	PaidAtOnce []Payout      `json:"paid_at_once,omitempty"`
	MahJonggs  []SeatMahJong `json:"mahjongs"`
	Dead       []SeatDead    `json:"dead"`
	// WallPot is what the game does to a pot that grows across games (wall_game_pot); nil
	// where the ruleset has none, or the game neither fed nor took it.
	WallPot *WallPotMove `json:"wall_pot,omitempty"`
}

// Payout is money (points) passing from one seat to another at the end.
type Payout struct {
	From   int `json:"from"`
	To     int `json:"to"`
	Points int `json:"points"`
}

// SeatMahJong is a Mah Jongg in the result.
type SeatMahJong struct {
	Seat int `json:"seat"`
	Rack int `json:"rack"`
	MahJongg
}

// SeatDead is a dead rack in the result.
type SeatDead struct {
	Seat  int    `json:"seat"`
	Rack  int    `json:"rack"`
	Cause string `json:"cause"`
}
