package card

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/siamesetable/siamesed/engine/tile"
)

// exhaustiveAdvice scores every pair of variants with no pruning: the reference for Advise.
// With a table, a pair counts only if each hand and both together fit the tiles in reach.
// What a variant still needs on a rack, and the tiles in reach of each rack, depend on neither
// the other rack's variant nor each other: they are worked out once, not once per pair.
func exhaustiveAdvice(c *Card, concealed tile.Counts, e1, e2 []Exposure, top int, t *Table) []string {
	type key struct{ h1, h2 int32 }
	type need struct {
		fixed, jok tile.Counts
		ok         bool
	}
	needs := func(exp []Exposure) []need {
		out := make([]need, len(c.variants))
		for v := range c.variants {
			n := &out[v]
			n.fixed, n.jok, n.ok = c.variants[v].rest(exp, &concealed)
		}
		return out
	}
	n1, n2 := needs(e1), needs(e2)
	var c1, c2, both tile.Counts
	if t != nil {
		c1, c2, both = t.caps(e1), t.caps(e2), t.caps(append(slices.Clone(e1), e2...))
	}
	best := map[key]pairResult{}
	symmetric := len(e1) == 0 && len(e2) == 0
	for v1 := range c.variants {
		for v2 := range c.variants {
			a, b := &c.variants[v1], &c.variants[v2]
			if symmetric && a.hand > b.hand {
				continue
			}
			if (c.Hands[a.hand].Concealed && len(e1) > 0) || (c.Hands[b.hand].Concealed && len(e2) > 0) {
				continue
			}
			if !n1[v1].ok || !n2[v2].ok {
				continue
			}
			f1, j1, f2, j2 := n1[v1].fixed, n1[v1].jok, n2[v2].fixed, n2[v2].jok
			if t != nil {
				f, j := f1, j1
				f.Add(&f2)
				j.Add(&j2)
				if !reachable(&f1, &j1, &c1) || !reachable(&f2, &j2, &c2) || !reachable(&f, &j, &both) {
					continue
				}
			}
			f1.Add(&f2)
			j1.Add(&j2)
			p := pairResult{h1: a.hand, h2: b.hand, away: awayFrom(&concealed, &f1, &j1), value: c.Hands[a.hand].Value + c.Hands[b.hand].Value}
			k := key{a.hand, b.hand}
			if old, ok := best[k]; !ok || p.away < old.away {
				best[k] = p
			}
		}
	}
	var all []pairResult
	for _, p := range best {
		all = append(all, p)
	}
	slices.SortFunc(all, func(a, b pairResult) int {
		if better(a, b) {
			return -1
		}
		return 1
	})
	var out []string
	for i := 0; i < top && i < len(all); i++ {
		out = append(out, fmt.Sprintf("%s+%s=%d/%d", c.Hands[all[i].h1].ID, c.Hands[all[i].h2].ID, all[i].away, all[i].value))
	}
	return out
}

func adviceStrings(as []Advice) []string {
	var out []string
	for _, a := range as {
		out = append(out, fmt.Sprintf("%s+%s=%d/%d", a.Rack1.HandID, a.Rack2.HandID, a.Away, a.Value))
	}
	return out
}

func TestAdviseAgreesWithExhaustiveSearch(t *testing.T) {
	c := mustParse(t, testCard)
	rng := rand.New(rand.NewPCG(1, 2))
	pool := tile.American().Count
	cases := 200
	if quickOracle() {
		cases = 60
	}
	for i := 0; i < cases; i++ {
		var bag []tile.Face
		left := pool
		draw := func() tile.Face {
			for {
				f := tile.Face(rng.IntN(tile.NumFaces))
				if left[f] > 0 {
					left[f]--
					return f
				}
			}
		}
		var e1, e2 []Exposure
		if i%3 == 1 { // an exposure on rack 1 taken from some variant's joker-able group
			v := &c.variants[rng.IntN(len(c.variants))]
			for _, g := range v.groups {
				if g.jokerable && left[g.face] >= uint8(len(g.tiles)) {
					e := slices.Clone(g.tiles)
					for k := range e {
						left[e[k]]--
					}
					e1 = append(e1, e)
					break
				}
			}
		}
		n := 27 + rng.IntN(3) - 3*len(e1)
		for len(bag) < n {
			bag = append(bag, draw())
		}
		concealed, _ := tile.CountsOf(bag)
		top := 1 + rng.IntN(8)
		var table *Table
		if i%2 == 1 {
			table = randomTable(rng, concealed, e1)
		}
		got := adviceStrings(c.AdviseSiamese(Siamese{Concealed: concealed, Exposed: [2][]Exposure{e1, e2}}, top, table))
		want := exhaustiveAdvice(c, concealed, e1, e2, top, table)
		if !slices.Equal(got, want) {
			t.Fatalf("case %d: tiles %v exposed %v top %d table %v\n got %v\nwant %v", i, concealed, e1, top, table, got, want)
		}
	}
}

func TestAdviseExplainsEachRack(t *testing.T) {
	c := mustParse(t, testCard)
	r := rackOf(t, "N N N N E E E W W W S S S S  3D 3D 4D 4D 4D 5D 5D 5D 5D 6D 6D 6D 7D")
	adv := c.Advise(r.Concealed, nil, nil, 3)
	if len(adv) == 0 {
		t.Fatal("no advice")
	}
	a := adv[0]
	got := strings.Join([]string{a.Rack1.HandID, a.Rack2.HandID}, "+")
	if got != "Run-1+Winds-1" || a.Away != 1 || a.Rack1.Away+a.Rack2.Away != 1 || a.Value != 55 {
		t.Fatalf("best = %s away %d (%d+%d) value %d, want Run-1+Winds-1 one away", got, a.Away, a.Rack1.Away, a.Rack2.Away, a.Value)
	}
	if c.Advise(r.Concealed, nil, nil, 0) != nil {
		t.Error("top 0 gave advice")
	}
}

func TestAdviseKeepsExposuresOnTheirRack(t *testing.T) {
	c := mustParse(t, testCard)
	// A pung of north on rack 2 rules Winds-1 out for rack 1 unless its tiles are found again.
	r := rackOf(t, "N E E E E W W W W S S S 3D 3D 4D 4D 4D 5D 5D 5D 5D 6D 6D 6D 7D", "N N N")
	adv := c.Advise(r.Concealed, nil, r.Exposed, 1)
	if len(adv) != 1 || adv[0].Rack2.HandID != "Winds-1" || tile.Format(adv[0].Rack2.Groups[0]) != "N N N" {
		t.Fatalf("advice %+v, want rack 2 on Winds-1 with its N N N", adv)
	}
}

func TestAdviseDiscardsAgreesWithExhaustiveSearch(t *testing.T) {
	c := mustParse(t, testCard)
	rng := rand.New(rand.NewPCG(5, 6))
	cases := 30
	if quickOracle() {
		cases = 8
	}
	for i := 0; i < cases; i++ {
		var bag []tile.Face
		left := tile.American().Count
		for len(bag) < 28 {
			if f := tile.Face(rng.IntN(tile.NumFaces)); left[f] > 0 {
				left[f]--
				bag = append(bag, f)
			}
		}
		concealed, _ := tile.CountsOf(bag)
		table := randomTable(rng, concealed, nil)
		got := c.AdviseDiscards(Siamese{Concealed: concealed}, table)
		// Every kind of tile held is a candidate once, and its best pair is the exhaustive one.
		if len(got) != len(slices.Compact(concealed.Faces())) {
			t.Fatalf("case %d: %d candidates for %v", i, len(got), concealed)
		}
		for k, d := range got {
			rest, after := concealed, *table
			rest[d.Tile]--
			after.Dead[d.Tile]++
			want := exhaustiveAdvice(c, rest, nil, nil, 1, &after)
			var gotS []string
			if d.Best != nil {
				gotS = adviceStrings([]Advice{*d.Best})
			}
			if !slices.Equal(gotS, want) {
				t.Fatalf("case %d: throwing %v from %v: best %v, exhaustive %v", i, d.Tile, concealed, gotS, want)
			}
			if k > 0 && compareDiscards(got[k-1], d) > 0 {
				t.Errorf("case %d: %v ranked before %v", i, got[k-1].Tile, d.Tile)
			}
		}
	}
}

func TestAdviseDiscardsThrowsTheStrayTile(t *testing.T) {
	c := mustParse(t, testCard)
	// Winds-1 complete and Run-1 one 7D short, with a stray 9B: throwing it leaves the pair one away.
	r := rackOf(t, "N N N N E E E W W W S S S S 3D 3D 4D 4D 4D 5D 5D 5D 5D 6D 6D 6D 7D 9B")
	got := c.AdviseDiscards(Siamese{Concealed: r.Concealed}, nil)
	if len(got) == 0 || got[0].Tile != tile.Number(tile.Bams, 9) || got[0].Best == nil || got[0].Best.Away != 1 {
		t.Fatalf("discards %+v, want 9B first, leaving a pair one away", got)
	}
	if last := got[len(got)-1]; last.Best == nil || last.Best.Away <= 1 {
		t.Errorf("last candidate %v leaves %+v, want a worse pair", last.Tile, last.Best)
	}
}

// rest returns (for the exhaustive reference) what the variant still needs once the exposures are placed, choosing the
// placement that leaves the fewest tiles missing from concealed. ok is false when the
// exposures do not fit the variant.
func (v *variant) rest(exp []Exposure, concealed *tile.Counts) (fixed, jok tile.Counts, ok bool) {
	best := -1
	v.placements(exp, func(f, j *tile.Counts) bool {
		a := awayFrom(concealed, f, j)
		if best < 0 || a < best {
			best, fixed, jok, ok = a, *f, *j, true
		}
		return a == 0
	})
	return fixed, jok, ok
}
