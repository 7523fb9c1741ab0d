package daemon

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/hw/build"
	"github.com/siamesetable/siamesed/hw/enroll"
	"github.com/siamesetable/siamesed/hw/loadcell"
	"github.com/siamesetable/siamesed/hw/rack"
	"github.com/siamesetable/siamesed/hw/simtable"
	"github.com/siamesetable/siamesed/internal/clock"
)

// enrolTable is a quiet simulated table whose racks know only the tags enrolled in the data
// directory (sim.tags: enrol), and the simulated table under them, for a test's hands.
func enrolTable(t *testing.T, dir string) (string, *simtable.Table) {
	t.Helper()
	cfg := quietTable()
	cfg.Sim.Tags = "enrol"
	return simDaemon(t, dir, cfg)
}

// simDaemon runs a daemon on a simulated table and hands the table over.
func simDaemon(t *testing.T, dir string, cfg Config) (string, *simtable.Table) {
	t.Helper()
	got := make(chan *simtable.Table, 1)
	addr, _ := runDaemonOptions(t, cfg, Options{DataDir: dir, Log: testLog(), SimTable: func(tb *simtable.Table) { got <- tb }})
	select {
	case tb := <-got:
		return addr, tb
	default:
		t.Fatal("the daemon did not hand its simulated table over")
		return "", nil
	}
}

// hand is a person enrolling tiles at the simulated table: it takes a tile of the face asked
// for that it has not shown yet, sets it on the walk's reader and lifts it once it is read.
type hand struct {
	t      testing.TB
	table  *simtable.Table
	rack   string
	reader string
	mu     sync.Mutex
	shown  map[string]bool
	placed string
}

func newHand(t testing.TB, tb *simtable.Table, reader string) *hand {
	r, slot, _ := strings.Cut(reader, "/")
	return &hand{t: t, table: tb, rack: r, reader: slot, shown: map[string]bool{}}
}

// place sets down a tile of face f not shown before and returns its tag.
func (h *hand) place(face string) string {
	h.t.Helper()
	f, err := tile.Parse(face)
	if err != nil {
		h.t.Fatalf("the page asks for %q: %v", face, err)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, u := range h.table.Tags(f) {
		if !h.shown[u] {
			if err := h.table.PutTag(h.rack, h.reader, u); err != nil {
				h.t.Fatal(err)
			}
			h.shown[u], h.placed = true, u
			return u
		}
	}
	h.t.Fatalf("every %s was shown already", face)
	return ""
}

// again sets down a tile shown before (a duplicate).
func (h *hand) again(uid string) {
	h.t.Helper()
	if err := h.table.PutTag(h.rack, h.reader, uid); err != nil {
		h.t.Fatal(err)
	}
	h.placed = uid
}

// lift takes the tile set down last off the reader.
func (h *hand) lift() {
	h.t.Helper()
	if err := h.table.TakeTag(h.placed); err != nil {
		h.t.Fatal(err)
	}
}

// racksNow is GET /api/setup/racks.
func (o *owner) racksNow() map[string]any {
	o.t.Helper()
	code, out := o.call("GET", "api/setup/racks", nil)
	if code != 200 {
		o.t.Fatalf("GET racks: %d %v", code, out)
	}
	return out
}

func (o *owner) racksUntil(what string, cond func(map[string]any) bool) map[string]any {
	o.t.Helper()
	deadline := time.Now().Add(waitFor)
	for {
		out := o.racksNow()
		if cond(out) {
			return out
		}
		if time.Now().After(deadline) {
			o.t.Fatalf("waiting for %s: enrolment %v", what, out["enrolment"])
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func walkState(out map[string]any) map[string]any {
	return out["enrolment"].(map[string]any)["walk"].(map[string]any)
}

// readerLive is one reader's live entry.
func readerLive(t testing.TB, out map[string]any, name string) map[string]any {
	t.Helper()
	r, slot, _ := strings.Cut(name, "/")
	for _, z := range out["zones"].([]any) {
		z := z.(map[string]any)
		if z["rack"] != r {
			continue
		}
		for _, rd := range z["readers"].([]any) {
			if rd := rd.(map[string]any); rd["reader"] == slot {
				return rd
			}
		}
	}
	t.Fatalf("no reader %s live", name)
	return nil
}

// TestRacksOnTheSimulatedTable: the Racks section on simulated racks read by the real drivers:
// all 8 zones live, every reader with its read rate, every zone weighed; a tile nobody enrolled
// is shown without a face; the enrolment walk on the first reader takes a rack's worth of tiles
// (19), each the face the page asked for, with one call to start and none per tile; a tag
// already enrolled is named, the file does not change, and, left lying, it is not read as a
// tile dealt (the tracker does not follow the racks while the walk runs); stopped and started again, it goes
// on; every tag in the file is the face its tile really is; no act is recorded meanwhile; an
// enrolled tile left on the rack when the walk stops reaches the tracker then.
func TestRacksOnTheSimulatedTable(t *testing.T) {
	t.Parallel() // mostly waiting (on the racks' scans): run beside the other such tests
	dir := t.TempDir()
	addr, tb := enrolTable(t, dir)
	o := logIn(t, "http://"+addr+"/", dir)
	out := o.racksUntil("every zone live", func(out map[string]any) bool { return len(out["zones"].([]any)) == 8 })
	for _, z := range out["zones"].([]any) {
		z := z.(map[string]any)
		if n := len(z["readers"].([]any)); n != 15 && n != 4 || z["weight"] == nil {
			t.Fatalf("zone %s/%s: %d readers, weight %v", z["rack"], z["zone"], n, z["weight"])
		}
	}
	readers := out["readers"].([]any)
	if len(readers) != 76 || readers[0] != "p1a/in-00@mux70.0" {
		t.Fatalf("readers %v", readers)
	}
	if en := out["enrolment"].(map[string]any); en["can"] != true || !strings.HasPrefix(en["file"].(string), dir) {
		t.Fatalf("the enrolment: %v", en)
	}

	// A tile nobody enrolled, on p1b.
	stray := newHand(t, tb, "p1b/in-04@mux73.4")
	uid := stray.place("9D")
	out = o.racksUntil("the stray tile", func(out map[string]any) bool {
		return len(readerLive(t, out, "p1b/in-04@mux73.4")["tiles"].([]any)) == 1
	})
	if tl := readerLive(t, out, "p1b/in-04@mux73.4")["tiles"].([]any)[0].(map[string]any); tl["uid"] != uid || tl["face"] != nil {
		t.Fatalf("a tile nobody enrolled: %v", tl)
	}
	stray.lift()

	h := newHand(t, tb, "p1a/in-00@mux70.0")
	h.shown[uid] = true // lying aside: not to be enrolled now
	if code, out := o.call("POST", "api/setup/racks/enrol/start", map[string]string{}); code != 200 || out["reader"] != "p1a/in-00@mux70.0" {
		t.Fatalf("start: %d %v", code, out)
	}
	calls := 1
	walkTiles(t, o, h, 19, nil)
	before, err := os.ReadFile(rackTagsFile(dir))
	if err != nil {
		t.Fatal(err)
	}
	first := ""
	for u := range h.shown {
		if f, ok := tb.Enrolment().Face(u); ok && f == 0 && u != uid {
			first = u
			break
		}
	}
	h.again(first)
	out = o.racksUntil("the duplicate named", func(out map[string]any) bool { return walkState(out)["problem"] == true })
	if msg := walkState(out)["message"].(string); !strings.Contains(msg, first+" is already enrolled, as 1B") {
		t.Fatalf("a duplicate: %q", msg)
	}
	// Left lying past the racks' settle and the tracker's grace, the enrolled tile is no tile
	// dealt: the tracker does not follow the racks while the walk runs.
	time.Sleep(3 * time.Second)
	if _, st := o.call("GET", "api/setup/status", nil); st["playing"].(map[string]any)["acts"] != 0.0 || walkState(o.racksNow())["running"] != true {
		t.Fatalf("a duplicate left on the reader during the walk: %v, the walk %v", st["playing"], walkState(o.racksNow()))
	}
	h.lift()
	// The racks must read the tile gone before the walk stops: the readings held during the
	// walk reach the tracker at stop, and one still showing the duplicate would be a tile
	// dealt, a game begun, and the resume refused (seen once in CI).
	time.Sleep(1500 * time.Millisecond)
	if after, _ := os.ReadFile(rackTagsFile(dir)); string(after) != string(before) {
		t.Fatal("a duplicate tag changed the enrolment file")
	}
	if code, out := o.call("POST", "api/setup/racks/enrol/stop", map[string]any{}); code != 200 || out["running"] != false || out["done"] != 19.0 {
		t.Fatalf("stop: %d %v", code, out)
	}
	if code, out := o.call("POST", "api/setup/racks/enrol/start", map[string]string{"reader": "p1a/in-00@mux70.0"}); code != 200 {
		t.Fatalf("resume: %d %v", code, out)
	}
	calls += 2
	walkTiles(t, o, h, 2, nil)
	t.Logf("page actions: %d for %d tiles (start, stop, start again)", calls, 21)

	store, err := enroll.Open(rackTagsFile(dir), tile.American())
	if err != nil {
		t.Fatal(err)
	}
	if done, _ := store.Progress(); done != 21 {
		t.Fatalf("%d tags in the file, want 21", done)
	}
	for u := range h.shown {
		f, ok := store.Face(u)
		if u == uid {
			if ok {
				t.Errorf("the stray tile %s was enrolled", u)
			}
			continue
		}
		if truth, _ := tb.Enrolment().Face(u); !ok || f != truth {
			t.Errorf("tag %s enrolled as %v (%v), its tile is %v", u, f, ok, truth)
		}
	}
	_, st := o.call("GET", "api/setup/status", nil)
	if p := st["playing"].(map[string]any); p["acts"] != 0.0 {
		t.Errorf("acts recorded during the walk: %v", p)
	}
	for _, c := range st["checks"].([]any) {
		if c := c.(map[string]any); c["name"] == "Racks" && (c["ready"] != false || !strings.HasPrefix(c["text"].(string), "21 of 152 tags enrolled")) {
			t.Errorf("the racks' readiness: %v", c)
		}
	}

	// An enrolled tile left on the rack when the walk stops: the tracker is handed the racks as
	// they are, and reads it as a tile dealt.
	h.again(first)
	o.racksUntil("the duplicate named again", func(out map[string]any) bool { return walkState(out)["problem"] == true })
	if code, out := o.call("POST", "api/setup/racks/enrol/stop", map[string]any{}); code != 200 {
		t.Fatalf("stop: %d %v", code, out)
	}
	deadline := time.Now().Add(waitFor)
	for {
		_, st := o.call("GET", "api/setup/status", nil)
		if st["playing"].(map[string]any)["acts"].(float64) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the tile left on the rack never reached the tracker: %v", st["playing"])
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// walkTiles places n tiles as the walk asks, each lifted once the page names it enrolled;
// each is checked against the live view of the reader. onEach, if set, hears each tile.
func walkTiles(t *testing.T, o *owner, h *hand, n int, onEach func(int)) {
	t.Helper()
	for i := range n {
		out := o.racksUntil("the prompt", func(out map[string]any) bool {
			w := walkState(out)
			return w["running"] == true && strings.HasPrefix(w["message"].(string), "place a ")
		})
		w := walkState(out)
		face, done := w["next"].(string), w["done"].(float64)
		u := h.place(face)
		out = o.racksUntil(fmt.Sprintf("tile %d (%s %s)", i, face, u), func(out map[string]any) bool { return walkState(out)["done"].(float64) == done+1 })
		if last := walkState(out)["last"].(map[string]any); last["uid"] != u || last["face"] != face {
			t.Fatalf("tile %d: the page says %v, the hand placed %s %s", i, last, face, u)
		}
		// The tile lifted before may still be judged there (a few polls): the new one is
		// listed last, with its face.
		live := readerLive(t, out, h.rack+"/"+h.reader)["tiles"].([]any)
		if tl := live[len(live)-1].(map[string]any); tl["uid"] != u || tl["face"] != face {
			t.Fatalf("tile %d, live: %v", i, live)
		}
		h.lift()
		if onEach != nil {
			onEach(i)
		}
	}
}

func rackTagsFile(dir string) string { return dir + "/tags.yaml" }

// TestRacksSimTagsWaitForVirtualPlayers: sim.tags: enrol with virtual players is taken; the
// players do not deal while the racks' tags are not all enrolled (they would play tiles the
// racks cannot name), nor, once they are, while a tile still lies on a rack; then they deal.
// At five times life speed, two seconds are some 25 of their moves. TestFirstHourInABrowser
// has them deal once the walk on the set-up page has enrolled every tag.
func TestRacksSimTagsWaitForVirtualPlayers(t *testing.T) {
	cfg, err := ParseConfig("t.yaml", []byte("sim:\n  tags: enrol\n"))
	if err != nil {
		t.Fatal(err)
	}
	live := liveConfig()
	live.Sim.Tags, live.Sim.Pace, live.Sim.Speed = cfg.Sim.Tags, Defaults().Sim.Pace, 5
	dealt := func(tb *simtable.Table) int {
		n := 0
		for _, r := range tb.Racks() {
			for _, z := range rack.Zones {
				c, err := tb.Contents(r, z)
				if err != nil {
					t.Fatal(err)
				}
				n += c.Total()
			}
		}
		return n
	}
	dir := t.TempDir()
	var tags map[string]tile.Face
	t.Run("none enrolled", func(t *testing.T) {
		_, tb := simDaemon(t, dir, live)
		time.Sleep(2 * time.Second)
		if n := dealt(tb); n != 0 {
			t.Fatalf("virtual players dealt before the tags were enrolled: %d tiles on the racks", n)
		}
		tags = map[string]tile.Face{}
		for f := range tile.Face(tile.NumFaces) {
			for _, u := range tb.Tags(f) {
				tags[u] = f
			}
		}
	})
	// Every tag enrolled (the same seed, the same tags), and a tile left lying on p1a.
	store, err := enroll.Open(rackTagsFile(dir), tile.American())
	if err != nil {
		t.Fatal(err)
	}
	for u, f := range tags {
		if err := store.Add(u, f); err != nil {
			t.Fatal(err)
		}
	}
	got := make(chan *simtable.Table, 1)
	runDaemonOptions(t, live, Options{DataDir: dir, Log: testLog(), SimTable: func(tb *simtable.Table) {
		// Before the table loop starts: the players have not had a step.
		if err := tb.PutTag("p1a", "in-00@mux70.0", tb.Tags(tile.Joker)[0]); err != nil {
			t.Error(err)
		}
		got <- tb
	}})
	tb := <-got
	time.Sleep(2 * time.Second)
	if n := dealt(tb); n != 1 {
		t.Fatalf("virtual players dealt with a tile lying on a rack: %d tiles on the racks", n)
	}
	if err := tb.TakeTag(tb.Tags(tile.Joker)[0]); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(waitFor)
	for dealt(tb) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the virtual players do not deal once every tag is enrolled and the racks are clear")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestRacksCalibratedOnTheSimulatedTable: a zone of the simulated racks, read by the real HX711
// driver on its emulated chip, is tared (refused while a hand rests on the rack), then saved
// with a known weight of 200 g laid on it: the scale found is the cell's own within 1%, the
// live weight reads the 200 g, and the calibration is saved to calibration.yaml in the data
// directory, as real racks' is, where the racks' next start reads it.
func TestRacksCalibratedOnTheSimulatedTable(t *testing.T) {
	dir := t.TempDir()
	addr, tb := simDaemon(t, dir, quietTable())
	o := logIn(t, "http://"+addr+"/", dir)
	const tare, save = "api/setup/racks/cells/p1a/on/tare", "api/setup/racks/cells/p1a/on/save"
	if err := tb.SetHand("p1a", true); err != nil {
		t.Fatal(err)
	}
	if code, out := o.call("POST", tare, map[string]any{}); code != 422 || !strings.Contains(out["error"].(string), "not steady") {
		t.Fatalf("tare under a hand: %d %v", code, out)
	}
	if err := tb.SetHand("p1a", false); err != nil {
		t.Fatal(err)
	}
	if code, out := o.call("POST", tare, map[string]any{}); code != 200 {
		t.Fatalf("tare: %d %v", code, out)
	}
	if err := tb.SetWeight("p1a", rack.On, 200); err != nil {
		t.Fatal(err)
	}
	code, out := o.call("POST", save, map[string]any{"grams": 200})
	file := filepath.Join(dir, "calibration.yaml")
	if code != 200 || out["file"] != file || !strings.Contains(out["message"].(string), "saved to "+file) {
		t.Fatalf("save: %d %v, want it saved to %s", code, out, file)
	}
	truth, _ := tb.Calibrations().Get("p1a", rack.On)
	got := out["calibration"].(map[string]any)
	if cpg := got["counts_per_gram"].(float64); cpg < truth.CountsPerGram*0.99 || cpg > truth.CountsPerGram*1.01 {
		t.Fatalf("calibrated %v, the cell is %+v", got, truth)
	}
	o.racksUntil("the zone weighing 200 g", func(out map[string]any) bool {
		for _, z := range out["zones"].([]any) {
			z := z.(map[string]any)
			if z["rack"] == "p1a" && z["zone"] == "on" {
				g := z["weight"].(map[string]any)["grams"].(float64)
				return g > 197 && g < 203
			}
		}
		return false
	})
	// The racks' next start reads the calibration saved; the zones not calibrated keep the
	// simulated table's own.
	saved := loadcell.Calibration{Offset: int32(got["offset"].(float64)), CountsPerGram: got["counts_per_gram"].(float64)}
	again, err := buildRig(quietTable(), tile.American(), dir, clock.Real{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if c := again.Cells[rack.Key{Rack: "p1a", Zone: rack.On}].Calibration(); c != saved {
		t.Errorf("started again, p1a/on reads with %+v, want the calibration saved, %+v", c, saved)
	}
	if c, own := again.Cells[rack.Key{Rack: "p1b", Zone: rack.On}].Calibration(), again.table.Calibrations()["p1b"][rack.On]; c != own {
		t.Errorf("started again, p1b/on reads with %+v, want the table's own %+v", c, own)
	}
}

// TestRacksOnRealLoadCells: real racks (the loadcell-rack profile, on a host whose pins are a
// simulated table's emulated HX711s) with no enrolment file: no tag is named and the page says
// why it cannot enrol; a zone's load cell is read between scans and its calibration saved to
// the profile's calibration file in the data directory, which the next start reads.
func TestRacksOnRealLoadCells(t *testing.T) {
	dir := t.TempDir()
	p, _, err := LoadProfile("loadcell-rack")
	if err != nil {
		t.Fatal(err)
	}
	tb, err := simtable.New(p, simtable.Options{Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	cfg := Defaults()
	cfg.Hardware = "loadcell-rack"
	rg, err := buildRig(cfg, tile.American(), dir, clock.Real{}, func() (build.Host, error) { return tb.Host(), nil })
	if err != nil {
		t.Fatal(err)
	}
	defer rg.Close()
	d := &daemon{cfg: cfg, rig: rg, ctx: t.Context(), clk: clock.Real{}}
	d.monitor = rg.Monitor(d.clk)
	r := d.newSetupRacks()
	if _, ok := r.Face("04:00:00:01"); ok {
		t.Fatal("racks with no enrolment named a tag")
	}
	if tags := r.Tags(); tags.Walk != nil || !strings.Contains(tags.Why, "names no enrolment file") {
		t.Fatalf("tags: %+v", tags)
	}
	truth, _ := tb.Calibrations().Get("p1b", rack.On)
	rs, err := r.ReadCell("p1b/on", 3)
	if err != nil || len(rs) != 3 || rs[0] < truth.Offset-1000 || rs[0] > truth.Offset+1000 {
		t.Fatalf("readings %v %v, the empty cell reads about %d", rs, err, truth.Offset)
	}
	if _, err := r.ReadCell("p9z/on", 3); err == nil {
		t.Fatal("a zone with no cell was read")
	}
	file, why, err := r.SaveCell("p1b/on", truth)
	if err != nil || file != dir+"/calibration.yaml" || why != "" {
		t.Fatalf("saved to %q (%q): %v", file, why, err)
	}
	_, cals, err := build.UserData(p, tile.American(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := cals.Get("p1b", rack.On); !ok || got != truth || len(cals) != 1 {
		t.Fatalf("the file holds %v", cals)
	}
}
