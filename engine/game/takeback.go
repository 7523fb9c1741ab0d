package game

import (
	"errors"
	"fmt"
)

// ErrNothingToTakeBack is wrapped by a take_back with no act in effect before it that it may
// take back: none at all, or none within what an Undo keeps.
var ErrNothingToTakeBack = errors.New("no act to take back")

// TakeBackDepth is how many of its last acts a live table keeps to take back: enough to reach
// past several turns played on top of an act the table never saw (real-rack soak seed 60 went
// back seven), few enough that the players' "racks are right" searches stay quick. A journal's
// replay keeps as many for the game it resumes.
const TakeBackDepth = 12

// Undo keeps the states before a game's last acts in effect, so the players can take back an
// act the referee recorded but the table never saw: the sensors misread, the record went
// wrong, and no act played on top of it can put it right. It keeps a set number of acts, in a
// ring: the live table keeps its last few, and Replay as many as the log takes back.
type Undo struct {
	ring  []undone
	start int // the oldest act kept
	n     int // acts kept
}

// undone is one act kept, with the game before it.
type undone struct {
	before State
	act    Action
}

// NewUndo keeps the last limit acts.
func NewUndo(limit int) *Undo { return &Undo{ring: make([]undone, max(limit, 0))} }

// Played records act a, played on before (applied or refused: a refused act leaves its
// warning, which taking it back removes), dropping the oldest act kept when full.
func (u *Undo) Played(before State, a Action) {
	if len(u.ring) == 0 {
		return
	}
	if u.n == len(u.ring) {
		u.start, u.n = (u.start+1)%len(u.ring), u.n-1
	}
	u.ring[(u.start+u.n)%len(u.ring)] = undone{before, a}
	u.n++
}

// at is the k-th last act kept (k from 1 to Depth).
func (u *Undo) at(k int) undone { return u.ring[(u.start+u.n-k)%len(u.ring)] }

// Depth is how many acts may be taken back now.
func (u *Undo) Depth() int { return u.n }

// Last is the act a take_back would take back now.
func (u *Undo) Last() (Action, bool) {
	if u.n == 0 {
		return Action{}, false
	}
	return u.at(1).act, true
}

// Before is the game before the k-th last act in effect (k from 1 to Depth).
func (u *Undo) Before(k int) (State, bool) {
	if k < 1 || k > u.n {
		return State{}, false
	}
	return u.at(k).before, true
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
	n := u.at(1).before.clone()
	u.ring[(u.start+u.n-1)%len(u.ring)] = undone{} // let the state go
	u.n--
	n.Seq, n.TakenBack = cur.Seq+1, cur.TakenBack+1
	return n, []Verdict{{Kind: TakenBack, Seq: n.Seq, Seat: a.Seat, Detail: last.Notation() + " taken back"}}, nil
}
