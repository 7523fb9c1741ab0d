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
func exhaustiveAdvice(c *Card, concealed tile.Counts, e1, e2 []Exposure, top int) []string {
	type key struct{ h1, h2 int32 }
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
			f1, j1, ok1 := a.rest(e1, &concealed)
			f2, j2, ok2 := b.rest(e2, &concealed)
			if !ok1 || !ok2 {
				continue
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
	for i := 0; i < 200; i++ {
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
		got := adviceStrings(c.Advise(concealed, e1, e2, top))
		want := exhaustiveAdvice(c, concealed, e1, e2, top)
		if !slices.Equal(got, want) {
			t.Fatalf("case %d: tiles %v exposed %v top %d\n got %v\nwant %v", i, concealed, e1, top, got, want)
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
