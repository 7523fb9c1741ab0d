package players

import (
	"fmt"
	"slices"
	"strings"

	"github.com/siamesetable/siamesed/engine/game"
)

// Stats count how the tracker fared against what the virtual players really did.
type Stats struct {
	Games     int `json:"games"`
	Exact     int `json:"exact"`     // games tracked exactly as played
	Committed int `json:"committed"` // rules broken on purpose
	Found     int `json:"found"`     // faults the referee named that were committed
	False     int `json:"false"`     // faults named that nobody committed
	Missed    int `json:"missed"`    // faults committed that went unnamed
	// HandEntered counts the players' answers to the tracker's questions (an act entered by
	// hand, a camera report said to be a misreading), in Helped games; the other games were
	// tracked from the sensors alone.
	HandEntered int `json:"hand_entered"`
	Helped      int `json:"helped"`
	// RacksRight counts the times the players said the racks are right as they are (a table
	// stuck on what they could not enter by hand).
	RacksRight int `json:"racks_right"`
	// TakenBack counts the times the players took back the table's last act (a record that
	// had gone wrong where nothing else put it right).
	TakenBack int `json:"taken_back"`
	// GaveIn counts the times the players gave in to the table's record (put the tiles as it
	// has them and played on from it); a game with one is never tracked exactly.
	GaveIn int `json:"gave_in"`
	// Objected counts the rule breaks the table named that the players never committed and
	// took back at once: named falsely, but gone from the record, so not in False.
	Objected int `json:"objected"`
}

func (s Stats) String() string {
	return fmt.Sprintf("%d games, %d tracked exactly (%d needed %d acts entered by hand; the racks said right %d times; %d acts taken back; gave in to the record %d times; %d false rule breaks objected to); %d rules broken on purpose, %d faults named rightly, %d false, %d missed",
		s.Games, s.Exact, s.Helped, s.HandEntered, s.RacksRight, s.TakenBack, s.GaveIn, s.Objected, s.Committed, s.Found, s.False, s.Missed)
}

// Add counts one finished game: the faults the referee named are matched, by seat and rule,
// with the faults of the game as played. gave, when the players gave in to the table's record,
// is what they gave up: the faults before it are those of their game, the record's own left
// out, and the game is not tracked exactly.
func (s *Stats) Add(tracked, played game.State, committed int, gave *GaveIn) error {
	s.Games++
	s.Committed += committed
	named, real := faultsOf(tracked), faultsOf(played)
	if gave != nil {
		s.Committed += gave.Committed
		for k, n := range gave.faults {
			real[k] += n
		}
	}
	for k, n := range named {
		m := real[k]
		s.Found += min(n, m)
		s.False += max(0, n-m)
	}
	for k, m := range real {
		s.Missed += max(0, m-named[k])
	}
	err := SameGame(tracked, played)
	if gave != nil {
		err = fmt.Errorf("the players gave in to the table's record %d times, first at act %d", gave.Times, gave.First)
		if gave.Lost != nil {
			err = fmt.Errorf("%w: %w", err, gave.Lost)
		}
	}
	if err == nil {
		s.Exact++
	}
	return err
}

// GaveIn is what the players gave up in a game by giving in to the table's record, once or
// more: the rules they had broken on purpose, and the faults of the games they had played less
// those of the records they took, so the game's faults are counted as they played it.
type GaveIn struct {
	Times     int
	First     int   // the table's act count when they first gave in
	Lost      error // how the first record differed from their game
	Committed int
	faults    map[fault]int
}

// add counts one giving in: played, their game then, for record.
func (g *GaveIn) add(played, record game.State, committed int) {
	if g.Times == 0 {
		g.First, g.Lost, g.faults = record.Seq, SameGame(record, played), map[fault]int{}
	}
	g.Times++
	g.Committed += committed
	for k, n := range faultsOf(played) {
		g.faults[k] += n
	}
	for k, n := range faultsOf(record) {
		g.faults[k] -= n
	}
}

// fault names a rule broken by a seat.
type fault struct {
	seat int
	rule string
}

// faultsOf counts a game's faults by seat and rule, from its warnings: every warning but a
// hand declared dead for a reason that is no fault (exposures that fit no hand); the warnings
// of one act count once per rule.
func faultsOf(s game.State) map[fault]int {
	seen := map[string]bool{}
	out := map[fault]int{}
	for _, w := range s.Warnings {
		if w.Kind == game.DeadHand && !strings.Contains(w.Rule, "tile-count") {
			continue
		}
		key := fmt.Sprintf("%d/%d/%s", w.Seq, w.Seat, w.Rule)
		if seen[key] {
			continue
		}
		seen[key] = true
		out[fault{w.Seat, w.Rule}]++
	}
	return out
}

// FaultCount counts the acts of a game that broke a rule.
func FaultCount(s game.State) int {
	seqs := map[int]bool{}
	for _, w := range s.Warnings {
		if w.Kind != game.DeadHand || strings.Contains(w.Rule, "tile-count") {
			seqs[w.Seq] = true
		}
	}
	return len(seqs)
}

// SameGame compares the tracked game with the played one: every rack, exposure, flower laid
// and discard, the rolls, and the result.
func SameGame(a, b game.State) error {
	for i := range a.Seats {
		for r := range a.Seats[i].Racks {
			ra, rb := &a.Seats[i].Racks[r], &b.Seats[i].Racks[r]
			if ra.Concealed != rb.Concealed || len(ra.Exposures) != len(rb.Exposures) || ra.Dead != rb.Dead {
				return fmt.Errorf("seat %d rack %d: tracked %v %v %q, played %v %v %q", i, r+1, ra.Concealed, ra.Exposures, ra.Dead, rb.Concealed, rb.Exposures, rb.Dead)
			}
			if ra.Flowers != rb.Flowers {
				return fmt.Errorf("seat %d rack %d: %d flowers tracked, %d laid", i, r+1, ra.Flowers, rb.Flowers)
			}
		}
	}
	if a.EastRoll != b.EastRoll || a.Prevailing != b.Prevailing {
		return fmt.Errorf("rolls: tracked %v and %d for the prevailing wind, played %v and %d", a.EastRoll, a.Prevailing, b.EastRoll, b.Prevailing)
	}
	if !slices.Equal(a.Discards, b.Discards) {
		return fmt.Errorf("discards: tracked %v, played %v", a.Discards, b.Discards)
	}
	if (a.Result == nil) != (b.Result == nil) || (a.Result != nil && (a.Result.Reason != b.Result.Reason || !slices.Equal(a.Result.Scores, b.Result.Scores))) {
		return fmt.Errorf("result: tracked %+v, played %+v", a.Result, b.Result)
	}
	return nil
}
