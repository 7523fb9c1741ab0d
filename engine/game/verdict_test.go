package game

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/siamesetable/siamesed/engine/card"
	"github.com/siamesetable/siamesed/engine/tile"
)

// fourAtTable deals a royale-4 table (claim priority as given) where East has discarded 1B and
// seats 1, 2 and 3 each hold a pair of 1B in rack 1.
func fourAtTable(t *testing.T, priority string) State {
	t.Helper()
	r := *loadRules(t, "royale-4")
	r.ClaimPriority = priority
	s := New(&r, loadCard(t))
	hands := [][]string{
		{"1B 9C 9C 9C 9C 9C 9C 9C 9C 9D 9D 9D 9D 9D", "9D 9D 9D 8D 8D 8D 8D 8D 8D 8D 8D 7D 7D 7D"},
		{"1B 1B 7D 7D 7D 7D 7D 6D 6D 6D 6D 6D 6D", "6D 6D 8C 8C 8C 8C 8C 8C 8C 8C 7C 7C 7C 7C"},
		{"1B 1B 7C 7C 7C 7C 6C 6C 6C 6C 6C 6C 6C", "6C 5C 5C 5C 5C 5C 5C 5C 5C 4C 4C 4C 4C 4C"},
		{"1B 1B 4C 4C 4C 3C 3C 3C 3C 3C 3C 3C 3C", "2C 2C 2C 2C 2C 2C 2C 2C 1C 1C 1C 1C 1C 1C"},
	}
	for seat, racks := range hands {
		for r, tiles := range racks {
			s = mustApply(t, s, Action{Seat: seat, Act: ActDeal, Tiles: mustFaces(t, tiles), Rack: r + 1})
		}
	}
	return mustApply(t, s, Action{Seat: 0, Act: ActDiscard, Tiles: mustFaces(t, "1B"), Rack: 1})
}

func mustApply(t *testing.T, s State, a Action) State {
	t.Helper()
	n, _, err := Apply(s, a)
	if err != nil {
		t.Fatalf("%v: %v", a, err)
	}
	return n
}

// TestClaimPriority: whose claim on one discard has priority, per ruleset option. Seat 1 is
// closest to East (the discarder), then 2, then 3.
func TestClaimPriority(t *testing.T) {
	call := func(seat int, forMJ, both bool, rivals ...Rival) Action {
		a := Action{Seat: seat, Act: ActCall, Tiles: mustFaces(t, "1B 1B 1B"), Rack: 1, Rivals: rivals, Both: both}
		if forMJ {
			a.For, a.Tiles = "mahjong", mustFaces(t, "1B")
		}
		return a
	}
	exposure := func(seat int) Rival { return Rival{Seat: seat} }
	mahjong := func(seat int) Rival { return Rival{Seat: seat, For: "mahjong"} }
	double := func(seat int) Rival { return Rival{Seat: seat, For: "mahjong", Both: true} }
	for _, c := range []struct {
		name, priority string
		act            Action
		wrong          bool // the call beat a rival with priority
	}{
		{"closest: nearer exposure beats farther Mah Jongg", "closest", call(1, false, false, mahjong(2)), false},
		{"closest: farther Mah Jongg beat nearer exposure", "closest", call(2, true, false, exposure(1)), true},
		{"closest: farther exposure beat nearer", "closest", call(3, false, false, exposure(1)), true},
		{"mahjong first: farther Mah Jongg beats nearer exposure", "mahjong_then_closest", call(2, true, false, exposure(1)), false},
		{"mahjong first: exposure beat a Mah Jongg", "mahjong_then_closest", call(1, false, false, mahjong(3)), true},
		{"mahjong first: two Mah Jonggs, the nearer wins", "mahjong_then_closest", call(1, true, false, mahjong(2)), false},
		{"mahjong first: two Mah Jonggs, the farther beat the nearer", "mahjong_then_closest", call(3, true, false, mahjong(2)), true},
		{"double first: farther double beats nearer single", "double_then_closest", call(3, true, true, mahjong(1)), false},
		{"double first: single beat a farther double", "double_then_closest", call(1, true, false, double(3)), true},
		{"double first: two singles, the farther beat the nearer", "double_then_closest", call(2, true, false, mahjong(1)), true},
		{"double first: a plain Mah Jongg claim does not outrank an exposure", "double_then_closest", call(2, true, false, exposure(1)), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, vs, err := Apply(fourAtTable(t, c.priority), c.act)
			if err != nil {
				t.Fatal(err)
			}
			got := false
			for _, v := range vs {
				if v.Kind == Infraction && strings.HasSuffix(v.Rule, "claim-priority") {
					got = true
				}
			}
			if got != c.wrong {
				t.Fatalf("claim-priority infraction %v, want %v: %v", got, c.wrong, vs)
			}
			if OutcomeOf(vs) == NotApplied {
				t.Fatalf("a call that happened was refused: %v", vs)
			}
		})
	}
}

// TestMahJonggRackHoldsOnly14: Royale 12 "must hold only 14 tiles" holds both ways. A Mah Jongg
// rack left with fewer (no act of a log can do it, but a state mended by hand can) kills the
// seat's other rack as surely as one with more.
func TestMahJonggRackHoldsOnly14(t *testing.T) {
	sc := readScenario(t, "testdata/scenarios/royale-4-12-mahjong-rack-holds-14.jsonl")
	s, _, err := Replay(sc.start, sc.log.Actions[:14]) // East has declared on rack 1, still in its turn
	if err != nil {
		t.Fatal(err)
	}
	if s.Seats[0].Racks[0].MahJongg == nil || s.Turn != 0 || s.Phase != PhaseDiscard {
		t.Fatalf("not at East's declared Mah Jongg: turn %d %s", s.Turn, s.Phase)
	}
	for _, n := range []int{13, 14, 15} {
		t.Run(map[int]string{13: "too few", 14: "exactly", 15: "too many"}[n], func(t *testing.T) {
			m := s.clone()
			rk := &m.Seats[0].Racks[0]
			mj := append([]tile.Face(nil), rk.Exposures[len(rk.Exposures)-1].Tiles...)
			other := &m.Seats[0].Racks[1].Concealed
			switch n {
			case 13: // one tile of the Mah Jongg slips back into the other rack
				other[mj[0]]++
				rk.Exposures[len(rk.Exposures)-1].Tiles = mj[1:]
			case 15:
				f := other.Faces()[0]
				other[f]--
				rk.Concealed[f]++
			}
			next := mustApply(t, m, Action{Seat: 0, Act: ActDiscard, Tiles: []tile.Face{m.Seats[0].Racks[1].Concealed.Faces()[0]}, Rack: 2})
			dead := next.Seats[0].Racks[1].Dead != ""
			if dead != (n != 14) {
				t.Fatalf("rack 1 holds %d: other rack dead %v (%q)", n, dead, next.Seats[0].Racks[1].Dead)
			}
		})
	}
}

// TestOutcomeOf: what happened to an act, from its verdicts, never from their text.
func TestOutcomeOf(t *testing.T) {
	for _, c := range []struct {
		kinds []Kind
		want  Outcome
	}{
		{[]Kind{Legal}, Applied},
		{[]Kind{MahJonggOK, Penalty, GameOver}, Applied},
		{[]Kind{DeadHand}, Applied}, // an exposure that fits no hand: a consequence, not a fault
		{[]Kind{Infraction, DeadHand, DeadHand}, AppliedInfraction},
		{[]Kind{MahJonggBad}, AppliedInfraction},
		{[]Kind{Misdeal, GameOver}, AppliedInfraction},
		{[]Kind{Infraction, Refused}, NotApplied},
		{[]Kind{Refused}, NotApplied},
	} {
		var vs []Verdict
		for _, k := range c.kinds {
			vs = append(vs, Verdict{Kind: k})
		}
		if got := OutcomeOf(vs); got != c.want {
			t.Errorf("OutcomeOf(%v) = %s, want %s", c.kinds, got, c.want)
		}
		if HasFaults(vs) != (c.want != Applied) {
			t.Errorf("HasFaults(%v) = %v", c.kinds, HasFaults(vs))
		}
	}
}

// TestRefusedActsLeaveTheTable: a refused act changes nothing but the sequence number.
func TestRefusedActsLeaveTheTable(t *testing.T) {
	sc := readScenario(t, "testdata/scenarios/siamese-9-joker-from-mahjong.jsonl")
	s := sc.start
	refused := 0
	for _, a := range sc.log.Actions {
		n, vs, err := Apply(s, a)
		if err != nil {
			t.Fatal(err)
		}
		if OutcomeOf(vs) == NotApplied {
			refused++
			n.Seq, n.Warnings = s.Seq, s.Warnings
			if !deepEqualStates(s, n) {
				t.Fatalf("refused %v changed the table", a)
			}
		}
		s = n
	}
	if refused == 0 {
		t.Fatal("the scenario refused nothing")
	}
}

func deepEqualStates(a, b State) bool { return stateKey(a) == stateKey(b) }

func stateKey(s State) string {
	var b strings.Builder
	for _, st := range s.Seats {
		for _, rk := range st.Racks {
			b.WriteString(rk.Concealed.String() + "|")
			for _, e := range rk.Exposures {
				b.WriteString(tile.Format(e.Tiles) + ";")
			}
		}
	}
	b.WriteString(tile.Format(s.Discards))
	return b.String()
}

func TestHeaderCheckNamesBothCards(t *testing.T) {
	c, data := loadCardData(t)
	r := loadRules(t, "siamese")
	h := NewHeader(r, c, data, []string{"Ann"})
	if err := h.Check(r, c, data); err != nil {
		t.Fatalf("the card the header was made from: %v", err)
	}
	if h.Seats[0].Name != "Ann" || h.Seats[1].Name != "seat 1" {
		t.Fatalf("seats %v", h.Seats)
	}
	other, err := os.ReadFile("../../configs/cards/example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	oc, err := card.Parse("example.yaml", other)
	if err != nil {
		t.Fatal(err)
	}
	err = h.Check(r, oc, other)
	if !errors.Is(err, ErrCardMismatch) || !strings.Contains(err.Error(), `"Scenario Card"`) || !strings.Contains(err.Error(), oc.Name) {
		t.Fatalf("err = %v, want a card mismatch naming both cards", err)
	}
	// Same name and year, other bytes: still a mismatch.
	if err := h.Check(r, c, append(data, '\n')); !errors.Is(err, ErrCardMismatch) {
		t.Fatalf("a changed card file passed: %v", err)
	}
	if err := h.Check(loadRules(t, "siamese-masters"), c, data); err == nil {
		t.Fatal("other rules passed")
	}
}
