package game

import "fmt"

// ReplayError is an impossible action met during a replay; the actions before it were applied.
type ReplayError struct {
	Index int // 0-based index of the action
	Err   error
}

func (e *ReplayError) Error() string { return fmt.Sprintf("action %d: %v", e.Index+1, e.Err) }
func (e *ReplayError) Unwrap() error { return e.Err }

// Replay applies actions in order and collects every verdict. It stops at the first impossible
// action, returning the state and verdicts up to it and a *ReplayError.
func Replay(s State, acts []Action) (State, []Verdict, error) {
	var all []Verdict
	for i, a := range acts {
		n, vs, err := Apply(s, a)
		if err != nil {
			return s, all, &ReplayError{Index: i, Err: err}
		}
		s = n
		all = append(all, vs...)
	}
	return s, all, nil
}
