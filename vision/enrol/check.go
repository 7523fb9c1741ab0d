package enrol

import (
	"errors"
	"fmt"
	"slices"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/vision/classify"
	"github.com/siamesetable/siamesed/vision/labels"
)

// Recognised is one enrolled crop as the model names it back: As (NoFace: none), and whether
// the classifier is sure. LeftOut: the crop was named against the rest of the enrolment, its
// face having other crops; a face enrolled once is named against the whole enrolment, itself
// included, and is recognised back unless another face comes about as close.
type Recognised struct {
	Image   string
	Face    tile.Face
	As      tile.Face
	Known   bool
	LeftOut bool
}

// OK says whether the crop was recognised back as its own face, surely.
func (r Recognised) OK() bool { return r.Known && r.As == r.Face }

// Recognise names every crop of the enrolment folder dir back with c's model, each against the
// others (see Recognised). c is used for this alone: it must have nothing enrolled, and is left
// with nothing enrolled.
func Recognise(c *classify.Classifier, dir string, items []labels.Item) ([]Recognised, error) {
	exs, qs, err := embed(c, dir, items, true)
	if err != nil {
		return nil, err
	}
	return recognise(c, exs, qs, items)
}

func recognise(c *classify.Classifier, exs []classify.Example, qs []classify.Query, items []labels.Item) ([]Recognised, error) {
	if c.Len() > 0 {
		return nil, errors.New("enrol: the classifier that checks an enrolment must start with nothing enrolled")
	}
	defer c.Reset()
	out := make([]Recognised, len(items))
	for i, it := range items {
		others := slices.ContainsFunc(items, func(o labels.Item) bool { return o.Tile == it.Tile && o.Image != it.Image })
		c.Reset()
		for j, ex := range exs {
			if j != i || !others {
				c.Add(ex)
			}
		}
		r, err := c.Answer(qs[i])
		if err != nil {
			return nil, fmt.Errorf("enrol: %s: %w", it.Image, err)
		}
		out[i] = Recognised{Image: it.Image, Face: it.Tile, As: r.Face, Known: r.Known, LeftOut: others}
	}
	return out, nil
}

// Report is an enrolment checked with the model: each crop named back, and the faces it holds
// alike.
type Report struct {
	Crops []Recognised
	Alike []LookAlike
}

// Misread are the crops not recognised back as their own face.
func (r Report) Misread() []Recognised {
	var out []Recognised
	for _, c := range r.Crops {
		if !c.OK() {
			out = append(out, c)
		}
	}
	return out
}

// Review checks the enrolment folder dir with the built-in network, as `enroll camera` does
// when it has saved the crops and the set-up page's Check does: every crop named back
// (Recognise), and the pairs of faces alike at classify.NetLookAlike.
func Review(dir string) (Report, error) {
	items, err := labels.Read(dir)
	if err != nil {
		return Report{}, fmt.Errorf("enrol: %w", err)
	}
	if len(items) == 0 {
		return Report{}, fmt.Errorf("enrol: %s lists no crops: enrol the faces first", dir)
	}
	c, err := classify.NewNet("")
	if err != nil {
		return Report{}, fmt.Errorf("enrol: %w", err)
	}
	defer c.Close()
	exs, qs, err := embed(c, dir, items, true)
	if err != nil {
		return Report{}, err
	}
	crops, err := recognise(c, exs, qs, items)
	if err != nil {
		return Report{}, err
	}
	return Report{Crops: crops, Alike: lookAlikes(exs, items, classify.NetLookAlike)}, nil
}

// embed reads every crop of dir and embeds it as an enrolled example and, with queries, as a
// crop to name.
func embed(c *classify.Classifier, dir string, items []labels.Item, queries bool) ([]classify.Example, []classify.Query, error) {
	exs := make([]classify.Example, len(items))
	var qs []classify.Query
	if queries {
		qs = make([]classify.Query, len(items))
	}
	for i, it := range items {
		m, err := classify.ReadCrop(dir, it)
		if err != nil {
			return nil, nil, fmt.Errorf("enrol: %w", err)
		}
		exs[i], err = c.Example(it.Tile, m)
		if err == nil && queries {
			qs[i], err = c.Query(m)
		}
		m.Close()
		if err != nil {
			return nil, nil, fmt.Errorf("enrol: %s: %w", it.Image, err)
		}
	}
	return exs, qs, nil
}
