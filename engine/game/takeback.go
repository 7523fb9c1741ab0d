package game

import (
	"errors"
	"fmt"
)

// ErrNothingToTakeBack is wrapped by a take_back with no act in effect before it that it may
// take back: none at all, or none within what an Undo keeps.
var ErrNothingToTakeBack = errors.New("no act to take back")

// Undo keeps the states before a game's acts in effect, so the players can take back an act
// the referee recorded but the table never saw: the sensors misread, the record went wrong,
// and no act played on top of it can put it right. Replay keeps one for the whole log; the
// live table keeps the last few acts.
type Undo struct {
	limit  int // acts kept; 0: every act
	before []State
	acts   []Action
}

// NewUndo keeps the last limit acts (0: all of them).
func NewUndo(limit int) *Undo { return &Undo{limit: limit} }

// Keep bounds the acts kept to the last n (0: all of them), from now on.
func (u *Undo) Keep(n int) {
	u.limit = n
	if cut := len(u.acts) - n; n > 0 && cut > 0 {
		u.before, u.acts = u.before[cut:], u.acts[cut:]
	}
}

// Played records act a, played on before (applied or refused: a refused act leaves its
// warning, which taking it back removes).
func (u *Undo) Played(before State, a Action) {
	if u.limit > 0 && len(u.before) == u.limit {
		u.before, u.acts = u.before[1:], u.acts[1:]
	}
	u.before, u.acts = append(u.before, before), append(u.acts, a)
}

// Depth is how many acts may be taken back now.
func (u *Undo) Depth() int { return len(u.acts) }

// Last is the act a take_back would take back now.
func (u *Undo) Last() (Action, bool) {
	if len(u.acts) == 0 {
		return Action{}, false
	}
	return u.acts[len(u.acts)-1], true
}

// Before is the game before the k-th last act in effect (k from 1 to Depth).
func (u *Undo) Before(k int) (State, bool) {
	if k < 1 || k > len(u.before) {
		return State{}, false
	}
	return u.before[len(u.before)-k], true
}

// TakeBack plays take_back a on cur: the game is as it was before its last act in effect,
// which a's seat must have played, and the take_back counts as a line of the log (Seq goes
// on, TakenBack counts it), so a verdict's Seq still names its log line. The game over is
// never taken back: a finished game is recorded in the history.
func (u *Undo) TakeBack(cur State, a Action) (State, []Verdict, error) {
	if err := a.check(); err != nil {
		return cur, nil, fmt.Errorf("%w: %v", ErrImpossible, err)
	}
	if a.Act != ActTakeBack {
		return cur, nil, fmt.Errorf("%w: game: %s is not a take_back", ErrImpossible, a.Act)
	}
	if cur.Phase == PhaseOver {
		return cur, nil, fmt.Errorf("%w: game: the game is over", ErrImpossible)
	}
	last, ok := u.Last()
	if !ok {
		return cur, nil, fmt.Errorf("%w: game: take_back by seat %d: %w", ErrImpossible, a.Seat, ErrNothingToTakeBack)
	}
	if last.Seat != a.Seat {
		return cur, nil, fmt.Errorf("%w: game: take_back by seat %d: the last act in effect is seat %d's %s", ErrImpossible, a.Seat, last.Seat, last.Notation())
	}
	n := u.before[len(u.before)-1].clone()
	u.before, u.acts = u.before[:len(u.before)-1], u.acts[:len(u.acts)-1]
	n.Seq, n.TakenBack = cur.Seq+1, cur.TakenBack+1
	return n, []Verdict{{Kind: TakenBack, Seq: n.Seq, Seat: a.Seat, Detail: last.Notation() + " taken back"}}, nil
}
