package eval

import (
	"cmp"
	"fmt"
	"slices"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/vision/classify"
	"github.com/siamesetable/siamesed/vision/labels"
)

// SetTrial is one tile set left out: enrolled as Enrolment says (with the set's own picks of
// Seed; Seed 0 under Others, which picks nothing), its other crops tested at every rotation.
type SetTrial struct {
	Set       string    `json:"set"`
	Enrolment Enrolment `json:"enrolment"`
	Seed      uint64    `json:"seed"`
	Enrolled  int       `json:"enrolled"` // crops enrolled
	Tally
	Confused []Pair  `json:"confused,omitempty"`
	Asked    []Asked `json:"asked,omitempty"` // named right but not known
}

// LeaveOneSetOut measures each set of the bank as a table with that set would fare: enrolled
// on everything else and the set's own one crop a face (OwnAndOthers), on everything else only
// (Others), and on its own picks alone (Own); tested on the set's crops not picked. Own picks
// differ by seed; Others is measured once.
func (b *Bank) LeaveOneSetOut(seeds []uint64) ([]SetTrial, error) {
	var out []SetTrial
	for _, set := range b.Sets() {
		for _, e := range Enrolments {
			for _, seed := range seedsFor(e, seeds) {
				var own map[int]bool
				if e != Others {
					own = b.own(set, seed)
				}
				b.enrol(set, e, own)
				t := SetTrial{Set: set, Enrolment: e, Seed: seed, Enrolled: b.c.Len()}
				conf, asked := confusions{}, askings{}
				if err := b.answer(b.tested(set, own, tile.NoFace), &t.Tally, conf, asked); err != nil {
					return nil, err
				}
				t.shares()
				t.Confused, t.Asked = conf.pairs(), asked.list()
				out = append(out, t)
			}
		}
	}
	return out, nil
}

// seedsFor are the seeds enrolment e is measured on: Others picks nothing, so one.
func seedsFor(e Enrolment, seeds []uint64) []uint64 {
	if e == Others {
		return []uint64{0}
	}
	return seeds
}

// answer classifies the bank's crops at idx at every rotation against what is enrolled now,
// counting into t, conf and asked.
func (b *Bank) answer(idx []int, t *Tally, conf confusions, asked askings) error {
	for _, i := range idx {
		k := b.crops[i]
		for _, q := range k.q {
			r, err := b.c.Answer(q)
			if err != nil {
				return fmt.Errorf("eval: %s: %w", k.item.Image, err)
			}
			t.add(k.item.Tile, r)
			conf.add(k.item.Tile, r)
			asked.add(k.item.Tile, r)
		}
	}
	return nil
}

// FaceTrial is one face never enrolled, in one set (every seed together) or, summed up by
// SummariseFaces, in every set that has it: each of its crops should be answered unknown
// (Tally.Unknown 1). Taken says what it was named instead, with how many of those were answered
// with confidence.
type FaceTrial struct {
	Face      tile.Face `json:"face"`
	Enrolment Enrolment `json:"enrolment"`
	Set       string    `json:"set,omitempty"`  // one set's trial
	Sets      []string  `json:"sets,omitempty"` // a summary's sets
	Tally
	Taken []Pair `json:"taken,omitempty"`
	conf  confusions
}

// LeaveOneFaceOut measures the open set: for each set, enrolment and seed as in LeaveOneSetOut,
// and each face of the set in turn, that face is left out of the enrolment (every crop of it,
// from every set) and the set's crops of it are tested. One trial per set, enrolment and face,
// its seeds together.
func (b *Bank) LeaveOneFaceOut(seeds []uint64) ([]FaceTrial, error) {
	var out []FaceTrial
	for _, set := range b.Sets() {
		faces := b.faces(set)
		for _, e := range Enrolments {
			trials := make([]FaceTrial, len(faces))
			for _, seed := range seedsFor(e, seeds) {
				var own map[int]bool
				if e != Others {
					own = b.own(set, seed)
				}
				for i, f := range faces {
					ft := &trials[i]
					if ft.conf == nil {
						*ft = FaceTrial{Face: f, Enrolment: e, Set: set, conf: confusions{}}
					}
					b.enrol(set, e, own, f)
					if err := b.answer(b.tested(set, nil, f), &ft.Tally, ft.conf, askings{}); err != nil {
						return nil, err
					}
				}
			}
			for _, ft := range trials {
				ft.shares()
				ft.Taken = ft.conf.pairs()
				out = append(out, ft)
			}
		}
	}
	return out, nil
}

// SummariseFaces adds up LeaveOneFaceOut's trials per enrolment and face over every set.
func SummariseFaces(ts []FaceTrial) []FaceTrial {
	byKey := map[[2]int]*FaceTrial{}
	for _, t := range ts {
		key := [2]int{int(t.Enrolment), int(t.Face)}
		s := byKey[key]
		if s == nil {
			s = &FaceTrial{Face: t.Face, Enrolment: t.Enrolment, conf: confusions{}}
			byKey[key] = s
		}
		s.Sets = append(s.Sets, t.Set)
		s.merge(t.Tally)
		s.conf.addPairs(t.Taken)
	}
	out := make([]FaceTrial, 0, len(byKey))
	for _, s := range byKey {
		s.shares()
		s.Taken = s.conf.pairs()
		out = append(out, *s)
	}
	slices.SortFunc(out, func(a, b FaceTrial) int {
		return cmp.Or(cmp.Compare(a.Enrolment, b.Enrolment), cmp.Compare(a.Face, b.Face))
	})
	return out
}

// faces are the faces set has crops of, in order.
func (b *Bank) faces(set string) []tile.Face {
	var out []tile.Face
	for _, k := range b.crops {
		if k.item.Set == set && !slices.Contains(out, k.item.Tile) {
			out = append(out, k.item.Tile)
		}
	}
	slices.Sort(out)
	return out
}

// NonTileTrial is how non-tile crops fared against each left-out set's enrolments: every one
// should be answered unknown.
type NonTileTrial struct {
	Enrolment Enrolment `json:"enrolment"`
	Kind      string    `json:"kind"`
	N         int       `json:"n"`
	Rejected  float64   `json:"rejected"`
	// Worst is the lowest share rejected against one set's enrolment on one seed.
	Worst float64 `json:"worst"`
}

// RejectNonTiles answers the crops (by kind, as NonTiles draws them) at every rotation against
// each set's enrolments and seeds as LeaveOneSetOut makes them; per enrolment and kind, and "all".
func (b *Bank) RejectNonTiles(crops map[string][]gocv.Mat, seeds []uint64) ([]NonTileTrial, error) {
	kinds := make([]string, 0, len(crops)+1)
	for k := range crops {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	queries := map[string][]classify.Query{}
	for _, k := range kinds {
		for _, m := range crops[k] {
			qs, err := b.queries(m)
			if err != nil {
				return nil, fmt.Errorf("eval: %s: %w", k, err)
			}
			queries[k] = append(queries[k], qs...)
		}
	}
	var out []NonTileTrial
	for _, e := range Enrolments {
		rows := map[string]*NonTileTrial{}
		for _, k := range append(kinds, "all") {
			rows[k] = &NonTileTrial{Enrolment: e, Kind: k, Worst: 1}
		}
		for _, set := range b.Sets() {
			for _, seed := range seedsFor(e, seeds) {
				var own map[int]bool
				if e != Others {
					own = b.own(set, seed)
				}
				b.enrol(set, e, own)
				var n, rejected int
				for _, k := range kinds {
					kn, kr, err := b.rejected(queries[k])
					if err != nil {
						return nil, err
					}
					rows[k].N, rows[k].Rejected = rows[k].N+kn, rows[k].Rejected+float64(kr)
					rows[k].Worst = min(rows[k].Worst, float64(kr)/float64(max(kn, 1)))
					n, rejected = n+kn, rejected+kr
				}
				rows["all"].N, rows["all"].Rejected = rows["all"].N+n, rows["all"].Rejected+float64(rejected)
				rows["all"].Worst = min(rows["all"].Worst, float64(rejected)/float64(max(n, 1)))
			}
		}
		for _, k := range append(kinds, "all") {
			r := rows[k]
			r.Rejected /= float64(max(r.N, 1))
			out = append(out, *r)
		}
	}
	return out, nil
}

// SetSummary is one set under one enrolment, every seed together; Set "all" is every set.
type SetSummary struct {
	Set       string    `json:"set"`
	Enrolment Enrolment `json:"enrolment"`
	Tally
	MinTop1  float64 `json:"min_top1"` // the lowest top-1 of one seed
	Confused []Pair  `json:"confused,omitempty"`
	Asked    []Asked `json:"asked,omitempty"`
}

// SummariseSets adds up LeaveOneSetOut's trials per set and enrolment, then all sets per
// enrolment, in the trials' order.
func SummariseSets(ts []SetTrial) []SetSummary {
	type key struct {
		set string
		e   Enrolment
	}
	var order []key
	sums := map[key]*SetSummary{}
	conf, asked := map[key]confusions{}, map[key]askings{}
	for _, t := range ts {
		for _, k := range []key{{t.Set, t.Enrolment}, {"all", t.Enrolment}} {
			s := sums[k]
			if s == nil {
				s = &SetSummary{Set: k.set, Enrolment: k.e, MinTop1: 1}
				sums[k], conf[k], asked[k] = s, confusions{}, askings{}
				order = append(order, k)
			}
			s.merge(t.Tally)
			s.MinTop1 = min(s.MinTop1, t.Top1)
			conf[k].addPairs(t.Confused)
			asked[k].addAsked(t.Asked)
		}
	}
	last := func(k key) int { return boolInt(k.set == "all") }
	slices.SortStableFunc(order, func(a, b key) int { return cmp.Compare(last(a), last(b)) })
	out := make([]SetSummary, 0, len(order))
	for _, k := range order {
		s := sums[k]
		s.shares()
		s.Confused, s.Asked = conf[k].pairs(), asked[k].list()
		out = append(out, *s)
	}
	return out
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// SetConditions is one set's crops under the table's conditions (RunConditions, centred as the
// extractor centres them), enrolled on the set's own one crop a face of Seed alone, as a table
// enrols its set.
type SetConditions struct {
	Set        string            `json:"set"`
	Seed       uint64            `json:"seed"`
	Conditions []ConditionResult `json:"conditions"`
}

// Conditions measures each set under the table's conditions, on each seed's own enrolment.
func (b *Bank) Conditions(seeds []uint64) ([]SetConditions, error) {
	var out []SetConditions
	for _, set := range b.Sets() {
		for _, seed := range seeds {
			own := b.own(set, seed)
			b.enrol(set, Own, own)
			idx := b.tested(set, own, tile.NoFace)
			if len(idx) == 0 {
				continue
			}
			items := make([]labels.Item, len(idx))
			for i, k := range idx {
				items[i] = b.crops[k].item
			}
			rs, err := RunConditions(b.c, b.crops[idx[0]].dir, items, true, seed)
			if err != nil {
				return nil, err
			}
			out = append(out, SetConditions{Set: set, Seed: seed, Conditions: rs})
		}
	}
	return out, nil
}
