package eval

import (
	"fmt"
	"image"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/vision/classify"
	"github.com/siamesetable/siamesed/vision/labels"
	"github.com/siamesetable/siamesed/vision/synth"
)

// testFaces are the faces of the drawn sets: a few suits, an honour, flowers and the joker.
var testFaces = []tile.Face{tile.Bam1, tile.Bam2, tile.Crak3, tile.Dot5, tile.North, tile.Flower, tile.Joker}

// drawnSets writes a crop folder of the built-in faces in two drawn "sets", X (as drawn) and Y
// (blurred), copies crops of each face (the windows shifted a little), and a folder of the
// same faces in no set; it returns the two pools.
func drawnSets(t testing.TB, copies int) (sets, plain Pool) {
	t.Helper()
	art, err := synth.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	defer art.Close()
	write := func(set string, blur int) Pool {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, labels.ImageDir), 0o755); err != nil {
			t.Fatal(err)
		}
		var items []labels.Item
		for _, f := range testFaces {
			for i := range copies {
				face := art.Face(f)
				m := face.Clone()
				if blur > 0 {
					gocv.GaussianBlur(m, &m, image.Pt(blur, blur), 0, 0, gocv.BorderDefault)
				}
				w, h := m.Cols(), m.Rows()
				win := m.Region(image.Rect(i, i, w-copies+i, h-copies+i))
				name := fmt.Sprintf("%s%v-%d.png", set, f, i)
				ok := gocv.IMWrite(filepath.Join(dir, labels.ImageDir, name), win)
				win.Close()
				m.Close()
				if !ok {
					t.Fatal("cannot write a crop")
				}
				items = append(items, labels.Item{Image: name, Tile: f, Set: strings.TrimPrefix(set, "-")})
			}
		}
		return Pool{Dir: dir, Items: items}
	}
	x, y := write("X", 0), write("Y", 5)
	sets = Pool{Dir: x.Dir, Items: x.Items}
	for _, it := range y.Items { // one folder for both sets
		src, dst := filepath.Join(y.Dir, labels.ImageDir, it.Image), filepath.Join(x.Dir, labels.ImageDir, it.Image)
		if err := os.Rename(src, dst); err != nil {
			t.Fatal(err)
		}
		sets.Items = append(sets.Items, it)
	}
	return sets, write("-", 3)
}

// A table's own enrolment is one crop of each face of the set, picked by the seed, and every
// flower unless OneFlower; the same seed picks the same crops.
func TestOwnPicksOneCropAFace(t *testing.T) {
	sets, _ := drawnSets(t, 3)
	c, err := classify.NewNet("")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	b, err := NewBank(c, []Pool{sets})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(b.Sets(), " "); got != "X Y" {
		t.Fatalf("sets %q, want X Y", got)
	}
	differs := false
	for _, one := range []bool{false, true} {
		b.OneFlower = one
		for seed := uint64(1); seed <= 4; seed++ {
			own := b.own("Y", seed)
			count := map[tile.Face]int{}
			for i := range own {
				if b.crops[i].item.Set != "Y" {
					t.Fatalf("picked %s of set %s for Y", b.crops[i].item.Image, b.crops[i].item.Set)
				}
				count[b.crops[i].item.Tile]++
			}
			for _, f := range testFaces {
				want := 1
				if f == tile.Flower && !one {
					want = 3
				}
				if count[f] != want {
					t.Errorf("one flower %v, seed %d: %d crops of %v, want %d", one, seed, count[f], f, want)
				}
			}
			if again := b.own("Y", seed); fmt.Sprint(again) != fmt.Sprint(own) {
				t.Errorf("seed %d picked %v, then %v", seed, own, again)
			}
			differs = differs || fmt.Sprint(own) != fmt.Sprint(b.own("Y", 1))
		}
	}
	if !differs {
		t.Error("every seed picked the same crops")
	}
}

// newBank embeds the drawn sets (three crops a face) and the plain pool with the built-in network.
func newBank(t *testing.T) *Bank {
	t.Helper()
	sets, plain := drawnSets(t, 3)
	c, err := classify.NewNet("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	b, err := NewBank(c, []Pool{sets, plain})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Each set is left out in turn under each enrolment: what is enrolled and what is tested add up,
// and a drawn set's own crops name its other crops.
func TestLeaveOneSetOut(t *testing.T) {
	b := newBank(t)
	ts, err := b.LeaveOneSetOut([]uint64{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	// each set and the plain pool: 7 faces x 3 crops; own picks: 6 faces once, 3 flowers
	want := map[Enrolment][2]int{OwnAndOthers: {21 + 21 + 9, (21 - 9) * 4}, Others: {21 + 21, 21 * 4}, Own: {9, (21 - 9) * 4}}
	seen := map[string]int{}
	for _, tr := range ts {
		seen[fmt.Sprint(tr.Set, tr.Enrolment)]++
		if w := want[tr.Enrolment]; tr.Enrolled != w[0] || tr.N != w[1] {
			t.Errorf("%s %v seed %d: enrolled %d, tested %d; want %d, %d", tr.Set, tr.Enrolment, tr.Seed, tr.Enrolled, tr.N, w[0], w[1])
		}
		if tr.Enrolment == Own && (tr.Top1 != 1 || tr.WrongKnown != 0) {
			t.Errorf("%s own seed %d: %+v; want every crop named right by its own set's", tr.Set, tr.Seed, tr.Tally)
		}
	}
	for _, k := range []string{"Xown+others", "Xown", "Yown+others", "Yown"} {
		if seen[k] != 2 {
			t.Errorf("%s: %d trials, want one a seed", k, seen[k])
		}
	}
	if seen["Xothers"] != 1 || seen["Yothers"] != 1 {
		t.Errorf("others measured %d and %d times, want once a set", seen["Xothers"], seen["Yothers"])
	}
	sum := SummariseSets(ts)
	last := sum[len(sum)-1]
	if last.Set != "all" || last.Enrolment != Own || last.N != 4*(21-9)*2*2 {
		t.Errorf("last summary %+v, want all sets' own enrolment", last)
	}
}

// A trial counts the crops it named right but did not know, by face and why: with nothing near
// enough every such crop is asked as too far, with no runner-up far enough as too close; summed
// per set, the counts are kept.
func TestLeaveOneSetOutSaysWhatItAsks(t *testing.T) {
	b := newBank(t)
	for _, c := range []struct {
		minSim, threshold float32
		why               classify.Reason
	}{{2, 0, classify.TooFar}, {-2, 2, classify.TooClose}} {
		b.c.MinSimilarity, b.c.Threshold, b.c.MaxNone, b.c.KindLead = c.minSim, c.threshold, 0, -1
		ts, err := b.LeaveOneSetOut([]uint64{1})
		if err != nil {
			t.Fatal(err)
		}
		for _, tr := range ts {
			if tr.Enrolment != Own {
				continue
			}
			asked := 0
			for _, a := range tr.Asked {
				if a.Why != c.why || !slices.Contains(testFaces, a.Face) {
					t.Errorf("%s own, nothing known (%v): asked %+v", tr.Set, c.why, a)
				}
				asked += a.Count
			}
			// its own crops name every other crop right (TestLeaveOneSetOut), none known; every
			// flower is enrolled, so none is tested
			if asked != tr.N || len(tr.Asked) != len(testFaces)-1 {
				t.Errorf("%s own (%v): %d asked over %d faces, want all %d crops, every face", tr.Set, c.why, asked, len(tr.Asked), tr.N)
			}
		}
		for _, s := range SummariseSets(ts) {
			if s.Set == "all" && s.Enrolment == Own {
				asked := 0
				for _, a := range s.Asked {
					asked += a.Count
				}
				if asked != s.N {
					t.Errorf("all sets own (%v): %d asked, want %d", c.why, asked, s.N)
				}
			}
		}
	}
}

// A face left out is left out everywhere: with every answer taken as known it is never named
// right, with none taken it is always unknown, and the network's face classes alone (KindLead)
// answer each drawn face unknown when it is left out.
func TestLeaveOneFaceOut(t *testing.T) {
	b := newBank(t)
	b.c.MinSimilarity, b.c.MaxNone, b.c.Threshold, b.c.KindLead = -2, 0, 0, -1
	fs, err := b.LeaveOneFaceOut([]uint64{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 2*len(Enrolments)*len(testFaces) {
		t.Fatalf("%d face trials, want one a set, enrolment and face: %d", len(fs), 2*len(Enrolments)*len(testFaces))
	}
	for _, f := range fs {
		// every crop of the face in the set, at 4 rotations, on each seed
		n := 3 * 4 * len(seedsFor(f.Enrolment, []uint64{1, 2}))
		if f.N != n || f.Set == "" {
			t.Errorf("%s %v %v: %d crops, want %d", f.Set, f.Enrolment, f.Face, f.N, n)
		}
		if f.Top1 != 0 || f.Unknown != 0 || f.WrongKnown != 1 || len(f.Taken) == 0 {
			t.Errorf("%s %v %v, all known: %+v; want every crop named as another face", f.Set, f.Enrolment, f.Face, f.Tally)
		}
	}
	sum := SummariseFaces(fs)
	if len(sum) != len(Enrolments)*len(testFaces) {
		t.Fatalf("%d summaries, want one an enrolment and face", len(sum))
	}
	for _, f := range sum {
		if n := 2 * 3 * 4 * len(seedsFor(f.Enrolment, []uint64{1, 2})); f.N != n || strings.Join(f.Sets, "") != "XY" || f.WrongKnown != 1 {
			t.Errorf("%v %v: %+v of sets %v, want %d crops of X and Y, all named wrongly", f.Enrolment, f.Face, f.Tally, f.Sets, n)
		}
	}
	for _, open := range []struct {
		what         string
		minSim, lead float32
	}{{"none known", 2, -1}, {"only the face classes", -2, 0}} {
		b.c.MinSimilarity, b.c.KindLead = open.minSim, open.lead
		if fs, err = b.LeaveOneFaceOut([]uint64{1, 2}); err != nil {
			t.Fatal(err)
		}
		for _, f := range fs {
			if f.Unknown != 1 {
				t.Errorf("%s %v %v, %s: %+v; want every crop unknown", f.Set, f.Enrolment, f.Face, open.what, f.Tally)
			}
		}
	}
}

// Non-tile crops are answered against every set's enrolments and seeds.
func TestRejectNonTiles(t *testing.T) {
	b := newBank(t)
	grey := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(90, 90, 90, 0), 80, 60, gocv.MatTypeCV8UC3)
	defer grey.Close()
	rs, err := b.RejectNonTiles(map[string][]gocv.Mat{"grey": {grey}}, []uint64{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2*len(Enrolments) {
		t.Fatalf("%d rows, want grey and all for each enrolment: %+v", len(rs), rs)
	}
	for _, r := range rs {
		n := 2 * 3 * 4 // sets x seeds x rotations
		if r.Enrolment == Others {
			n = 2 * 4
		}
		if r.N != n || r.Rejected != 1 || r.Worst != 1 {
			t.Errorf("%+v: want %d crops, all rejected", r, n)
		}
	}
}
