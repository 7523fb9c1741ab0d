package setup

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/hw/enroll"
	"github.com/siamesetable/siamesed/hw/rack"
	"github.com/siamesetable/siamesed/internal/clock"
)

// fakeRacks is one rack zone with two readers: in-00, which a test's hand sets tiles on, and
// in-01, which reads a tag nobody enrolled; and a load cell.
type fakeRacks struct {
	mu    sync.Mutex
	field []string
	store *enroll.Store
	walk  *enroll.Walk
	file  string
}

func (f *fakeRacks) set(uids ...string) {
	f.mu.Lock()
	f.field = uids
	f.mu.Unlock()
}

func (f *fakeRacks) ReadTags() ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.field...), nil
}

func (f *fakeRacks) Live() []rack.LiveZone {
	uids, _ := f.ReadTags()
	return []rack.LiveZone{{Rack: "p1a", Zone: rack.In, Readers: []rack.LiveReader{
		{ReaderHealth: rack.ReaderHealth{Reader: "in-00", ReadRate: 0.99, Tags: len(uids)}, UIDs: append([]string{}, uids...)},
		{ReaderHealth: rack.ReaderHealth{Reader: "in-01", ReadRate: 0.62, Tags: 1, Failing: true}, UIDs: []string{"04:EE:EE:EE"}},
	}, Weight: &rack.LiveWeight{Grams: 28.3, Sure: true, Tiles: 2}}}
}
func (f *fakeRacks) Face(uid string) (tile.Face, bool) { return f.store.Face(uid) }
func (f *fakeRacks) Readers() []string                 { return []string{"p1a/in-00", "p1a/in-01"} }
func (f *fakeRacks) Reader(name string) (rack.TagReader, error) {
	if name != "p1a/in-00" {
		return nil, fmt.Errorf("fake: no hand at %s", name)
	}
	return f, nil
}
func (f *fakeRacks) Tags() Tags { return Tags{File: f.file, Walk: f.walk} }

func newRacksHarness(t *testing.T) (*harness, *fakeRacks, *clock.Fake) {
	t.Helper()
	clk := clock.NewFake(time.Unix(0, 0))
	fr := &fakeRacks{file: filepath.Join(t.TempDir(), "tags.yaml")}
	var err error
	if fr.store, err = enroll.Open(fr.file, tile.American()); err != nil {
		t.Fatal(err)
	}
	fr.walk = enroll.NewWalk(fr.store, clk, 50*time.Millisecond)
	t.Cleanup(fr.walk.Stop)
	h := newHarness(t, func(o *Options) { o.Racks = fr; o.Checks = append(o.Checks, RacksCheck(fr)) })
	return h, fr, clk
}

// racksUntil polls GET /api/setup/racks, a scan period of the fake clock at a time, until cond.
func racksUntil(h *harness, cookie string, clk *clock.Fake, what string, cond func(map[string]any) bool) map[string]any {
	h.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, out := h.call("GET", "/api/setup/racks", cookie, nil)
		if resp.StatusCode != 200 {
			h.t.Fatalf("GET racks: %d %v", resp.StatusCode, out)
		}
		if cond(out) {
			return out
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("waiting for %s: %v", what, out)
		}
		if clk.Pending() > 0 {
			clk.Advance(50 * time.Millisecond)
		} else {
			time.Sleep(time.Millisecond)
		}
	}
}

func walkOf(out map[string]any) map[string]any {
	return out["enrolment"].(map[string]any)["walk"].(map[string]any)
}

// TestRacksLiveAndTheEnrolmentWalk: the Racks section needs the owner's session; it shows each
// reader's tags with their faces (none for a tag nobody enrolled), read rate and the zone's
// weight; the walk is refused while a game is in play and on a reader the racks lack; it takes
// each new tag as the face asked for with no call between tiles; a tag already enrolled is
// named and nothing saved changes; the tag enrolled last can be forgotten; a game begun stops it; it is stopped and resumed from the
// file; the readiness line counts the tags.
func TestRacksLiveAndTheEnrolmentWalk(t *testing.T) {
	h, fr, clk := newRacksHarness(t)
	for _, c := range [][2]string{{"GET", "/api/setup/racks"}, {"POST", "/api/setup/racks/enrol/start"}, {"POST", "/api/setup/racks/enrol/stop"}} {
		if resp, out := h.call(c[0], c[1], "", map[string]any{}); resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s %s without the session: %d %v", c[0], c[1], resp.StatusCode, out)
		}
	}
	cookie := h.login()
	_, out := h.call("GET", "/api/setup/racks", cookie, nil)
	zone := out["zones"].([]any)[0].(map[string]any)
	other := zone["readers"].([]any)[1].(map[string]any)
	tiles := other["tiles"].([]any)
	if other["reader"] != "in-01" || other["read_rate"] != 0.62 || other["failing"] != true || len(tiles) != 1 ||
		tiles[0].(map[string]any)["uid"] != "04:EE:EE:EE" || tiles[0].(map[string]any)["face"] != nil {
		t.Fatalf("reader in-01: %v", other)
	}
	if w := zone["weight"].(map[string]any); w["grams"] != 28.3 || w["tiles"] != 2.0 {
		t.Fatalf("the weight: %v", w)
	}
	if en := out["enrolment"].(map[string]any); en["can"] != true || en["file"] != fr.file || walkOf(out)["next"] != "1B" || walkOf(out)["running"] != false {
		t.Fatalf("the enrolment: %v", en)
	}

	// Refused in a game, and on a reader the racks lack.
	h.table.mu.Lock()
	h.table.playing.Game, h.table.playing.Acts = "g7", 12
	h.table.mu.Unlock()
	if resp, out := h.call("POST", "/api/setup/racks/enrol/start", cookie, map[string]string{}); resp.StatusCode != http.StatusConflict ||
		!strings.Contains(out["error"].(string), "a game is in play (game g7, 12 acts)") {
		t.Fatalf("the walk in a game: %d %v", resp.StatusCode, out)
	}
	h.table.mu.Lock()
	h.table.playing.Waiting = true // the game is over: the next not begun
	h.table.mu.Unlock()
	if resp, out := h.call("POST", "/api/setup/racks/enrol/start", cookie, map[string]string{"reader": "p9z/in-00"}); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("an unknown reader: %d %v", resp.StatusCode, out)
	}
	if _, err := os.Stat(fr.file); !os.IsNotExist(err) {
		t.Fatalf("a refused walk wrote the file: %v", err)
	}

	// The walk, on the first reader by default: no call between tiles.
	if resp, out := h.call("POST", "/api/setup/racks/enrol/start", cookie, map[string]string{}); resp.StatusCode != 200 || out["reader"] != "p1a/in-00" {
		t.Fatalf("start: %d %v", resp.StatusCode, out)
	}
	if resp, out := h.call("POST", "/api/setup/racks/enrol/start", cookie, map[string]string{}); resp.StatusCode != http.StatusConflict {
		t.Fatalf("a second start: %d %v", resp.StatusCode, out)
	}
	for i, u := range []string{"04:00:00:01", "04:00:00:02"} {
		fr.set(u)
		out := racksUntil(h, cookie, clk, "tile "+u, func(o map[string]any) bool { return walkOf(o)["done"] == float64(i+1) })
		rd := out["zones"].([]any)[0].(map[string]any)["readers"].([]any)[0].(map[string]any)
		if tl := rd["tiles"].([]any)[0].(map[string]any); tl["uid"] != u || tl["face"] != "1B" {
			t.Fatalf("the tile enrolled, live: %v", rd)
		}
		fr.set()
		racksUntil(h, cookie, clk, "the prompt", func(o map[string]any) bool { return strings.HasPrefix(walkOf(o)["message"].(string), "place a 1B") })
	}
	before, _ := os.ReadFile(fr.file)
	fr.set("04:00:00:01")
	out = racksUntil(h, cookie, clk, "the duplicate", func(o map[string]any) bool { return walkOf(o)["problem"] == true })
	if msg := walkOf(out)["message"].(string); !strings.Contains(msg, "04:00:00:01 is already enrolled, as 1B") || !strings.Contains(msg, "nothing was saved") {
		t.Fatalf("the duplicate: %q", msg)
	}
	if after, _ := os.ReadFile(fr.file); string(after) != string(before) {
		t.Fatal("a duplicate tag changed the enrolment file")
	}
	fr.set()

	// The second tile was another face: forgotten, the walk asks for a 1B again. Only the
	// tag enrolled last can be, once.
	if resp, out := h.call("POST", "/api/setup/racks/enrol/forget", cookie, map[string]string{"uid": "04:00:00:01"}); resp.StatusCode != http.StatusNotFound ||
		!strings.Contains(out["error"].(string), "nothing was changed") {
		t.Fatalf("forgetting a tag not enrolled last: %d %v", resp.StatusCode, out)
	}
	if resp, out := h.call("POST", "/api/setup/racks/enrol/forget", cookie, map[string]string{"uid": "04:00:00:02"}); resp.StatusCode != 200 || out["done"] != 1.0 ||
		!strings.Contains(out["message"].(string), "04:00:00:02 forgotten") {
		t.Fatalf("forget: %d %v", resp.StatusCode, out)
	}
	if _, ok := fr.store.Face("04:00:00:02"); ok {
		t.Fatal("the tag forgotten is still enrolled")
	}
	if resp, _ := h.call("POST", "/api/setup/racks/enrol/forget", cookie, map[string]string{"uid": "04:00:00:02"}); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("forgotten twice: %d", resp.StatusCode)
	}
	fr.set("04:00:00:02")
	racksUntil(h, cookie, clk, "the tag enrolled again", func(o map[string]any) bool { return walkOf(o)["done"] == 2.0 })
	fr.set()
	_, st := h.call("GET", "/api/setup/status", cookie, nil)
	if c := st["checks"].([]any)[1].(map[string]any); c["name"] != "Racks" || c["ready"] != false || !strings.HasPrefix(c["text"].(string), "2 of 152 tags enrolled") {
		t.Fatalf("the racks' readiness: %v", c)
	}

	// Stopped by the page, resumed; then a game begins and stops it.
	if resp, out := h.call("POST", "/api/setup/racks/enrol/stop", cookie, map[string]any{}); resp.StatusCode != 200 || out["running"] != false || out["done"] != 2.0 {
		t.Fatalf("stop: %d %v", resp.StatusCode, out)
	}
	if resp, out := h.call("POST", "/api/setup/racks/enrol/start", cookie, map[string]string{"reader": "p1a/in-00"}); resp.StatusCode != 200 {
		t.Fatalf("resume: %d %v", resp.StatusCode, out)
	}
	fr.set("04:00:00:03")
	racksUntil(h, cookie, clk, "tile 3", func(o map[string]any) bool { return walkOf(o)["done"] == 3.0 })
	h.table.mu.Lock()
	h.table.playing.Game, h.table.playing.Acts, h.table.playing.Waiting = "g8", 1, false
	h.table.mu.Unlock()
	out = racksUntil(h, cookie, clk, "the walk stopped by the game", func(o map[string]any) bool { return walkOf(o)["running"] == false })
	if msg := walkOf(out)["message"].(string); !strings.Contains(msg, "a game is in play (game g8") {
		t.Fatalf("stopped by the game: %q", msg)
	}
	if !strings.Contains(h.logged(), "the tag enrolment walk started") {
		t.Error("the walk's start is not logged")
	}
}

// TestNoRacksSection: a daemon that passes no racks answers 404, not an empty page.
func TestNoRacksSection(t *testing.T) {
	h := newHarness(t)
	cookie := h.login()
	if resp, out := h.call("GET", "/api/setup/racks", cookie, nil); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("GET racks: %d %v", resp.StatusCode, out)
	}
}
