package rack

import (
	"math"
	"slices"
	"testing"

	"github.com/siamesetable/siamesed/engine/tile"
)

func TestRunFor(t *testing.T) {
	for _, tc := range []struct {
		p, delta float64
		want     int
	}{
		{1, 1e-9, 2},          // a tag that is always read: still never one miss
		{0.999999, 1e-9, 2},   // (1e-6)^2 < 1e-9
		{0.998, 1e-9, 4},      // the simulated table's default loss: 0.002^4 = 1.6e-11
		{0.8, 1e-9, 13},       // 0.2^13 = 8.2e-10, 0.2^12 = 4.1e-9
		{0.5, 1e-9, 30},       // 2^-30 = 9.3e-10
		{0.8, 1e-3, 5},        // SMURF's looser δ
		{0.001, 1e-9, MaxRun}, // a reader that reads nothing: bounded
		{0, 1e-9, MaxRun},
	} {
		if got := RunFor(tc.p, tc.delta); got != tc.want {
			t.Errorf("RunFor(%g, %g) = %d, want %d", tc.p, tc.delta, got, tc.want)
		}
		if k := RunFor(tc.p, tc.delta); k < MaxRun && k > 2 && math.Pow(1-tc.p, float64(k)) >= tc.delta {
			t.Errorf("RunFor(%g, %g) = %d: (1-p)^k = %g is not under δ", tc.p, tc.delta, k, math.Pow(1-tc.p, float64(k)))
		}
	}
}

// train plays n scans in which reader 0 reads tag 5B at every poll, or misses one poll in
// every (when every > 0), with no load cell; the last scan reads it.
func train(s *script, n, every int) {
	for i := range n {
		if every > 0 && i%every == every-1 && i < n-1 {
			s.scan("")
		} else {
			s.scan("5B")
		}
	}
}

// TestDepartureWaitsForTheRun pins SMURF's rule (with no load cell to say otherwise): a tag
// present is judged gone only after k polls in a row without it, (1-p)^k < δ for its estimated
// read rate p: a few polls for a reader that reads every poll, at least 13 for one that misses
// one poll in five (0.2^12 is over δ = 1e-9). One miss short of k, it stays.
func TestDepartureWaitsForTheRun(t *testing.T) {
	for _, tc := range []struct {
		name          string
		every         int
		least, atMost int
	}{
		{"a reader that reads every poll", 0, 2, 5},
		{"a reader that misses one poll in five", 5, 13, 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newScript(t, Params{})
			train(s, 600, tc.every)
			k := s.z.run(s.tag("5B"))
			if k < tc.least || k > tc.atMost {
				t.Fatalf("k = %d, want %d to %d", k, tc.least, tc.atMost)
			}
			s.scans(k-1, "")
			if tg := s.tag("5B"); tg == nil || !tg.present {
				t.Fatalf("gone after %d misses, k = %d", k-1, k)
			}
			s.scan("5B") // its k-1 misses now count: k is a little longer
			k = s.z.run(s.tag("5B"))
			for i := 1; i <= k; i++ {
				s.scan("")
				if gone := s.tag("5B") == nil; gone != (i == k) {
					t.Fatalf("after %d misses of %d: gone %v", i, k, gone)
				}
			}
		})
	}
}

// TestReadRates: each reader's read rate is estimated from the tags judged present, and a
// reader reading under the warning rate is named failing. The misses of a tag that left are
// not a reader's misses: they are counted only once the tag is read again.
func TestReadRates(t *testing.T) {
	s := newScript(t, Params{})
	for i := range 1000 {
		r1 := "2C"
		if i%5 == 4 {
			r1 = ""
		}
		s.scan("5B | " + r1)
	}
	hs := s.z.Readers()
	if hs[0].ReadRate < 0.99 || hs[0].Failing || hs[0].Tags != 1 {
		t.Errorf("reader reading every poll: %+v", hs[0])
	}
	if hs[1].ReadRate < 0.78 || hs[1].ReadRate > 0.82 || !hs[1].Failing {
		t.Errorf("reader missing one poll in five: %+v, want a read rate of 0.8, failing", hs[1])
	}
	polls := hs[0].Polls
	for range 30 {
		s.scan(" | 2C")
	}
	if s.tag("5B") != nil {
		t.Fatal("5B not judged gone")
	}
	if hs := s.z.Readers(); hs[0].Polls != polls || hs[0].ReadRate < 0.99 {
		t.Errorf("after 5B left: %+v; its misses were counted (%d polls before)", hs[0], polls)
	}
}

// TestNewTagsNeedConsistentReads: a tag read once (a phone passing, a tile carried over the
// rack) is never named and soon forgotten; a new tile is named once its reads make it 1/NewDelta
// times likelier a tile than a ghost that answers a poll in a hundred: three reads at least
// ((p/0.01)^2 < 1e6 for any p); a tag nobody enrolled read at every poll is a phone lying on
// the rack: a fault, never a tile.
func TestNewTagsNeedConsistentReads(t *testing.T) {
	s := newScript(t, Params{})
	s.settled("5B w1", "5B")
	s.scan("5B x9 w1")
	if snaps := s.scans(40, "5B w1"); len(snaps) > 0 {
		t.Fatalf("a ghost read once made %v", snaps)
	}
	if s.tag("x9") != nil {
		t.Fatal("the ghost is not forgotten")
	}
	n := 0
	for n = 1; n < 20; n++ {
		s.scan("5B 2C w2")
		if tg := s.tag("2C"); tg.present {
			break
		}
	}
	if n < 3 || n > 4 {
		t.Fatalf("a new tile named after %d reads, want 3 or 4", n)
	}
	snap := s.settled("5B 2C w2", "5B 2C")
	if len(snap.Came) != 1 || snap.Came[0].Face != tile.Crak2 {
		t.Errorf("came %v", snap.Came)
	}
	snap = s.settled("5B 2C x1 w2", "5B 2C")
	if snap.Quality != Degraded || len(snap.Faults) != 1 || snap.Faults[0].Kind != Unenrolled {
		t.Errorf("a phone lying on the rack: %v %v", snap, snap.Faults)
	}
}

// TestAHandHidesTagsAndTheLoadCellKnows: a hand over the rack hides two tags for a second while
// the load cell weighs the tiles still there: nothing is judged gone, no snapshot leaves. Held
// past BurstHold, the tags are judged gone (the readers are believed over the weight in the end).
// A tile taken shows on the load cell, and its tag is judged gone without waiting.
func TestAHandHidesTagsAndTheLoadCellKnows(t *testing.T) {
	s := newScript(t, Params{})
	s.settled("5B | 6B | 7B w3", "5B 6B 7B")
	train := s.scans(400, "5B | 6B | 7B w3")
	if len(train) > 0 {
		t.Fatalf("nothing changed: %v", train)
	}
	if snaps := s.scans(20, " | | 7B w3"); len(snaps) > 0 || s.tag("5B") == nil {
		t.Fatalf("a hand for a second made %v", snaps)
	}
	if snaps := s.scans(20, "5B | 6B | 7B w3"); len(snaps) > 0 {
		t.Fatalf("after the hand: %v", snaps)
	}
	snap, n := s.until(100, " | | 7B w3")
	if tile.Format(snap.Tiles) != "7B" || snap.Count != 3 || snap.Quality != Disagree || n < int(DefaultBurstHold/s.period) {
		t.Errorf("tags hidden for good: %v after %d scans", snap, n)
	}
	s.settled("5B | 6B | 7B w3", "5B 6B 7B")
	snap, n = s.until(100, "5B | | 7B w2")
	if tile.Format(snap.Tiles) != "5B 7B" || snap.Quality != OK || n > 10 {
		t.Errorf("6B taken: %v after %d scans", snap, n)
	}
}

// TestTheLoadCellSinglesOutTheTileThatLeft: on a reader that misses one poll in five a tag
// alone needs 13 misses in a row or more; when the load cell weighs a tile less and that tag
// is the only one missed since, it is judged gone sooner (Bayes over which tile left, with
// NewDelta).
func TestTheLoadCellSinglesOutTheTileThatLeft(t *testing.T) {
	s := newScript(t, Params{})
	for i := range 801 { // the last scan reads 5B
		r0 := "5B"
		if i%5 == 4 {
			r0 = ""
		}
		s.scan(r0 + " | 6B w2")
	}
	k := s.z.run(s.tag("5B"))
	misses := 0
	for s.tag("5B") != nil && misses < 100 {
		s.scan(" | 6B w1")
		misses++
	}
	if misses >= k || misses < 3 {
		t.Errorf("judged gone after %d misses; k is %d: the load cell did not help", misses, k)
	}
	// Both tags missed since the count fell (one taken, one under a hand): which left is not
	// known, and neither is judged gone by the load cell's word (BurstHold decides).
	s = newScript(t, Params{})
	s.settled("5B | 6B w2", "5B 6B")
	s.scans(400, "5B | 6B w2")
	for range 8 {
		s.scan(" | w1")
	}
	if s.tag("5B") == nil || s.tag("6B") == nil {
		t.Error("a tag judged gone while two were missed and one tile left")
	}
	s.scan(" | 6B w1")
	s.scan(" | 6B w1")
	if s.tag("5B") != nil {
		t.Error("6B read again: 5B not judged gone")
	}
}

// TestReaderDown: a reader failing a poll or two holds the zone; failing DownAfter polls in a
// row it is down: its tags are no longer named and the snapshot names its fault; when it
// answers again its tags are named again at once.
func TestReaderDown(t *testing.T) {
	s := newScript(t, Params{})
	s.settled("5B | 6B w2", "5B 6B")
	for i := 1; i < DownAfter; i++ {
		if _, ok := s.scan("5B | ! w2"); ok || !s.z.Moving() || s.z.down(1) {
			t.Fatalf("after %d failures: a snapshot, or not moving, or down", i)
		}
	}
	snap, _ := s.until(20, "5B | ! w2")
	if snap.Quality != Degraded || tile.Format(snap.Tiles) != "5B" || snap.Count != 2 ||
		len(snap.Faults) != 1 || snap.Faults[0].Reader != "in-1" || snap.Faults[0].Kind != BusError {
		t.Fatalf("reader down: %v %v", snap, snap.Faults)
	}
	snap, n := s.until(20, "5B | 6B w2")
	if snap.Quality != OK || tile.Format(snap.Tiles) != "5B 6B" || n > int(DefaultSettle/s.period)+1 {
		t.Fatalf("reader back: %v after %d scans", snap, n)
	}
	snap, _ = s.until(20, "5B | ? w2")
	if snap.Faults[0].Kind != Silent {
		t.Fatalf("silent reader: %v", snap.Faults)
	}
}

// TestWeightCount pins the load cell's judge: a run of spikes shorter than the run a count
// needs changes nothing, and the count stays current only after its own run (one reading of the
// old count amid a new one is not the count).
func TestWeightCount(t *testing.T) {
	p := Params{}.WithDefaults()
	obs := func(n int) *Observation {
		return &Observation{HasCell: true, Weighed: true, WeightSure: n >= 0, WeightTiles: n}
	}
	var w weightJudge
	feed := func(n, times int) {
		for range times {
			w.observe(obs(n), s0, p)
		}
	}
	feed(3, 200)
	need := RunFor(1-w.spikes.Upper(spikePrior, spikePriorWeight), p.Delta)
	if !w.known || w.value != 3 || !w.current || need < 2 || need > 4 {
		t.Fatalf("after 200 readings of 3: %+v, a count needs %d", w, need)
	}
	feed(4, need-1)
	if w.value != 3 || w.current {
		t.Fatalf("%d readings of 4: %+v", need-1, w)
	}
	feed(3, 1)
	if w.value != 3 || w.current {
		t.Fatalf("back to 3 for one reading: current %v", w.current)
	}
	n := 1 // the readings of 4 were spikes: the next count needs a longer run
	for ; !w.current && n < 20; n++ {
		feed(3, 1)
	}
	if n < need {
		t.Fatalf("3 current again after %d readings, want %d or more", n, need)
	}
	feed(-1, 1)
	if w.current {
		t.Fatal("an unsure reading is current")
	}
	for n = 1; w.value != 5 && n < 20; n++ {
		feed(5, 1)
	}
	if w.value != 5 || !w.current || n < need {
		t.Fatalf("5 taken after %d readings, want %d or more: %+v", n, need, w)
	}
}

// TestMixturesDoNotLeave: the load cell's count lags the tags by a scan (its driver's rolling
// median). A tile lifted and set back before its tag was judged gone must not leave as a
// snapshot naming it while the count has not come back: tags and weight changed unlike each
// other, so the view must have held for Settle since the last decision.
func TestMixturesDoNotLeave(t *testing.T) {
	s := newScript(t, Params{})
	for i := range 600 { // 8C's reader misses one poll in five: 8C is judged gone slowly
		if i%5 == 4 {
			s.scan("5B | w2")
		} else {
			s.scan("5B | 8C w2")
		}
	}
	s.scans(6, "5B | w1") // 8C lifted: the count falls, its tag is missed
	if s.tag("8C") == nil || s.z.weight.value != 1 {
		t.Fatal("the scenario needs 8C not yet judged gone and the count fallen")
	}
	s.scan("5B | 8C w1") // set back: read at once, the count a scan late
	for _, snap := range s.scans(40, "5B | 8C w2") {
		t.Errorf("a snapshot left: %v", snap)
	}
	for _, snap := range s.snaps {
		if snap.Count != snap.TagCount {
			t.Errorf("mixture: %v", snap)
		}
	}
}

// TestNoSnapshotWithATagInDoubt: a tile set down and taken again: whatever the scan it is taken
// at, no snapshot names it once it is gone, though the load cell shows it a scan late (a tag
// missed once on a reader that reads every poll is in doubt: it holds the zone).
func TestNoSnapshotWithATagInDoubt(t *testing.T) {
	for j := 1; j < 16; j++ {
		s := newScript(t, Params{})
		s.settled("5B w1", "5B")
		s.scans(200, "5B w1")
		s.scans(j, "5B 2C w2")
		snaps := s.scans(1, "5B w2") // taken: its tag missed, the count a scan late
		for _, snap := range append(snaps, s.scans(60, "5B w1")...) {
			if tile.Format(snap.Tiles) != "5B" || snap.Count != 1 {
				t.Errorf("2C set down for %d scans: %v after it was taken", j, snap)
			}
		}
	}
}

// TestDatesWhatLeftAndCame: a hand takes a tile from the zone and, a poll later, puts another in,
// before the zone settles: the snapshot dates the tile gone by the first scan that missed it and
// the new one by its first read, so a tracker can tell a throw then a pick from a pick then a
// throw. A first snapshot has nothing to compare with.
func TestDatesWhatLeftAndCame(t *testing.T) {
	s := newScript(t, Params{})
	first := s.settled("1B | 5B w2", "1B 5B")
	if first.Left != nil || first.Came != nil || first.Seq != 1 {
		t.Errorf("first snapshot %v dated %v %v", first, first.Left, first.Came)
	}
	s.scans(200, "1B | 5B w2")
	thrown := s.now
	s.scan("1B | w1")
	picked := s.now
	snap := s.settled("1B | 9C w2", "1B 9C")
	l, c := snap.Left, snap.Came
	if len(l) != 1 || l[0].Face != tile.Bam5 || !l[0].At.Equal(thrown) || len(c) != 1 || c[0].Face != tile.Crak9 || !c[0].At.Equal(picked) {
		t.Errorf("left %v came %v, want 5B at %v and 9C at %v", l, c, thrown, picked)
	}
	if !snap.Since.Equal(picked) || snap.Seq != 2 {
		t.Errorf("since %v seq %d, want %v and 2", snap.Since, snap.Seq, picked)
	}
}

// TestDatesATileOfAFaceThrownAndAnotherPicked: a hand takes the 5B and, before the zone
// settles, puts in a 9C and another 5B: the zone holds as many 5B as before, and the snapshot
// still lists the 5B gone and the 5B come, each dated by its own tag, so that the tracker dates
// the pick by the new tile and not by the one thrown (real-rack seed 318 with camera: sim: a
// 4C thrown and a 4C picked after the other seat's turn was played as a pick out of turn, and
// every act after it was out of turn too).
func TestDatesATileOfAFaceThrownAndAnotherPicked(t *testing.T) {
	s := newScript(t, Params{})
	s.settled("1B | 5B w2", "1B 5B")
	s.scans(200, "1B | 5B w2")
	thrown := s.now
	s.scan("1B | w1")
	picked := s.now
	snap := s.settled("1B 9C | 5B' w3", "1B 5B 9C")
	if l := snap.Left; len(l) != 1 || l[0].Face != tile.Bam5 || !l[0].At.Equal(thrown) {
		t.Errorf("left %v, want 5B at %v", l, thrown)
	}
	want := []Dated{{Face: tile.Bam5, At: picked}, {Face: tile.Crak9, At: picked}}
	if !slices.Equal(snap.Came, want) {
		t.Errorf("came %v, want %v", snap.Came, want)
	}
}

// TestDatesNoTileOnAReaderDown: a 9C read on a reader that then goes down is not named by the
// snapshot, and is not listed as come either.
func TestDatesNoTileOnAReaderDown(t *testing.T) {
	s := newScript(t, Params{})
	s.settled("1B | 5B", "1B 5B")
	s.scans(200, "1B | 5B")
	for i := 0; s.tag("9C") == nil || !s.tag("9C").present; i++ {
		if i == 20 {
			t.Fatal("the 9C read 20 polls is not judged present")
		}
		if _, ok := s.scan("1B | 5B 9C"); ok {
			t.Fatal("a snapshot left while the 9C was judged")
		}
	}
	snap := s.settled("1B | !", "1B")
	if len(snap.Came) != 0 {
		t.Errorf("came %v, want nothing: the 9C's reader is down", snap.Came)
	}
}

// TestDatesWhatCameByTheTagsNewSinceTheLastSnapshot: an E read at the last snapshot misses enough
// polls to be judged gone and is read again (a weak reader), and a second E is put in later,
// before the zone settles: the snapshot dates the E that came by the second's first read, not by
// the first's return (real-rack seed 3: a pick of a third E dated 2.5 s early by its
// neighbour's flap went before a pick and throw the camera had seen).
func TestDatesWhatCameByTheTagsNewSinceTheLastSnapshot(t *testing.T) {
	s := newScript(t, Params{})
	s.settled("E | 5B", "5B E")
	s.scans(200, "E | 5B")
	for i := 0; s.tag("E") != nil; i++ {
		if i == 100 {
			t.Fatal("the E missed 100 polls and is still judged present")
		}
		if _, ok := s.scan(" | 5B"); ok {
			t.Fatal("a snapshot left while the E was out")
		}
	}
	if snaps := s.scans(4, "E | 5B"); len(snaps) != 0 {
		t.Fatalf("the E back: %v", snaps)
	}
	picked := s.now
	snap := s.settled("E | 5B E'", "5B E E")
	if len(snap.Came) != 1 || snap.Came[0].Face != tile.East || !snap.Came[0].At.Equal(picked) {
		t.Errorf("came %v, want E at %v", snap.Came, picked)
	}
}

// TestConfidence: a tag missed on a reader that reads every poll is soon in doubt, listed
// undecided, and the snapshot's confidence falls; a tag missed on a poor reader is in doubt only
// after more misses; where the load cell weighs a tile less, at once.
func TestConfidence(t *testing.T) {
	s := newScript(t, Params{})
	for i := range 601 {
		r1 := "2C"
		if i%5 == 4 {
			r1 = ""
		}
		s.scan("5B | " + r1)
	}
	c, u := s.z.confidence()
	if c != 1 || len(u) != 0 {
		t.Fatalf("all read: confidence %v undecided %v", c, u)
	}
	s.scan(" | 2C")
	c, u = s.z.confidence()
	if c > 0.95 || len(u) != 1 || u[0] != tile.Bam5 {
		t.Errorf("5B missed once on a reader that reads every poll: confidence %v undecided %v", c, u)
	}
	s.scan("5B | ")
	c, u = s.z.confidence()
	if c < 0.99 || len(u) != 0 {
		t.Errorf("2C missed once on a reader that reads four polls in five: confidence %v undecided %v", c, u)
	}
	for range 3 {
		s.scan("5B | ")
	}
	if c, u = s.z.confidence(); c > 0.95 || len(u) != 1 || u[0] != tile.Crak2 {
		t.Errorf("2C missed four times: confidence %v undecided %v", c, u)
	}
	if d := s.z.doubt(s.tag("5B")); d != 0 {
		t.Errorf("5B read: doubt %v", d)
	}
}

// TestReweighedUntilASnapshotShowsIt: a zone is reweighed from the readings that change its
// count to the snapshot that shows the change, even while no tag can be judged gone (a tile
// taken and its neighbour hidden by the hand: which left is not known), and never for a hand
// that hides tags and takes nothing.
func TestReweighedUntilASnapshotShowsIt(t *testing.T) {
	s := newScript(t, Params{})
	s.settled("5B | 6B w2", "5B 6B")
	s.scans(400, "5B | 6B w2")
	if s.z.Reweighed() {
		t.Fatal("a settled zone is reweighed")
	}
	s.scans(8, " | w2")
	if s.z.Reweighed() {
		t.Fatal("a hand that took nothing made the zone reweighed")
	}
	s.scans(40, "5B | 6B w2")
	if snaps := s.scans(8, " | w1"); len(snaps) > 0 || !s.z.Reweighed() {
		t.Fatalf("a tile taken, its neighbour hidden: reweighed %v, snapshots %v; want reweighed, none", s.z.Reweighed(), snaps)
	}
	snap, n := s.until(10, " | 6B w1")
	if tile.Format(snap.Tiles) != "6B" || s.z.Reweighed() {
		t.Errorf("6B read again: %v after %d scans, reweighed %v; want 6B and not reweighed", snap, n, s.z.Reweighed())
	}
	// A tag judged come that the load cell does not weigh (a tile's tag stuck under the rack):
	// the zone is changed, not reweighed.
	s.scans(400, " | 6B w1")
	for range 5 {
		if _, ok := s.scan("5B | 6B w1"); ok || s.z.cur != s.z.last {
			break
		}
	}
	if s.z.cur == s.z.last || s.z.Reweighed() {
		t.Errorf("5B read again, no tile weighed: changed %v, reweighed %v; want changed, not reweighed", s.z.cur != s.z.last, s.z.Reweighed())
	}
}

// TestChangingIsALikelyChange pins Changing against Moving: on a reader that reads most polls,
// one miss puts the tag in doubt (Moving) but does not make it likelier gone than present
// (not Changing); a few misses in a row do, well before the run that judges it gone, so a
// tracker waiting on Changing waits for a tile in flight and not for a tag flapping.
func TestChangingIsALikelyChange(t *testing.T) {
	s := newScript(t, Params{})
	train(s, 600, 20) // reads 95% of polls
	if s.z.Moving() || s.z.Changing() {
		t.Fatalf("a settled zone: moving %v, changing %v", s.z.Moving(), s.z.Changing())
	}
	s.scan("")
	if !s.z.Moving() || s.z.Changing() {
		t.Fatalf("one miss: moving %v, changing %v; want moving, not changing", s.z.Moving(), s.z.Changing())
	}
	k := s.z.run(s.tag("5B"))
	misses := 1
	for ; misses < k && !s.z.Changing(); misses++ {
		s.scan("")
	}
	if !s.z.Changing() || misses > k/2 {
		t.Fatalf("changing %v after %d misses; want it within %d (half the run of %d that judges it gone)", s.z.Changing(), misses, k/2, k)
	}
	s.scan("5B") // read again: it never left
	if s.z.Changing() {
		t.Fatal("a tag read again still makes its zone changing")
	}
}
