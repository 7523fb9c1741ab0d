package daemon

import (
	"context"
	"log/slog"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/hw/simtable"
)

// TestFirstHourInABrowser is a new table's first hour, in Chromium, on a simulated table whose
// racks know no tag yet (sim.tags: enrol), whose camera is the simulated one seen through a
// real siamesed-vision, and whose virtual players wait to deal until the racks are enrolled:
// the owner logs in; sets the rules, the names and a card using the four winds; clicks the
// discard area's four corners on the simulated camera's frame and saves them; enrols the five
// faces the card needs and has them checked; walks the tag enrolment of all 152 tiles on the
// simulated racks (the test's hand sets each tile the page asks for on the reader); the page
// says the table is ready; a phone-sized page joins seat 0 by its code, typed, and shows that
// seat's tiles once the players deal; the game is tracked to its end, as played, with the card
// and names set. Every click and every field typed on a page counts: the budget is one page
// action per tile plus one per face. Screenshots: first-hour-*.png.
func TestFirstHourInABrowser(t *testing.T) {
	t.Parallel() // a whole game on the table's clock, mostly waiting: run beside the other such tests
	ctx := browser(t)
	begun := time.Now()
	dir := t.TempDir()
	// The hands at the default pace, the whole table four times as fast as life: a game in
	// about a minute. At five (TestSetupInABrowser's, with camera: direct) the simulated
	// camera's frames, drawn and watched by siamesed-vision under -race on a busy two-core
	// machine, came later than the racks' reads: the tracker named false infractions and once
	// tracked a hand otherwise than played.
	cfg := liveConfig()
	cfg.Sim.Pace, cfg.Sim.Speed, cfg.Track.Grace = Defaults().Sim.Pace, 4, Defaults().Track.Grace
	cfg.Sim.Tags = "enrol"
	cfg.Camera, cfg.Vision.Worker = "sim", visionWorker(t)
	tables := make(chan *simtable.Table, 1)
	shows := make(chan func(...tile.Face) error, 1)
	warnings := &warnLog{}
	addr, _ := runDaemonOptions(t, cfg, Options{DataDir: dir, Log: slog.New(warnings),
		SimTable:  func(tb *simtable.Table) { tables <- tb },
		SimCamera: func(show func(...tile.Face) error) { shows <- show }})
	tb, show := <-tables, <-shows
	base := "http://" + addr + "/"
	shots := screenshotDir(t)
	shot := func(name, sel string) chromedp.Action {
		return chromedp.ActionFunc(func(ctx context.Context) error {
			var png []byte
			if err := chromedp.Screenshot(sel, &png).Do(ctx); err != nil {
				return err
			}
			writeShot(t, filepath.Join(shots, "first-hour-"+name+".png"), png)
			return nil
		})
	}
	poll := func(expr string) chromedp.Action {
		return chromedp.Poll(expr, nil, chromedp.WithPollingTimeout(waitFor), chromedp.WithPollingInterval(50*time.Millisecond))
	}
	lap := func(what string) { t.Logf("%s by %s", what, time.Since(begun).Round(100*time.Millisecond)) }
	// The page actions: every click, every field typed or chosen.
	actions := 0
	act := func(a chromedp.Action) chromedp.Action { actions++; return a }
	pressed := func(id string) chromedp.Action { return act(press(id)) }
	lay := func(fs ...tile.Face) chromedp.Action {
		return chromedp.ActionFunc(func(context.Context) error { return show(fs...) })
	}
	step := func(what string, as ...chromedp.Action) {
		t.Helper()
		if err := chromedp.Run(ctx, as...); err != nil {
			var seen string
			chromedp.Run(ctx, chromedp.Evaluate(`JSON.stringify({status: window.siameseSetup.status, saved: window.siameseSetup.saved, error: window.siameseSetup.camera.error})`, &seen))
			t.Fatalf("%s: %v (the page: %.600s)", what, err, seen)
		}
	}

	// The owner logs in, and sets the rules, the names and the card.
	var applied struct{ Names, Rules string }
	step("the Table section",
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(base+"setup"),
		chromedp.WaitVisible(`#owner-password`),
		act(chromedp.SendKeys(`#owner-password`, ownerPassword(t, dir))),
		act(chromedp.Click(`#login button[type=submit]`)),
		chromedp.WaitVisible(`#table-form input[name=name1]`),
		poll(`document.getElementById('rules').options.length > 0`),
		act(chromedp.SetValue(`#rules`, cfg.Rules)),
		act(chromedp.SetValue(`#table-form input[name=name0]`, "Ann")),
		act(chromedp.SetValue(`#table-form input[name=name1]`, "Bea")),
		act(chromedp.SendKeys(`#card-text`, windsCard)),
		act(chromedp.Click(`#save`)),
		poll(`window.siameseSetup.saved !== null`),
		chromedp.Evaluate(`window.siameseSetup.saved.applied || {}`, &applied),
		shot("table", `#table-form`),
	)
	// Nobody has dealt: the settings apply at once.
	if applied.Names != "now" || applied.Rules != "now" {
		t.Fatalf("the table's settings: applied %+v", applied)
	}

	lap("the table's settings saved")

	// The camera: the discard area's four corners clicked on the simulated camera's frame.
	step("the Camera section",
		poll(`window.siameseSetup.camera.snapshot !== null && document.getElementById('camera-img').complete && document.getElementById('camera-img').naturalWidth > 0`),
		chromedp.ScrollIntoView(`#camera-box`),
	)
	frame := cameraFrame(t, ctx)
	cs := areaCorners(frame)
	m := &snapshotMarks{width: float64(frame.Bounds().Dx())}
	step("the corners",
		act(m.click(cs[0])), act(m.click(cs[1])), act(m.click(cs[2])), act(m.click(cs[3])),
		poll(`window.siameseSetup.camera.preview !== null`),
		pressed("camera-save"),
		poll(`window.siameseSetup.camera.saved !== null`),
		poll(`window.siameseSetup.status.checks.some(c => c.name === 'Camera' && c.ready)`),
		shot("camera", `#camera-box`),
	)

	lap("the corners saved")

	// The faces the card needs, each laid alone in the discard area by the test's hand.
	const faces = `window.siameseSetup.faces`
	var required []string
	step("the Faces section",
		poll(`!document.getElementById('faces-work').hidden && `+faces+`.info !== null`),
		chromedp.Evaluate(faces+`.info.required`, &required),
		lay(),
		pressed("faces-start"),
		poll(faces+`.says.includes('empty area is kept')`),
	)
	if strings.Join(required, " ") != "E S W N J" {
		t.Fatalf("the faces to enrol: %v, want the winds card's E S W N and J", required)
	}
	for _, name := range required {
		f, err := tile.Parse(name)
		if err != nil {
			t.Fatal(err)
		}
		step("enrolling "+name,
			poll(faces+`.next === '`+name+`'`),
			lay(f), pressed("faces-capture"), poll(faces+`.crop !== null && !`+faces+`.busy`),
			pressed("faces-accept"), poll(faces+`.says === '`+name+` enrolled.'`))
	}
	var checked string
	step("the faces' check",
		pressed("faces-check"),
		poll(faces+`.checked !== null && `+faces+`.checked.ready`),
		chromedp.Text(`#faces-result`, &checked),
		lay(), // the area cleared for the game
		chromedp.ScrollIntoView(`#faces-work`),
		shot("faces", `#faces-work`),
	)

	lap("the faces enrolled and checked")

	// The racks: every tile's tag, walked on p1a's first reader.
	step("the Racks section",
		chromedp.ScrollIntoView(`#racks-box`),
		poll(`window.siameseRacks.racks && window.siameseRacks.racks.zones.length === 8 && document.getElementById('enrol-reader').options.length === 76`),
		act(chromedp.Click(`#enrol-start`)),
		poll(`window.siameseRacks.racks.enrolment.walk.running`),
	)
	hand := newHand(t, tb, "p1a/in-00@mux70.0")
	set := tile.American()
	total := set.Count.Total()
	walkTiles(t, logIn(t, base, dir), hand, total, nil)
	var enrolled string
	step("the walk's end",
		poll(`(w => !w.running && w.done === `+strconv.Itoa(total)+`)(window.siameseRacks.racks.enrolment.walk)`),
		chromedp.Text(`#enrol-message`, &enrolled),
		shot("racks", `#racks-box`),
	)
	if !strings.Contains(enrolled, "every tile of the set is enrolled") {
		t.Errorf("the walk's end: the page says %q", enrolled)
	}

	lap("the tags enrolled")

	// The page says the table is ready.
	var png []byte
	step("the table ready",
		chromedp.ScrollIntoView(`body`),
		poll(`window.siameseSetup.status && window.siameseSetup.status.ready`),
		chromedp.FullScreenshot(&png, 90),
	)
	writeShot(t, filepath.Join(shots, "first-hour-ready.png"), png)

	// The table display shows seat 0's code; a phone types it in.
	var code string
	step("the seat codes",
		chromedp.Navigate(base),
		poll(`document.querySelector('#seat-codes [data-seat="0"] .seat-code-code') !== null`),
		chromedp.Text(`#seat-codes [data-seat="0"] .seat-code-code`, &code),
	)
	phone, cancel := chromedp.NewContext(ctx)
	defer cancel()
	if err := chromedp.Run(phone,
		chromedp.EmulateViewport(390, 844),
		chromedp.Navigate(base+"join.html"),
		chromedp.WaitVisible(`#code`),
		act(chromedp.SendKeys(`#code`, code)),
		act(chromedp.Click(`#join button[type=submit]`)),
	); err != nil {
		t.Fatalf("the phone types the code: %v", err)
	}
	// The join page goes on to the seat view by itself: a poll running as it leaves loses its
	// page, and is asked again.
	for try := 0; ; try++ {
		err := chromedp.Run(phone, poll(`location.pathname.endsWith('/seat.html') && window.siamese && window.siamese.stored && window.siamese.private !== null`))
		if err == nil {
			break
		}
		if try == 5 || !strings.Contains(err.Error(), "context") && !strings.Contains(err.Error(), "navigated") {
			t.Fatalf("the phone lands in its seat: %v", err)
		}
	}
	var seat int
	if err := chromedp.Run(phone,
		page.BringToFront(),
		chromedp.Evaluate(`window.siamese.private.seat`, &seat),
		poll(`document.querySelectorAll('.rack.mine .tile.concealed').length > 0`),
		chromedp.FullScreenshot(&png, 90),
	); err != nil {
		t.Fatalf("the phone's seat view: %v", err)
	}
	writeShot(t, filepath.Join(shots, "first-hour-seat.png"), png)
	if seat != 0 {
		t.Fatalf("the phone sits at seat %d, want 0", seat)
	}

	lap("the phone in its seat")

	// The game is tracked to its end, with the card and names set on the page, as the virtual
	// players played it (they compare once the table has ended it, before the next game).
	deadline := time.Now().Add(4 * waitFor)
	s, _ := publicState(t, base)
	for ; s.View.Result == nil; s, _ = publicState(t, base) {
		if time.Now().After(deadline) {
			t.Fatalf("the game did not end: game %s at act %d, phase %v; questions %v, sensors %v; the daemon warned %q", s.Game, s.Seq, s.View.Phase, s.Questions, s.Sensors, warnings.all())
		}
		time.Sleep(200 * time.Millisecond)
	}
	if s.Card != "Four Winds Card" || strings.Join(s.Seats, ",") != "Ann,Bea" {
		t.Errorf("the game played: card %q, seats %v", s.Card, s.Seats)
	}
	t.Logf("game %s over after %d acts: %+v", s.Game, s.Seq, *s.View.Result)
	lap("the game over")
	for over := s.Game; s.Game == over; s, _ = publicState(t, base) {
		if time.Now().After(deadline) {
			t.Fatalf("no game after %s", over)
		}
		time.Sleep(200 * time.Millisecond)
	}
	for _, w := range warnings.all() {
		if strings.Contains(w, "tracked otherwise than played") {
			t.Errorf("the daemon warned: %s", w)
		}
	}

	budget := total + len(required)
	t.Logf("the first hour: %d page actions for %d tiles and %d faces (log in 2, table 5, corners 5, faces %d, tags 1, seat 2): the budget, one a tile and one a face, is %d; %s wall",
		actions, total, len(required), 2+2*len(required), budget, time.Since(begun).Round(time.Second))
	if actions > budget {
		t.Errorf("%d page actions, over the budget of %d", actions, budget)
	}
}
