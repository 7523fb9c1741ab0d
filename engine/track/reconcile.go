package track

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/tile"
)

// ErrUnreconciled is wrapped when the players say the racks are right as they are and no
// short run of legal acts takes the game to them: the error names what stays unexplained.
var ErrUnreconciled = errors.New("the racks cannot be reconciled with the game")

// Reconciling searches this many acts deep, keeping the reconcileBeam closest games at each
// depth: enough for a turn or two the sensors missed (a pick, a move, a discard, the next pick).
const (
	reconcileDepth = 8
	reconcileBeam  = 12
)

// reconcile takes the racks as the players say they are: it finds the shortest run of legal
// acts (game.LegalActions) after which every rack reads as the game expects, fewest faults
// first, and plays it. Each act must bring the racks closer (fewer tiles out of place). When no
// run from the game as recorded reaches them, the record holds an act the table never saw: the
// run may start from before the last acts played, fewest taken back first, and those are taken
// back. Camera reports the acts leave unused are dropped, since the players vouch for the table
// as it stands, and a Mah Jongg the players declared is judged where the run plays it. The
// camera reports a discard the run plays is still to bring are owed, as for an act entered by
// hand. When no such run exists, nothing is played and the error names every rack that stays
// unexplained and what the players can do.
func (t *Tracker) reconcile() ([]Step, error) {
	back, acts, err := t.findRun()
	if err != nil {
		t.debugf("racks said right: %v", err)
		return nil, err
	}
	var steps []Step
	for range back {
		st, err := t.takeBack("reconciled")
		if err != nil {
			return steps, fmt.Errorf("track: reconciling: %w", err) // findRun took it back: a bug
		}
		steps = append(steps, st)
	}
	for _, a := range acts {
		st, err := t.play(a, "reconciled")
		if err != nil {
			return steps, fmt.Errorf("track: reconciling: %w", err) // the search applied it: a bug
		}
		t.owe(a)
		steps = append(steps, st)
	}
	t.debugf("reconciled with %d acts taken back and %d played: %s", back, len(acts), notation(acts))
	t.seen, t.taken = nil, nil // reports the run leaves unexplained; its own later ones stay owed
	t.commands = slices.DeleteFunc(t.commands, func(c Command) bool {
		return c.Kind == CmdMahJongg && slices.ContainsFunc(acts, func(a game.Action) bool { return a.Act == game.ActMahJongg && a.Seat == c.Seat })
	})
	return steps, nil
}

// findRun is the run reconcile plays: the last back acts taken back (as few as may be), then
// acts. Two runs as good that end in different games are an error: the tracker does not guess.
func (t *Tracker) findRun() (back int, acts []game.Action, err error) {
	start, ok := t.outOfPlace(&t.state)
	if !ok {
		return 0, nil, fmt.Errorf("track: %w: %s", ErrUnreconciled, t.unreadable())
	}
	for back, from := 0, t.state; ; back++ {
		if back > 0 {
			if from, ok = t.undo.Before(back); !ok {
				break
			}
			if start, ok = t.outOfPlace(&from); !ok {
				break
			}
		}
		acts, other := t.searchActs(from, start)
		if other != nil {
			return 0, nil, fmt.Errorf("track: %w: the racks fit more than one run of acts (%s, or %s): enter the acts by hand", ErrUnreconciled, notation(acts), notation(other))
		}
		if acts != nil || start == 0 {
			return back, acts, nil
		}
	}
	return 0, nil, fmt.Errorf("track: %w: %s; put those tiles back as the game has them, or enter the acts by hand", ErrUnreconciled, t.unexplained(&t.state))
}

// reconcilePath is one run of acts the search is weighing.
type reconcilePath struct {
	state        game.State
	acts         []game.Action
	left, faults int
}

// searchActs is a beam search over legal acts from game from towards the racks'
// picture: nil when the game already matches or no run within reconcileDepth reaches it. other
// is a second run, as short and breaking as few rules, that ends in another game: the racks
// cannot tell them apart (a tile drawn and laid face up where no reader names it), and the
// tracker does not guess.
func (t *Tracker) searchActs(from game.State, start int) (acts, other []game.Action) {
	beam := []reconcilePath{{state: from, left: start}}
	for depth := 0; depth < reconcileDepth && len(beam) > 0; depth++ {
		var next []reconcilePath
		for _, p := range beam {
			for _, step := range t.reconcileSteps(&p.state) {
				n, faults, ok := applyAll(p.state, step)
				if !ok {
					continue
				}
				left, ok := t.outOfPlace(&n)
				if !ok || left >= p.left {
					continue
				}
				next = append(next, reconcilePath{state: n, acts: append(slices.Clone(p.acts), step...), left: left, faults: p.faults + faults})
			}
		}
		slices.SortStableFunc(next, func(a, b reconcilePath) int {
			if a.left != b.left {
				return a.left - b.left
			}
			return a.faults - b.faults
		})
		if len(next) > 0 && next[0].left == 0 {
			best, end := next[0], next[0].state.Digest()
			for _, p := range next[1:] {
				if p.left == 0 && p.faults == best.faults && p.state.Digest() != end {
					return best.acts, p.acts
				}
			}
			return best.acts, nil
		}
		beam = next[:min(len(next), reconcileBeam)]
	}
	return nil, nil
}

// reconcileSteps are the steps a search may take from game s: each legal act (none the players
// took back while the racks stay as they are: they said it never happened), and each
// Mah Jongg the players declared and the table has not judged, with the tiles gathered into the
// declared rack before it and, in the seat's turn to pick, the pick that completed the hand
// (one step: the pick and the gathering alone bring no rack closer while the hand lies face
// up on it).
func (t *Tracker) reconcileSteps(s *game.State) [][]game.Action {
	var steps [][]game.Action
	legal := game.LegalActions(s)
	for _, a := range legal {
		if !t.isRuledOut(a) {
			steps = append(steps, []game.Action{a})
		}
	}
	for _, c := range t.commands {
		if c.Kind != CmdMahJongg {
			continue
		}
		picks := [][]game.Action{nil}
		if s.Phase == game.PhaseDraw && s.Turn == c.Seat {
			for _, a := range legal {
				if a.Act == game.ActDraw && a.Seat == c.Seat && (c.Rack == 0 || a.Rack == c.Rack) {
					picks = append(picks, []game.Action{a})
				}
			}
		}
		for _, pick := range picks {
			picked, _, ok := applyAll(*s, pick)
			if !ok {
				continue
			}
			for _, thrown := range append([]tile.Face{tile.NoFace}, t.seenSince(c.At)...) {
				step := append(slices.Clone(pick), t.gatheredOn(&picked, c, thrown)...)
				steps = append(steps, append(step, declarationOn(&picked, c)...))
			}
		}
	}
	return steps
}

// applyAll plays acts on s: false when one cannot be played or is refused.
func applyAll(s game.State, acts []game.Action) (game.State, int, bool) {
	faults := 0
	for _, a := range acts {
		n, vs, err := game.Apply(s, a)
		if err != nil || game.OutcomeOf(vs) == game.NotApplied {
			return s, 0, false
		}
		s, faults = n, faults+faultCount(vs)
	}
	return s, faults, true
}

// outOfPlace counts the tiles the racks show out of place against state s: standing where the
// game has none, missing where it has them, lying on a rack beyond or short of its exposures.
// ok is false while a rack cannot be read.
func (t *Tracker) outOfPlace(s *game.State) (int, bool) {
	exp := expected(s)
	n := 0
	for seat := range exp {
		for r := 1; r <= 2; r++ {
			d := t.diff(exp, seat, r)
			if !d.readable {
				return 0, false
			}
			n += d.plus.Total() + d.minus.Total() + abs(d.onDelta) + d.onExtra.Total()
		}
	}
	return n, true
}

// unexplained names each rack that differs from state s.
func (t *Tracker) unexplained(s *game.State) string {
	exp := expected(s)
	var out []string
	for seat := range exp {
		for r := 1; r <= 2; r++ {
			d := t.diff(exp, seat, r)
			var what []string
			if n := d.plus.Total(); n > 0 {
				what = append(what, fmt.Sprintf("%v standing that the game does not have there", d.plus.Faces()))
			}
			if n := d.minus.Total(); n > 0 {
				what = append(what, fmt.Sprintf("%v missing", d.minus.Faces()))
			}
			if d.onDelta != 0 {
				what = append(what, fmt.Sprintf("%s lying on it %s its exposures", plural(abs(d.onDelta), "tile"), moreOrFewer(d.onDelta)))
			}
			if len(what) > 0 {
				out = append(out, fmt.Sprintf("seat %d rack %d: %s", seat, r, strings.Join(what, ", ")))
			}
		}
	}
	return strings.Join(out, "; ") + " (no run of legal acts explains it)"
}

// unreadable names the racks that cannot be read now.
func (t *Tracker) unreadable() string {
	exp := expected(&t.state)
	var out []string
	for seat := range exp {
		for r := 1; r <= 2; r++ {
			if d := t.diff(exp, seat, r); !d.readable {
				out = append(out, fmt.Sprintf("seat %d rack %d: %s", seat, r, d.problem))
			}
		}
	}
	return strings.Join(out, "; ") + ": wait until every rack reads, then say so again"
}

// notation writes acts one after another, in game.Action.Notation.
func notation(acts []game.Action) string {
	out := make([]string, len(acts))
	for i, a := range acts {
		out[i] = a.Notation()
	}
	return strings.Join(out, "; ")
}

func faultCount(vs []game.Verdict) int {
	n := 0
	for _, v := range vs {
		if v.Faulty() {
			n++
		}
	}
	return n
}
