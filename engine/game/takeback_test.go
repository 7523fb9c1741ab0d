package game

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestTakenBackActsLeaveTheGameAsIfNeverPlayed: a log with acts that never happened, each
// followed by its take_back (one or two at a time, legal or breaking a rule), replays to the
// game and verdicts of the log without them: the same racks, wall, discards and warnings, the
// verdicts of the acts taken back gone. Only Seq (a line of the log) and TakenBack differ.
func TestTakenBackActsLeaveTheGameAsIfNeverPlayed(t *testing.T) {
	games := 20
	if fewerGames() {
		games = 4
	}
	spliced := 0
	for _, spec := range allRulesets {
		r := loadRules(t, spec)
		c := cardFor(t, r)
		rng := rand.New(rand.NewPCG(25, uint64(len(spec))))
		for g := 0; g < games; g++ {
			log := randomGame(t, rng, r, c, func(State, State, Action) {})
			want, wantVs, err := Replay(New(r, c), log)
			if err != nil {
				t.Fatal(err)
			}
			var withWrong []Action
			s := New(r, c)
			for i, a := range log {
				if i < len(log)-1 && rng.IntN(8) == 0 {
					wrong := wrongActs(rng, s, 1+rng.IntN(2))
					withWrong = append(withWrong, wrong...)
					for j := len(wrong) - 1; j >= 0; j-- {
						withWrong = append(withWrong, Action{Seat: wrong[j].Seat, Act: ActTakeBack})
					}
					spliced += len(wrong)
				}
				withWrong = append(withWrong, a)
				s, _, _ = Apply(s, a)
			}
			got, gotVs, err := Replay(New(r, c), withWrong)
			if err != nil {
				t.Fatalf("%s game %d: %v", spec, g, err)
			}
			if got.Seq != len(withWrong) || got.Seq-2*got.TakenBack != want.Seq {
				t.Fatalf("%s game %d: seq %d with %d taken back, want %d lines and %d acts in effect", spec, g, got.Seq, got.TakenBack, len(withWrong), want.Seq)
			}
			if a, b := withoutLines(got).Digest(), withoutLines(want).Digest(); a != b {
				t.Fatalf("%s game %d: the game with acts taken back differs from the game without them", spec, g)
			}
			if a, b := verdictsWithoutLines(gotVs), verdictsWithoutLines(wantVs); a != b {
				t.Fatalf("%s game %d: verdicts differ:\n got %s\nwant %s", spec, g, a, b)
			}
		}
	}
	if spliced == 0 {
		t.Fatal("no act was taken back: the test tests nothing")
	}
	t.Logf("%d acts taken back", spliced)
}

// wrongActs plays up to n acts on s that Apply accepts (legal ones, or breaking a rule) and
// that leave the game going.
func wrongActs(rng *rand.Rand, s State, n int) []Action {
	var out []Action
	for tries := 0; len(out) < n && tries < 20; tries++ {
		var a Action
		if acts := LegalActions(&s); len(acts) > 0 && rng.IntN(2) == 0 {
			a = acts[rng.IntN(len(acts))]
		} else {
			a = randomFault(rng, &s)
		}
		next, _, err := Apply(s, a)
		if err != nil || next.Phase == PhaseOver {
			continue
		}
		s, out = next, append(out, a)
	}
	return out
}

// withoutLines is s without its log line numbers: Seq, TakenBack and each warning's Seq.
func withoutLines(s State) State {
	s.Seq, s.TakenBack = 0, 0
	s.Warnings = slices.Clone(s.Warnings)
	for i := range s.Warnings {
		s.Warnings[i].Seq = 0
	}
	return s
}

// verdictsWithoutLines is vs as JSON, take_backs' verdicts and line numbers left out.
func verdictsWithoutLines(vs []Verdict) string {
	var out []Verdict
	for _, v := range vs {
		if v.Kind != TakenBack {
			v.Seq = 0
			out = append(out, v)
		}
	}
	b, _ := json.Marshal(out)
	return string(b)
}

func TestTakeBackRefusesWhatItCannotTakeBack(t *testing.T) {
	r := loadRules(t, "siamese")
	c := cardFor(t, r)
	log := randomGame(t, rand.New(rand.NewPCG(3, 3)), r, c, func(State, State, Action) {})
	for _, tc := range []struct {
		name string
		log  []Action
		want string
	}{
		{"nothing played", []Action{{Seat: 0, Act: ActTakeBack}}, "no act to take back"},
		{"more than was played", append(slices.Clone(log[:1]), Action{Seat: log[0].Seat, Act: ActTakeBack}, Action{Seat: 0, Act: ActTakeBack}), "no act to take back"},
		{"another seat's act", append(slices.Clone(log[:1]), Action{Seat: (log[0].Seat + 1) % 4, Act: ActTakeBack}), "the last act in effect is seat"},
		{"the game over", append(slices.Clone(log), Action{Seat: 0, Act: ActTakeBack}), "the game is over"},
		{"with a tile", append(slices.Clone(log[:1]), Action{Seat: log[0].Seat, Act: ActTakeBack, Tiles: log[0].Tiles[:1]}), "takes only the seat"},
	} {
		_, _, err := Replay(New(r, c), tc.log)
		var re *ReplayError
		if !errors.As(err, &re) || re.Index != len(tc.log)-1 || !errors.Is(err, ErrImpossible) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an impossible act at the last line saying %q", tc.name, err, tc.want)
		}
	}
	if _, _, err := Apply(New(r, c), Action{Seat: 0, Act: ActTakeBack}); !errors.Is(err, ErrImpossible) || !strings.Contains(err.Error(), "Undo") {
		t.Errorf("Apply of a take_back: %v, want it refused, naming Undo", err)
	}
}

// TestUndoKeepsItsLimit: the live table keeps the last few acts; older ones cannot be taken
// back, and taking back all it keeps says there is nothing more.
func TestUndoKeepsItsLimit(t *testing.T) {
	r := loadRules(t, "siamese")
	c := cardFor(t, r)
	log := randomGame(t, rand.New(rand.NewPCG(4, 4)), r, c, func(State, State, Action) {})
	u := NewUndo(3)
	s := New(r, c)
	var states []State
	for _, a := range log[:10] {
		states = append(states, s)
		u.Played(s, a)
		s, _, _ = Apply(s, a)
	}
	if u.Depth() != 3 {
		t.Fatalf("depth %d after 10 acts, want the limit 3", u.Depth())
	}
	for i := 9; i >= 7; i-- {
		n, vs, err := u.TakeBack(s, Action{Seat: log[i].Seat, Act: ActTakeBack})
		if err != nil {
			t.Fatalf("taking back act %d: %v", i+1, err)
		}
		if withoutLines(n).Digest() != withoutLines(states[i]).Digest() || len(vs) != 1 || vs[0].Kind != TakenBack || vs[0].Seq != s.Seq+1 {
			t.Fatalf("taking back act %d: not the game before it, or verdicts %+v", i+1, vs)
		}
		s = n
	}
	if _, _, err := u.TakeBack(s, Action{Seat: log[6].Seat, Act: ActTakeBack}); !errors.Is(err, ErrNothingToTakeBack) {
		t.Fatalf("taking back past the limit: %v, want ErrNothingToTakeBack", err)
	}
}
