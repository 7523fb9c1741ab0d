package card

// An independent, brute-force reference for the matcher, written from docs/card-language.md and
// not from the matcher's code. It reads the card YAML itself, parses the notation itself
// (oracle_expand_test.go), expands every pattern into concrete hands by trying every choice of
// alternative, suit assignment, base X, wind and dragon, and decides:
//
//   - a match by backtracking: every concealed tile goes to one free slot of the concrete hand,
//     a slot taking its own face, or a joker when its group is three or more identical tiles
//     (flower groups only when the card's flower_jokers allows); every exposure must be one
//     whole group of the hand; a concealed hand never matches a rack with exposures;
//   - tiles-away by maximum bipartite matching of the held tiles to the slots left after the
//     exposures, minimised over concrete hands and over the ways to seat the exposures.
//
// Random racks, biased to be interesting, then compare Card.Match, Card.Possible and Card.Away
// with the oracle. The seed is fixed so that a failure reproduces.

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/internal/race"
)

const oracleCardPath = "../../configs/cards/example.yaml"

// oGroup is one concrete group of an oracle hand.
type oGroup struct {
	tiles []tile.Face
	jok   bool // three or more identical tiles (and, for flowers, the card allows it)
}

// oVariant is one concrete way to make a hand.
type oVariant struct {
	groups []oGroup
	faces  uint64 // the faces it uses (a cheap necessary condition for a match)
}

// oHand is an oracle's view of one printed hand.
type oHand struct {
	id        string
	value     int
	concealed bool
	variants  []oVariant
}

// oCard is the oracle's view of a card file.
type oCard struct {
	jokers oJokers
	hands  []oHand
}

// yamlCard is the card file as the spec describes it; the oracle reads it itself.
type yamlCard struct {
	Name         string     `yaml:"name"`
	Year         int        `yaml:"year"`
	FlowerJokers *bool      `yaml:"flower_jokers"`
	Jokers       *bool      `yaml:"jokers"`
	Hands        []yamlHand `yaml:"hands"`
}

type yamlHand struct {
	Section   string      `yaml:"section"`
	ID        string      `yaml:"id"`
	Pattern   string      `yaml:"pattern"`
	Patterns  []yaml.Node `yaml:"patterns"`
	Value     string      `yaml:"value"`
	Concealed bool        `yaml:"concealed"`
	X         yaml.Node   `yaml:"x"`
	Note      string      `yaml:"note"`
}

// oracleXs reads x: odd, even or a list; nil means any base.
func oracleXs(t testing.TB, n yaml.Node) []int {
	switch {
	case n.Kind == 0:
		return nil
	case n.Kind == yaml.ScalarNode && n.Value == "odd":
		return []int{1, 3, 5, 7, 9}
	case n.Kind == yaml.ScalarNode && n.Value == "even":
		return []int{2, 4, 6, 8}
	case n.Kind == yaml.SequenceNode:
		var xs []int
		for _, e := range n.Content {
			v, err := strconv.Atoi(e.Value)
			if err != nil {
				t.Fatalf("oracle: x: %v", err)
			}
			xs = append(xs, v)
		}
		return xs
	}
	t.Fatalf("oracle: cannot read x: %q", n.Value)
	return nil
}

// oracleValue reads a hand's value: points, or single-, double-, triple-limit as 1, 2, 3.
func oracleValue(t testing.TB, s string) int {
	for i, l := range []string{"single-limit", "double-limit", "triple-limit"} {
		if s == l {
			return i + 1
		}
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("oracle: cannot read value %q", s)
	}
	return n
}

// loadOracle reads a card file into the oracle's own model.
func loadOracle(t testing.TB, path string) *oCard {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var yc yamlCard
	if err := yaml.Unmarshal(data, &yc); err != nil {
		t.Fatal(err)
	}
	none := yc.Jokers != nil && !*yc.Jokers
	oc := &oCard{jokers: oJokers{flowers: (yc.FlowerJokers == nil || *yc.FlowerJokers) && !none, none: none}}
	perSection := map[string]int{}
	for _, yh := range yc.Hands {
		perSection[yh.Section]++
		h := oHand{id: yh.ID, value: oracleValue(t, yh.Value), concealed: yh.Concealed}
		if h.id == "" {
			h.id = fmt.Sprintf("%s-%d", yh.Section, perSection[yh.Section])
		}
		handXs := oracleXs(t, yh.X)
		if yh.Pattern != "" {
			h.variants = append(h.variants, oracleExpand(t, yh.Pattern, handXs, oc.jokers)...)
		}
		for _, pn := range yh.Patterns {
			// A pattern is a string, or {pattern: "...", x: ...} whose x: replaces the hand's.
			text, xs := pn.Value, handXs
			if pn.Kind == yaml.MappingNode {
				var own struct {
					Pattern string    `yaml:"pattern"`
					X       yaml.Node `yaml:"x"`
				}
				if err := pn.Decode(&own); err != nil {
					t.Fatal(err)
				}
				text = own.Pattern
				if own.X.Kind != 0 {
					xs = oracleXs(t, own.X)
				}
			}
			h.variants = append(h.variants, oracleExpand(t, text, xs, oc.jokers)...)
		}
		if len(h.variants) == 0 {
			t.Fatalf("oracle: hand %s has no variant", h.id)
		}
		oc.hands = append(oc.hands, h)
	}
	return oc
}

// exposureIs reports whether an exposure is exactly this group: the same tiles, where a joker
// may stand for a tile only in a group of three or more identical tiles.
func (g oGroup) exposureIs(e Exposure) bool {
	if len(e) != len(g.tiles) {
		return false
	}
	rest := slices.Clone(g.tiles)
	for _, f := range e {
		i := slices.Index(rest, f)
		if i < 0 && f == tile.Joker && g.jok {
			i = 0 // any tile of an identical group
		}
		if i < 0 {
			return false
		}
		rest = slices.Delete(rest, i, i+1)
	}
	return true
}

// seatings calls f with every way to put each exposure on its own group of v (used[gi] true);
// f returns true to stop. It returns whether f stopped.
func (v *oVariant) seatings(exp []Exposure, used []bool, f func(used []bool) bool) bool {
	if len(exp) == 0 {
		return f(used)
	}
	for gi, g := range v.groups {
		if used[gi] || !g.exposureIs(exp[0]) {
			continue
		}
		used[gi] = true
		stop := v.seatings(exp[1:], used, f)
		used[gi] = false
		if stop {
			return true
		}
	}
	return false
}

// oSlot is one tile place of a concrete hand.
type oSlot struct {
	face tile.Face
	jok  bool
}

func (s oSlot) takes(f tile.Face) bool { return f == s.face || (f == tile.Joker && s.jok) }

func (v *oVariant) freeSlots(used []bool) []oSlot {
	var out []oSlot
	for gi, g := range v.groups {
		if used[gi] {
			continue
		}
		for _, f := range g.tiles {
			out = append(out, oSlot{f, g.jok})
		}
	}
	return out
}

// fill reports by backtracking whether tiles[i:] can each take a distinct free slot.
func oFill(tiles []tile.Face, i int, slots []oSlot, taken []bool) bool {
	if i == len(tiles) {
		return true
	}
	var tried []oSlot
	for si, s := range slots {
		if taken[si] || !s.takes(tiles[i]) || slices.Contains(tried, s) {
			continue
		}
		tried = append(tried, s) // equal slots are interchangeable: try one of them
		taken[si] = true
		ok := oFill(tiles, i+1, slots, taken)
		taken[si] = false
		if ok {
			return true
		}
	}
	return false
}

// oracleMatch returns the hands the rack completes and whether it holds no joker.
func (oc *oCard) oracleMatch(r Rack) (ids []string, jokerless bool) {
	conc := r.Concealed.Faces()
	n := len(conc)
	jokerless = r.Concealed[tile.Joker] == 0
	var natural uint64
	for _, f := range conc {
		if f != tile.Joker {
			natural |= 1 << f
		}
	}
	for _, e := range r.Exposed {
		n += len(e)
		for _, f := range e {
			jokerless = jokerless && f != tile.Joker
			if f != tile.Joker {
				natural |= 1 << f
			}
		}
	}
	if n != 14 {
		return nil, jokerless
	}
	for _, h := range oc.hands {
		if h.concealed && len(r.Exposed) > 0 {
			continue
		}
		for vi := range h.variants {
			v := &h.variants[vi]
			if natural&^v.faces != 0 {
				continue
			}
			used := make([]bool, len(v.groups))
			if v.seatings(r.Exposed, used, func(used []bool) bool {
				slots := v.freeSlots(used)
				return len(slots) == len(conc) && oFill(conc, 0, slots, make([]bool, len(slots)))
			}) {
				ids = append(ids, h.id)
				break
			}
		}
	}
	return ids, jokerless
}

// oraclePossible returns the hands whose some concrete hand seats every exposure.
func (oc *oCard) oraclePossible(exp []Exposure) []string {
	var ids []string
	for _, h := range oc.hands {
		if h.concealed && len(exp) > 0 {
			continue
		}
		for vi := range h.variants {
			v := &h.variants[vi]
			if v.seatings(exp, make([]bool, len(v.groups)), func([]bool) bool { return true }) {
				ids = append(ids, h.id)
				break
			}
		}
	}
	return ids
}

// oMaxMatching is the largest number of held tiles that can each take a distinct slot
// (Kuhn's augmenting paths).
func oMaxMatching(held []tile.Face, slots []oSlot) int {
	owner := make([]int, len(slots))
	for i := range owner {
		owner[i] = -1
	}
	seen := make([]bool, len(slots))
	var try func(t int) bool
	try = func(t int) bool {
		for si, s := range slots {
			if seen[si] || !s.takes(held[t]) {
				continue
			}
			seen[si] = true
			if owner[si] < 0 || try(owner[si]) {
				owner[si] = t
				return true
			}
		}
		return false
	}
	n := 0
	for t := range held {
		clear(seen)
		if try(t) {
			n++
		}
	}
	return n
}

// awayOne is the tiles still missing for one concrete hand, -1 if the exposures do not seat.
func (v *oVariant) awayOne(held []tile.Face, exp []Exposure, pool []tile.Face) int {
	best := -1
	v.seatings(exp, make([]bool, len(v.groups)), func(used []bool) bool {
		slots := v.freeSlots(used)
		if pool != nil && oMaxMatching(pool, slots) < len(slots) {
			return false // some slot can never be filled: its tiles are dead
		}
		a := len(slots) - oMaxMatching(held, slots)
		if best < 0 || a < best {
			best = a
		}
		return best == 0
	})
	return best
}

// oracleAway returns, per hand the exposures allow, the fewest tiles away; hands ruled out are
// absent from the map. With dead tiles (nil: none), a hand counts only if the tiles the player
// could still ever hold (the American set less the dead tiles and the rack's exposures) can
// fill its free slots.
func (oc *oCard) oracleAway(concealed tile.Counts, exp []Exposure, dead *tile.Counts) map[string]int {
	// Only tiles a slot can take matter; dropping the rest keeps the matching small.
	all := concealed.Faces()
	var everHeld []tile.Face
	if dead != nil {
		left := tile.American().Count
		for f := range left {
			left[f] -= min(left[f], dead[f])
		}
		for _, e := range exp {
			for _, f := range e {
				left[f] -= min(left[f], 1)
			}
		}
		everHeld = left.Faces()
	}
	out := map[string]int{}
	for _, h := range oc.hands {
		if h.concealed && len(exp) > 0 {
			continue
		}
		best := -1
		for vi := range h.variants {
			v := &h.variants[vi]
			keep := func(fs []tile.Face) []tile.Face {
				if fs == nil {
					return nil
				}
				out := []tile.Face{}
				for _, f := range fs {
					if f == tile.Joker || v.faces&(1<<f) != 0 {
						out = append(out, f)
					}
				}
				return out
			}
			if a := v.awayOne(keep(all), exp, keep(everHeld)); a >= 0 && (best < 0 || a < best) {
				best = a
			}
		}
		if best >= 0 {
			out[h.id] = best
		}
	}
	return out
}

// stressCard is a card of the language's corner cases, for the same comparisons: flower groups
// twice in a hand (the League FAQ's "FFF 1111 FFF 2222"), suit letters used out of order, X
// offsets that start above 0, an x: list, a sextet, repeated rows and repeated pungs.
const stressCard = `name: Stress
year: 2026
flower_jokers: %v
hands:
  - section: Flowers
    pattern: "FFF 1111a FFF 2222a"
    value: 25
  - section: Letters
    patterns: ["1111a 2222c 3333b FF", "1111c 22a 22b 33c 3333a"]
    value: 25
  - section: Offsets
    pattern: "X1X2X3a XXX4a XXXX5b NNNN"
    value: 30
  - section: Offsets
    pattern: "XXX0a XXX3a XXXX6a FFFF"
    x: [2, 5, 1]
    value: 30
  - section: Sextet
    pattern: "FFFFFF XXXXXX0a XX1a"
    value: 50
  - section: Rows
    pattern: "NEWS NEWS NEWS FF"
    value: 60
    concealed: true
  - section: Rows
    pattern: "DDDa DDDa 11a 11b 11c FF"
    value: 30
  - section: Rows
    pattern: "000 0000 2026a 266b"
    value: 30
  - section: Rows
    pattern: "F 1a 2a 3a 4a 5a 6a 7a 8a 9a DDa DDb"
    value: 40
    concealed: true
  - section: Choices
    pattern: "2026a DDDa 2222b|6666b DDDb"
    value: 25
  - section: Choices
    pattern: "FF 1111a DDa|DDb|DDc 333b|555b|777b ZZZ"
    value: 30
  - section: Honours
    pattern: "FFF ZZZZ FFF DDDD"
    value: 25
  - section: Honours
    pattern: "ZZ DD ZZZ 11a 22a DDD"
    value: 30
  - section: Honours
    patterns: ["NNNN RRRR SSSS GG", "EEEE GGGG WWWW RR"]
    value: 35
  - section: Honours
    pattern: "ZN DG XX0aX1aX2a 0000 RR"
    value: 40
  - section: Spanning
    patterns:
      - {pattern: "NNN XXXX0a XXXX0b SSS", x: odd}
      - {pattern: "EEE XXXX0a XXXX0b WWW", x: even}
    value: 25
`

func writeStressCard(t *testing.T, flowerJokers bool) string {
	t.Helper()
	src := fmt.Sprintf(stressCard, flowerJokers)
	path := t.TempDir() + "/stress.yaml"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestOracleStressCard runs the match and tiles-away comparisons on the corner-case card, with
// flower jokers allowed and forbidden. Its later hands use the forms pasted from other card
// files: alternatives inside a group, Z, suitless D, literal R and G, a suit letter repeated
// inside a row, and a per-pattern x: tying odd numbers to N/S and even ones to E/W.
func TestOracleStressCard(t *testing.T) {
	t.Parallel()
	n, m := 20_000, 1000
	if quickOracle() {
		n, m = 1000, 80
	}
	for _, fj := range []bool{true, false} {
		t.Run(fmt.Sprintf("flower_jokers=%v", fj), func(t *testing.T) {
			path := writeStressCard(t, fj)
			compareMatch(t, path, n, 11, true)
			compareAway(t, path, m, 12, true)
		})
	}
}

// ---------------------------------------------------------------------------------------------
// Random racks.

func oRandFace(rng *rand.Rand) tile.Face { return tile.Face(rng.IntN(tile.NumFaces)) }

// oJokerise replaces each tile by a joker with probability p.
func oJokerise(rng *rand.Rand, fs []tile.Face, p float64) {
	for i := range fs {
		if rng.Float64() < p {
			fs[i] = tile.Joker
		}
	}
}

// exposureFrom lays a group as an exposure, each tile a joker with probability p. Unless
// allJokers, one tile stays natural, as in play, where an exposure is made by calling a natural
// discard.
func exposureFrom(rng *rand.Rand, g []tile.Face, p float64, allJokers bool) Exposure {
	if allJokers {
		p *= 2 // all-joker exposures are the point of such a run: make them common
	}
	e := Exposure(slices.Clone(g))
	oJokerise(rng, e, p)
	if !allJokers && !slices.ContainsFunc(e, func(f tile.Face) bool { return f != tile.Joker }) {
		e[rng.IntN(len(e))] = g[0]
	}
	return e
}

func identicalGroup(g oGroup) bool {
	if len(g.tiles) < 3 {
		return false
	}
	for _, f := range g.tiles {
		if f != g.tiles[0] {
			return false
		}
	}
	return true
}

// randomRack builds a rack biased to be interesting: a random concrete variant of a random
// hand, jokers in its pungs and kongs, or jokers anywhere (legal or not), sometimes a tile
// replaced by a random one, some identical groups laid as exposures (with jokers; all jokers
// only if allJokers), now and then a row exposed or a tile swapped between an exposure and the
// concealed tiles, sometimes a wrong count.
func randomRack(rng *rand.Rand, oc *oCard, allJokers bool) Rack {
	h := &oc.hands[rng.IntN(len(oc.hands))]
	v := &h.variants[rng.IntN(len(h.variants))]
	var r Rack
	var conc []tile.Face
	exposeP := 0.0
	if rng.IntN(3) == 0 {
		exposeP = 0.5
	}
	legalJokers := rng.IntN(2) == 0
	for _, g := range v.groups {
		switch {
		case identicalGroup(g) && rng.Float64() < exposeP:
			r.Exposed = append(r.Exposed, exposureFrom(rng, g.tiles, 0.3, allJokers))
		case !identicalGroup(g) && exposeP > 0 && rng.IntN(20) == 0:
			r.Exposed = append(r.Exposed, Exposure(slices.Clone(g.tiles))) // a row, as after Mah Jongg
		case identicalGroup(g) && legalJokers:
			e := slices.Clone(g.tiles)
			oJokerise(rng, e, 0.3)
			conc = append(conc, e...)
		default:
			conc = append(conc, g.tiles...)
		}
	}
	if !legalJokers && rng.IntN(2) == 0 {
		for k := 1 + rng.IntN(3); k > 0 && len(conc) > 0; k-- {
			conc[rng.IntN(len(conc))] = tile.Joker // anywhere: in a pair or single it is illegal
		}
	}
	if rng.IntN(6) == 0 && len(conc) > 0 {
		conc[rng.IntN(len(conc))] = oRandFace(rng)
	}
	if rng.IntN(10) == 0 && len(conc) > 0 && len(r.Exposed) > 0 {
		e := r.Exposed[rng.IntN(len(r.Exposed))]
		i, j := rng.IntN(len(e)), rng.IntN(len(conc))
		e[i], conc[j] = conc[j], e[i]
	}
	switch rng.IntN(25) {
	case 0:
		conc = append(conc, oRandFace(rng))
	case 1:
		if len(conc) > 0 {
			conc = conc[1:]
		}
	}
	c, err := tile.CountsOf(conc)
	if err != nil {
		panic(err)
	}
	r.Concealed = c
	return r
}

func oRackString(r Rack) string {
	var b strings.Builder
	fmt.Fprintf(&b, "concealed [%v]", r.Concealed)
	for _, e := range r.Exposed {
		fmt.Fprintf(&b, " exposed [%s]", tile.Format(e))
	}
	return b.String()
}

// TestOracleLoadsSameCard checks that the oracle and the loader agree on the card itself.
func TestOracleLoadsSameCard(t *testing.T) {
	c, err := Load(oracleCardPath)
	if err != nil {
		t.Fatal(err)
	}
	oc := loadOracle(t, oracleCardPath)
	if len(c.Hands) != len(oc.hands) {
		t.Fatalf("loader has %d hands, oracle %d", len(c.Hands), len(oc.hands))
	}
	for i, h := range c.Hands {
		if h.ID != oc.hands[i].id || h.Value != oc.hands[i].value || h.Concealed != oc.hands[i].concealed {
			t.Errorf("hand %d: loader %s/%d/%v, oracle %s/%d/%v", i, h.ID, h.Value, h.Concealed, oc.hands[i].id, oc.hands[i].value, oc.hands[i].concealed)
		}
	}
}

// compareMatch compares Card.Match (hand IDs, values, jokerless) and Card.Possible with the
// oracle on n random racks.
func compareMatch(t *testing.T, path string, n int, seed uint64, allJokers bool) {
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	oc := loadOracle(t, path)
	rng := rand.New(rand.NewPCG(seed, 7))
	failures, matched, withExp := 0, 0, 0
	for i := 0; i < n && failures < 20; i++ {
		r := randomRack(rng, oc, allJokers)
		want, wantJL := oc.oracleMatch(r)
		var got []string
		gotJL := wantJL
		for _, m := range c.Match(r) {
			got = append(got, m.HandID)
			if m.Jokerless != wantJL {
				gotJL = m.Jokerless
			}
			if h, _ := c.HandByID(m.HandID); h == nil || m.Value != h.Value {
				t.Errorf("rack %d %s: match %s has value %d", i, oRackString(r), m.HandID, m.Value)
			}
		}
		if len(want) > 0 {
			matched++
			if len(r.Exposed) > 0 {
				withExp++
			}
		}
		if !slices.Equal(got, want) || gotJL != wantJL {
			failures++
			t.Errorf("rack %d %s:\n  Card.Match: %v jokerless=%v\n  oracle:     %v jokerless=%v", i, oRackString(r), got, gotJL, want, wantJL)
		}
		var gotP []string
		for _, h := range c.Possible(r.Exposed) {
			gotP = append(gotP, h.ID)
		}
		if wantP := oc.oraclePossible(r.Exposed); !slices.Equal(gotP, wantP) {
			failures++
			t.Errorf("rack %d exposures of %s:\n  Card.Possible: %v\n  oracle:        %v", i, oRackString(r), gotP, wantP)
		}
	}
	t.Logf("%d racks, %d matched some hand (%d of them with exposures)", n, matched, withExp)
	if failures == 0 && (matched < n/5 || withExp < n/50) {
		t.Errorf("only %d of %d random racks matched (%d with exposures): the generator is not interesting enough", matched, n, withExp)
	}
}

// TestOracleMatch compares Card.Match and Card.Possible with the oracle on random racks whose
// exposures each hold a natural tile, as every exposure made in play does.
func TestOracleMatch(t *testing.T) {
	t.Parallel()
	n := 100_000
	if quickOracle() {
		n = 3000
	}
	compareMatch(t, oracleCardPath, n, 2026, false)
}

// TestOracleMatchAllJokerExposures is the same comparison with exposures that may be all
// jokers. The spec's only rule for an exposure is that it is exactly one group of the hand with
// jokers only in a group of three or more identical tiles, which [J J J] is for every pung.
func TestOracleMatchAllJokerExposures(t *testing.T) {
	t.Parallel()
	n := 20_000
	if quickOracle() {
		n = 1000
	}
	compareMatch(t, oracleCardPath, n, 2027, true)
}

// TestMatchAllJokerExposure is the smallest case TestOracleMatchAllJokerExposures found against
// a matcher that laid each exposure on the first group it fitted. Hand 2468-1 is
// "222a 44a 666a 88a DDDDa"; the all-joker exposure can only be the 666 pung, because the
// concealed tiles hold the 222 pung.
func TestMatchAllJokerExposure(t *testing.T) {
	c, err := Load(oracleCardPath)
	if err != nil {
		t.Fatal(err)
	}
	oc := loadOracle(t, oracleCardPath)
	faces, err := tile.ParseList("2B 2B 2B 4B 4B 8B 8B GD GD GD GD")
	if err != nil {
		t.Fatal(err)
	}
	conc, _ := tile.CountsOf(faces)
	r := Rack{Concealed: conc, Exposed: []Exposure{{tile.Joker, tile.Joker, tile.Joker}}}
	want, _ := oc.oracleMatch(r)
	if !slices.Contains(want, "2468-1") {
		t.Fatalf("oracle: %v, want 2468-1 (J J J as the 666 pung)", want)
	}
	var got []string
	for _, m := range c.Match(r) {
		got = append(got, m.HandID)
	}
	if !slices.Contains(got, "2468-1") {
		t.Errorf("Card.Match(%s) = %v, want 2468-1: [J J J] is the 6B pung", oRackString(r), got)
	}
	for _, a := range c.Away(conc, r.Exposed) {
		if a.HandID == "2468-1" && a.Away != 0 {
			t.Errorf("Card.Away(%s) for 2468-1 = %d, want 0", oRackString(r), a.Away)
		}
	}
	if w := oc.oracleAway(conc, r.Exposed, nil)["2468-1"]; w != 0 {
		t.Errorf("oracle away = %d, want 0", w)
	}
}

// randomHeld builds tiles for tiles-away: one or two variants' tiles, thinned, mixed and padded
// to size, with jokers; sometimes with exposures laid from the first variant's identical groups.
func randomHeld(rng *rand.Rand, oc *oCard, size int, withExp, allJokers bool) (tile.Counts, []Exposure) {
	pick := func() *oVariant {
		h := &oc.hands[rng.IntN(len(oc.hands))]
		return &h.variants[rng.IntN(len(h.variants))]
	}
	v := pick()
	var exp []Exposure
	var pool []tile.Face
	for _, g := range v.groups {
		if withExp && identicalGroup(g) && rng.IntN(2) == 0 {
			e := exposureFrom(rng, g.tiles, 0.25, allJokers)
			exp = append(exp, e)
			size -= len(e)
			continue
		}
		pool = append(pool, g.tiles...)
	}
	if size > 14 {
		for _, g := range pick().groups {
			pool = append(pool, g.tiles...)
		}
	}
	rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	for k := rng.IntN(5); k > 0 && len(pool) > 0; k-- {
		pool = pool[1:] // thin
	}
	for i := range pool {
		switch x := rng.IntN(12); {
		case x == 0:
			pool[i] = tile.Joker
		case x == 1:
			pool[i] = oRandFace(rng)
		}
	}
	for len(pool) < size {
		f := oRandFace(rng)
		if rng.IntN(4) == 0 {
			f = tile.Joker
		}
		pool = append(pool, f)
	}
	pool = pool[:max(0, size)]
	c, err := tile.CountsOf(pool)
	if err != nil {
		panic(err)
	}
	return c, exp
}

// compareAway compares Card.Away with the oracle on n random 13, 14 and 27-29 tile sets, a
// third of them with exposures.
func compareAway(t *testing.T, path string, n int, seed uint64, allJokers bool) {
	compareAwayWith(t, path, n, seed, allJokers, n/20)
}

// compareAwayWith is compareAway asking dead tiles to rule out at least minDead hands (a short
// card has fewer to rule out).
func compareAwayWith(t *testing.T, path string, n int, seed uint64, allJokers bool, minDead int) {
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	oc := loadOracle(t, path)
	rng := rand.New(rand.NewPCG(seed, 29))
	sizes := []int{13, 14, 27, 28, 29}
	failures, deadHands := 0, 0
	for i := 0; i < n && failures < 20; i++ {
		size := sizes[i%len(sizes)]
		held, exp := randomHeld(rng, oc, size, i%3 == 0, allJokers)
		var table *Table
		var dead *tile.Counts
		if i%4 == 1 {
			table = randomTable(rng, held, exp)
			dead = &table.Dead
		}
		want := oc.oracleAway(held, exp, dead)
		if dead != nil {
			deadHands += len(oc.oracleAway(held, exp, nil)) - len(want)
		}
		got := map[string]int{}
		for _, a := range c.AppendAway(nil, held, exp, table) {
			got[a.HandID] = a.Away
			// The concrete hand reported must itself be that many tiles away.
			if gv := oracleGroupsAway(a.Groups, oc.jokers, held, exp); gv != a.Away {
				failures++
				t.Errorf("set %d: concealed [%v] exposures %v: %s reports away %d with groups %v, which are %d away", i, held, exp, a.HandID, a.Away, a.Groups, gv)
			}
		}
		if !oMapsEqual(got, want) {
			failures++
			t.Errorf("set %d: concealed [%v] exposures %v dead %v:\n  differ: %s", i, held, exp, dead, oAwayDiff(got, want))
		}
	}
	t.Logf("%d sets; dead tiles put %d hands out of reach", n, deadHands)
	if failures == 0 && deadHands < minDead {
		t.Errorf("dead tiles put only %d hands out of reach in %d sets: the generator is not interesting enough", deadHands, n)
	}
}

// randomTable kills some tiles: for a few faces the player uses, most or all of the tiles not
// in hand; now and then jokers too. Dead tiles never exceed what the set holds.
func randomTable(rng *rand.Rand, held tile.Counts, exp []Exposure) *Table {
	t := &Table{Set: tile.American().Count}
	left := t.Set
	for f := range left {
		left[f] -= min(left[f], held[f])
	}
	for _, e := range exp {
		for _, f := range e {
			left[f] -= min(left[f], 1)
		}
	}
	for k := 0; k < 1+rng.IntN(6); k++ {
		f := tile.Face(rng.IntN(tile.NumFaces))
		if held[f] == 0 && held.Total() > 0 && rng.IntN(2) == 0 {
			f = held.Faces()[rng.IntN(held.Total())] // mostly faces the player wants
		}
		t.Dead[f] = left[f] - uint8(rng.IntN(int(min(left[f], 2))+1))
	}
	if rng.IntN(4) == 0 {
		t.Dead[tile.Joker] = left[tile.Joker]
	}
	return t
}

// oracleGroupsAway is the oracle's tiles-away for one concrete hand given as groups.
func oracleGroupsAway(groups [][]tile.Face, jokers oJokers, concealed tile.Counts, exp []Exposure) int {
	var v oVariant
	for _, g := range groups {
		og := oGroup{tiles: g, jok: identicalGroup(oGroup{tiles: g}) && !jokers.none && (g[0] != tile.Flower || jokers.flowers)}
		v.groups = append(v.groups, og)
		for _, f := range g {
			v.faces |= 1 << f
		}
	}
	return v.awayOne(concealed.Faces(), exp, nil)
}

// TestOracleAway compares Card.Away with the oracle; exposures each hold a natural tile.
func TestOracleAway(t *testing.T) {
	t.Parallel()
	n := 3000
	if quickOracle() {
		n = 200
	}
	compareAway(t, oracleCardPath, n, 2026, false)
}

// TestOracleAwayAllJokerExposures is TestOracleAway with exposures that may be all jokers.
func TestOracleAwayAllJokerExposures(t *testing.T) {
	t.Parallel()
	n := 1500
	if quickOracle() {
		n = 100
	}
	compareAway(t, oracleCardPath, n, 2027, true)
}

func oMapsEqual(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func oAwayDiff(got, want map[string]int) string {
	keys := map[string]bool{}
	for k := range got {
		keys[k] = true
	}
	for k := range want {
		keys[k] = true
	}
	var ks []string
	for k := range keys {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	var parts []string
	for _, k := range ks {
		g, gok := got[k]
		w, wok := want[k]
		if g != w || gok != wok {
			parts = append(parts, fmt.Sprintf("%s: Card.Away %s, oracle %s", k, oPresent(g, gok), oPresent(w, wok)))
		}
	}
	return strings.Join(parts, "; ")
}

func oPresent(v int, ok bool) string {
	if !ok {
		return "absent"
	}
	return strconv.Itoa(v)
}

// quickOracle is true for -short and under -race: the oracle comparisons and the exhaustive
// advice searches then run on 3 to 30 per cent of their random cases, where the race detector
// makes them ten to twenty-five times slower. The full counts run in every plain
// go test, and scripts/test.sh runs this package once without -race for them.
func quickOracle() bool { return testing.Short() || race.Enabled }
