package game

import (
	"fmt"
	"slices"
)

// ReplayError is an impossible action met during a replay; the actions before it were applied.
type ReplayError struct {
	Index int // 0-based index of the action
	Err   error
}

func (e *ReplayError) Error() string { return fmt.Sprintf("action %d: %v", e.Index+1, e.Err) }
func (e *ReplayError) Unwrap() error { return e.Err }

// Replay applies actions in order and collects the verdicts of the acts in effect: a take_back
// drops its act's verdicts and adds its own. It stops at the first impossible action,
// returning the state and verdicts up to it and a *ReplayError.
func Replay(s State, acts []Action) (State, []Verdict, error) {
	s, vs, _, err := ReplayUndo(s, acts, 0)
	return s, vs, err
}

// ReplayUndo is Replay that also returns the states before the last keep acts in effect, so
// the game it resumes can take them back. It keeps as many more as the log takes back: a
// take_back never reaches further back than that (each one beyond the ring's first filling
// pops one of the acts kept since).
func ReplayUndo(s State, acts []Action, keep int) (State, []Verdict, *Undo, error) {
	takeBacks := 0
	for _, a := range acts {
		if a.Act == ActTakeBack {
			takeBacks++
		}
	}
	var all []Verdict
	undo := NewUndo(keep + takeBacks)
	for i, a := range acts {
		var n State
		var vs []Verdict
		var err error
		if a.Act == ActTakeBack {
			taken := -1 // the log line of the act taken back
			if before, ok := undo.Before(1); ok {
				taken = before.Seq + 1
			}
			if n, vs, err = undo.TakeBack(s, a); err == nil {
				all = slices.DeleteFunc(all, func(v Verdict) bool { return v.Seq == taken })
			}
		} else if n, vs, err = Apply(s, a); err == nil {
			undo.Played(s, a)
		}
		if err != nil {
			return s, all, undo, &ReplayError{Index: i, Err: err}
		}
		s = n
		all = append(all, vs...)
	}
	return s, all, undo, nil
}
