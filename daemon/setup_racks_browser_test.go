package daemon

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/hw/enroll"
	"github.com/siamesetable/siamesed/setup"
)

// walkShown is the enrolment walk as the page last showed it.
type walkShown struct {
	Running bool
	Next    string
	Done    int
	Message string
	Problem bool
	Last    *struct{ Kind, UID, Face string }
}

// TestRacksEnrolmentInABrowser walks the tag enrolment on the set-up page in Chromium, on
// simulated racks whose tags are not enrolled yet (sim.tags: enrol): the owner logs in and
// presses Start; the page shows each face to place and, once the simulated hand has set a tile
// of it on the reader, the tag it read, and asks for the next by itself; a tile of the wrong
// face set down by mistake is taken back with Forget and its face asked for again; Stop
// halfway, then Resume, goes on from the file; a tile already enrolled is refused, named, and
// changes nothing; the live view shows tiles on another rack's readers with their faces, and
// "?" for a tag nobody enrolled; a load cell is refused under a hand, then tared and saved.
// Twenty tiles (more than the 19 readers of a rack) take five page actions: logging in, Start,
// Forget, Stop and Resume (the budget: one per tile, plus one per face). Screenshot:
// setup-racks.png.
func TestRacksEnrolmentInABrowser(t *testing.T) {
	t.Parallel() // mostly waiting (on the racks' scans): run beside the other such tests
	ctx := browser(t)
	dir := t.TempDir()
	addr, tb := enrolTable(t, dir)
	base := "http://" + addr + "/"
	shots := screenshotDir(t)
	pw, err := os.ReadFile(setup.OwnerFile(dir))
	if err != nil {
		t.Fatal(err)
	}
	poll := func(expr string) chromedp.Action {
		return chromedp.Poll(expr, nil, chromedp.WithPollingTimeout(waitFor), chromedp.WithPollingInterval(50*time.Millisecond))
	}
	actions := 0
	click := func(sel string) chromedp.Action { actions++; return chromedp.Click(sel, chromedp.ByID) }
	if err := chromedp.Run(ctx,
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(base+"setup"),
		chromedp.WaitVisible(`#owner-password`),
		chromedp.SendKeys(`#owner-password`, strings.TrimSpace(string(pw))),
		click(`#login button[type=submit]`),
		chromedp.WaitVisible(`#racks-box`),
		poll(`window.siameseRacks.racks && window.siameseRacks.racks.zones.length === 8 && document.getElementById('enrol-reader').options.length === 76`),
		click(`enrol-start`),
	); err != nil {
		t.Fatalf("the Racks section: %v", err)
	}
	walk := func() walkShown {
		var w walkShown
		if err := chromedp.Run(ctx, chromedp.Evaluate(`window.siameseRacks.racks.enrolment.walk`, &w)); err != nil {
			t.Fatal(err)
		}
		return w
	}
	h := newHand(t, tb, "p1a/in-00@mux70.0")
	faces := map[string]bool{}
	const tiles = 20
	for i := range tiles {
		if err := chromedp.Run(ctx, poll(`(w => w.running && w.message.startsWith('place a ') && document.getElementById('enrol-next').textContent.includes(w.next))(window.siameseRacks.racks.enrolment.walk)`)); err != nil {
			t.Fatalf("tile %d: the page does not ask for a tile: %v (%+v)", i, err, walk())
		}
		w := walk()
		faces[w.Next] = true
		if i == 4 {
			// A 3B set down where a 2B was asked for: enrolled as a 2B, then forgotten.
			wrong := h.place("3B")
			if err := chromedp.Run(ctx,
				poll(`(w => w.done === 5 && w.enrolled && w.enrolled.uid === '`+wrong+`')(window.siameseRacks.racks.enrolment.walk)`),
				click(`enrol-forget`),
				poll(`(w => w.done === 4 && w.last.kind === 'forgotten' && w.next === '2B')(window.siameseRacks.racks.enrolment.walk)`),
			); err != nil {
				t.Fatalf("forgetting a tile of the wrong face: %v (%+v)", err, walk())
			}
			h.lift()
			delete(h.shown, wrong) // back in the pile: a 3B, to be enrolled as one later
			w = walk()
		}
		u := h.place(w.Next)
		if err := chromedp.Run(ctx, poll(`(w => w.done === `+strconv.Itoa(w.Done+1)+` && w.last && w.last.uid === '`+u+`')(window.siameseRacks.racks.enrolment.walk)`)); err != nil {
			t.Fatalf("tile %d (%s %s): the page does not confirm it: %v (%+v)", i, w.Next, u, err, walk())
		}
		var confirmed string
		chromedp.Run(ctx, chromedp.Text(`#enrol-last`, &confirmed, chromedp.ByID))
		if !strings.Contains(confirmed, u) || !strings.Contains(confirmed, w.Next) {
			t.Fatalf("tile %d: the page confirms %q, the hand placed %s %s", i, confirmed, w.Next, u)
		}
		h.lift()
		if i == tiles/2-1 {
			var stopped string
			if err := chromedp.Run(ctx,
				click(`enrol-stop`),
				poll(`!window.siameseRacks.racks.enrolment.walk.running`),
				chromedp.Text(`#enrol-message`, &stopped, chromedp.ByID),
				click(`enrol-start`),
				poll(`window.siameseRacks.racks.enrolment.walk.running`),
			); err != nil {
				t.Fatalf("stop and resume: %v", err)
			}
			if !strings.Contains(stopped, "stopped at 10 of 152") {
				t.Fatalf("stopped: the page says %q", stopped)
			}
		}
	}

	// A tile already enrolled: refused and named; the file does not change.
	before, _ := os.ReadFile(rackTagsFile(dir))
	var first string
	for u := range h.shown {
		if f, _ := tb.Enrolment().Face(u); f == 0 {
			first = u
		}
	}
	h.again(first)
	var refused string
	if err := chromedp.Run(ctx,
		poll(`window.siameseRacks.racks.enrolment.walk.problem`),
		chromedp.Text(`#enrol-message`, &refused, chromedp.ByID),
	); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(refused, first+" is already enrolled, as 1B") || !strings.Contains(refused, "nothing was saved") {
		t.Fatalf("a duplicate: the page says %q", refused)
	}
	h.lift()
	if after, _ := os.ReadFile(rackTagsFile(dir)); string(after) != string(before) {
		t.Fatal("a duplicate tag changed the enrolment file")
	}
	store, err := enroll.Open(rackTagsFile(dir), tile.American())
	if err != nil {
		t.Fatal(err)
	}
	for u := range h.shown {
		if f, ok := store.Face(u); !ok || f != mustFace(t, tb.Enrolment(), u) {
			t.Errorf("tag %s enrolled as %v %v", u, f, ok)
		}
	}
	if done, _ := store.Progress(); done != tiles {
		t.Errorf("%d tags enrolled, want %d", done, tiles)
	}

	// The live view: tiles enrolled on p1b's readers with their faces, a stray tag as "?".
	live := newHand(t, tb, "p1b/in-00@mux73.0")
	for _, slot := range []string{"in-00@mux73.0", "in-01@mux73.1", "in-02@mux73.2"} {
		live.reader = slot
		for u := range h.shown {
			if !live.shown[u] {
				live.shown[u] = true
				live.again(u)
				break
			}
		}
	}
	live.reader = "in-03@mux73.3"
	stray := ""
	for _, u := range tb.Tags(tile.Joker) {
		if _, ok := store.Face(u); !ok {
			stray = u
			break
		}
	}
	live.again(stray)

	// p2a/in's load cell: refused under a hand, then tared and saved with 100 g laid on it.
	cellActions := 0
	cell := func(sel string) chromedp.Action { cellActions++; return chromedp.Click(sel, chromedp.ByID) }
	var unsteady, calibrated string
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(tb.SetHand("p2a", true))
	if err := chromedp.Run(ctx,
		chromedp.SetValue(`cell-zone`, "p2a/in", chromedp.ByID),
		chromedp.Evaluate(`document.getElementById('cell-zone').dispatchEvent(new Event('change'))`, nil),
		cell(`cell-tare`),
		poll(`document.getElementById('cell-message').className === 'error'`),
		chromedp.Text(`#cell-message`, &unsteady, chromedp.ByID),
	); err != nil {
		t.Fatalf("taring under a hand: %v", err)
	}
	must(tb.SetHand("p2a", false))
	if err := chromedp.Run(ctx,
		cell(`cell-tare`),
		poll(`document.getElementById('cell-message').textContent.startsWith('p2a/in tared')`),
	); err != nil {
		t.Fatalf("taring: %v", err)
	}
	must(tb.SetWeight("p2a", "in", 100))
	if err := chromedp.Run(ctx,
		cell(`cell-save`),
		poll(`document.getElementById('cell-message').textContent.startsWith('p2a/in calibrated')`),
		chromedp.Text(`#cell-message`, &calibrated, chromedp.ByID),
		poll(`/reads (99|100)\.\d g now/.test(document.getElementById('cell-now').textContent)`),
	); err != nil {
		t.Fatalf("calibrating: %v", err)
	}
	if !strings.Contains(unsteady, "not steady") || !strings.Contains(calibrated, "counts a gram") {
		t.Fatalf("the load cell: under a hand %q; calibrated %q", unsteady, calibrated)
	}
	t.Logf("load cell p2a/in: %d page actions (Tare under a hand, Tare, Save): %s", cellActions, calibrated)
	var png []byte
	if err := chromedp.Run(ctx,
		poll(`[...document.querySelectorAll('[data-rack="p1b"] [data-zone="in"] .reader')].slice(0, 4).map(r => r.querySelectorAll('.tile, .unknown').length).join() === '1,1,1,1'`),
		poll(`document.querySelector('[data-rack="p1b"] [data-reader="in-03@mux73.3"] .unknown') !== null`),
		poll(`window.siameseRacks.racks.enrolment.walk.running && !window.siameseRacks.racks.enrolment.walk.problem`),
		chromedp.Screenshot(`racks-box`, &png, chromedp.ByID),
	); err != nil {
		t.Fatalf("the live view: %v", err)
	}
	writeShot(t, filepath.Join(shots, "setup-racks.png"), png)
	t.Logf("page actions: %d for %d tiles of %d faces (log in, Start, Stop, Resume, Forget): the budget is %d", actions, tiles, len(faces), tiles+len(faces))
	if actions > tiles+len(faces) {
		t.Errorf("%d page actions for %d tiles of %d faces", actions, tiles, len(faces))
	}
}

func mustFace(t *testing.T, e interface {
	Face(string) (tile.Face, bool)
}, uid string) tile.Face {
	t.Helper()
	f, ok := e.Face(uid)
	if !ok {
		t.Fatalf("the table has no tile with tag %s", uid)
	}
	return f
}
