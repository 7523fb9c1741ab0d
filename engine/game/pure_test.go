package game

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/siamesetable/siamesed/engine/tile"
)

// TestApplyNeverChangesItsInput: the purity promise, tested so it can fail. Before every act of
// many random games (legal, faulty and impossible ones) the state is deep-copied by reflection;
// after Apply, the state given must still equal its copy, and so must the copy of the new state
// after a further act is applied to it. A shared slice between states (a missing clone) shows
// here as the old state changing when the new one is played on.
func TestApplyNeverChangesItsInput(t *testing.T) {
	games := 60
	if fewerGames() {
		games = 10
	}
	for _, spec := range allRulesets {
		r := loadRules(t, spec)
		c := cardFor(t, r)
		rng := rand.New(rand.NewPCG(3, uint64(len(spec))))
		for g := 0; g < games; g++ {
			var before, prev, prevCopy State
			havePrev := false
			pre := func(s State, a Action) {
				if havePrev && !reflect.DeepEqual(prev, prevCopy) {
					t.Fatalf("%s game %d: an act on the next state changed the one before it", spec, g)
				}
				before = copyState(s)
			}
			playLegalWith(t, rng, r, c, 0.05, pre, func(st step) {
				if !reflect.DeepEqual(st.before, before) {
					t.Fatalf("%s game %d: Apply(%v) changed the state it was given", spec, g, st.act)
				}
				if st.err == nil {
					prev, prevCopy, havePrev = st.before, before, true
				}
			})
		}
	}
}

// TestPublicViewShowsNoConcealedTile walks every state of thousands of random games and proves
// the public view cannot depend on a concealed tile: the same state with every rack's concealed
// tiles replaced by other tiles (the same number in each rack) must give the identical public
// view, byte for byte as JSON. Every seat's own view, by contrast, must change with its tiles.
func TestPublicViewShowsNoConcealedTile(t *testing.T) {
	games := 200 // per ruleset: 1,200 games, some 170,000 states
	if fewerGames() {
		games = 20
	}
	states := 0
	for _, spec := range allRulesets {
		r := loadRules(t, spec)
		c := cardFor(t, r)
		rng := rand.New(rand.NewPCG(5, uint64(len(spec))))
		for g := 0; g < games; g++ {
			playLegal(t, rng, r, c, 0.03, func(st step) {
				if st.err != nil {
					return
				}
				states++
				s := st.after
				other := withOtherConcealed(rng, s)
				a, b := s.PublicView(), other.PublicView()
				if !reflect.DeepEqual(a, b) {
					t.Fatalf("%s game %d seq %d: the public view depends on concealed tiles", spec, g, s.Seq)
				}
				if states%16 != 0 {
					return
				}
				// On a sample: the JSON, a function of the view, is the same too; and each seat's
				// own view does change with its tiles (so the check above can tell).
				ja, _ := json.Marshal(a)
				jb, _ := json.Marshal(b)
				if string(ja) != string(jb) {
					t.Fatalf("%s game %d seq %d: public JSON differs:\n%s\n%s", spec, g, s.Seq, ja, jb)
				}
				for seat := range s.Seats {
					if s.Seats[seat].Racks[0].Concealed != other.Seats[seat].Racks[0].Concealed &&
						reflect.DeepEqual(s.SeatView(seat), other.SeatView(seat)) {
						t.Fatalf("%s game %d: seat %d's own view does not show its tiles", spec, g, seat)
					}
				}
			})
		}
	}
	if states < 10*games*len(allRulesets) {
		t.Fatalf("walked only %d states", states)
	}
	t.Logf("%d states, no concealed tile in any public view", states)
}

// withOtherConcealed returns s with every rack's concealed tiles replaced by random tiles, as
// many as before in each rack.
func withOtherConcealed(rng *rand.Rand, s State) State {
	n := s.clone()
	for i := range n.Seats {
		for r := range n.Seats[i].Racks {
			rk := &n.Seats[i].Racks[r]
			k := rk.Concealed.Total()
			rk.Concealed = tile.Counts{}
			for j := 0; j < k; j++ {
				rk.Concealed[tile.Face(rng.IntN(int(tile.NumFaces)))]++
			}
		}
	}
	return n
}

// TestViewTypesHoldNoCounts: the public view's types contain no tile.Counts anywhere, so no
// field can carry a rack's concealed tiles.
func TestViewTypesHoldNoCounts(t *testing.T) {
	counts := reflect.TypeFor[tile.Counts]()
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type, string)
	walk = func(ty reflect.Type, path string) {
		if seen[ty] {
			return
		}
		seen[ty] = true
		if ty == counts {
			t.Errorf("PublicView holds tile.Counts at %s", path)
		}
		switch ty.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array:
			walk(ty.Elem(), path+"[]")
		case reflect.Map:
			walk(ty.Key(), path+"{key}")
			walk(ty.Elem(), path+"{}")
		case reflect.Struct:
			for i := 0; i < ty.NumField(); i++ {
				walk(ty.Field(i).Type, path+"."+ty.Field(i).Name)
			}
		}
	}
	walk(reflect.TypeFor[PublicView](), "PublicView")
	if len(seen) < 8 {
		t.Fatalf("walked only %d types", len(seen))
	}
}
