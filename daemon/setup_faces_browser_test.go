package daemon

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/siamesetable/siamesed/configs"
	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/setup"
	"github.com/siamesetable/siamesed/vision/labels"
)

// windsCard uses the four winds: with J, the five faces to enrol.
const windsCard = `name: Four Winds Card
year: 2026
hands:
  - section: "Winds"
    pattern: "NNNN EEEE WWWW SS"
    value: 25
`

// TestSetupFacesInABrowser: camera: sim with a real siamesed-vision, the Table section's card
// using the four winds. With the corners saved, the owner enrols the faces the page names, the
// test's hands laying each in the simulated discard area: two tiles at once are refused (the
// page says so, nothing saved), the first face is retaken before it is accepted, a face enrolled
// already is replaced only once the owner says so; then Check has the real model name every
// crop back and the page says the camera is ready. The enrolment folder in the data directory
// holds each face once, as enroll camera writes it. Screenshot: setup-faces.png.
func TestSetupFacesInABrowser(t *testing.T) {
	ctx := browser(t)
	cfg := quietTable()
	cfg.Camera, cfg.Vision.Worker = "sim", visionWorker(t)
	dir := t.TempDir()
	rules, err := configs.LoadRuleset(cfg.Rules)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, rules.Players)
	for i := range names {
		names[i] = fmt.Sprintf("Player %d", i+1)
	}
	if _, err := setup.SaveSettings(dir, setup.Settings{Rules: cfg.Rules, Names: names}, []byte(windsCard)); err != nil {
		t.Fatal(err)
	}
	shows := make(chan func(...tile.Face) error, 1)
	addr, _ := runDaemonOptions(t, cfg, Options{DataDir: dir, Log: testLog(), SimCamera: func(show func(...tile.Face) error) { shows <- show }})
	var show func(...tile.Face) error
	select {
	case show = <-shows:
	case <-time.After(waitFor):
		t.Fatal("the daemon gave no hands for the simulated camera")
	}
	lay := func(fs ...tile.Face) chromedp.Action {
		return chromedp.ActionFunc(func(context.Context) error { return show(fs...) })
	}
	poll := func(expr string) chromedp.Action {
		return chromedp.Poll(expr, nil, chromedp.WithPollingTimeout(waitFor), chromedp.WithPollingInterval(50*time.Millisecond))
	}
	const faces = `window.siameseSetup.faces`

	// The corners: the simulated area's, from its snapshot, saved as the Camera section does.
	if err := chromedp.Run(ctx,
		chromedp.Navigate("http://"+addr+"/setup"),
		chromedp.WaitVisible(`#owner-password`),
		chromedp.SendKeys(`#owner-password`, ownerPassword(t, dir)),
		chromedp.Click(`#login button[type=submit]`),
		poll(`window.siameseSetup.camera.snapshot !== null`),
	); err != nil {
		t.Fatalf("the Camera section: %v", err)
	}
	frame := cameraFrame(t, ctx)
	cs := areaCorners(frame)
	if err := chromedp.Run(ctx,
		chromedp.Evaluate(fmt.Sprintf(`(() => { const c = window.siameseSetup.camera; c.corners = %s;
			const [a, b, cc, d] = c.corners, len = (p, q) => Math.hypot(p[0] - q[0], p[1] - q[1]);
			document.getElementById('camera-width').value = Math.round((len(a, b) + len(d, cc)) / 2);
			document.getElementById('camera-height').value = Math.round((len(a, d) + len(b, cc)) / 2); })()`, jsCorners(cs)), nil),
		press("camera-save"),
		poll(`!document.getElementById('faces-work').hidden && `+faces+`.info !== null`),
	); err != nil {
		t.Fatalf("saving the corners: %v", err)
	}
	var required []string
	if err := chromedp.Run(ctx, chromedp.Evaluate(faces+`.info.required`, &required)); err != nil {
		t.Fatal(err)
	}
	if strings.Join(required, " ") != "E S W N J" {
		t.Fatalf("the faces to enrol: %v, want the winds card's E S W N and J", required)
	}

	// The empty area, then two tiles at once: refused.
	var says string
	if err := chromedp.Run(ctx,
		lay(),
		press("faces-start"),
		poll(faces+`.says.includes('empty area is kept')`),
		lay(tile.East, tile.West),
		press("faces-capture"),
		poll(faces+`.error !== ''`),
		chromedp.Text(`#faces-result`, &says),
	); err != nil {
		t.Fatalf("two tiles: %v", err)
	}
	if !strings.Contains(says, "more than one thing in the discard area") || !strings.Contains(says, "(2 tiles") {
		t.Errorf("two tiles: the page says %q", says)
	}
	enrolled := filepath.Join(dir, "camera", "enrolled")
	if items, err := labels.Read(enrolled); err == nil || len(items) > 0 {
		t.Fatalf("two tiles saved %v", items)
	}

	// Each face the page names, laid alone; the first retaken before it is accepted.
	for i := range required {
		var next string
		if err := chromedp.Run(ctx, chromedp.Evaluate(faces+`.next`, &next)); err != nil {
			t.Fatal(err)
		}
		f, err := tile.Parse(next)
		if err != nil || next != required[i] {
			t.Fatalf("face %d: the page names %q, want %s", i, next, required[i])
		}
		steps := []chromedp.Action{lay(f), press("faces-capture"), poll(faces + `.crop !== null && !` + faces + `.busy`)}
		if i == 0 {
			steps = append(steps, chromedp.Evaluate(faces+`.crop.first = true`, nil), lay(f), press("faces-retake"),
				poll(faces+`.crop !== null && !`+faces+`.crop.first && !`+faces+`.busy`))
		}
		steps = append(steps, press("faces-accept"), poll(faces+`.says === '`+next+` enrolled.'`))
		if err := chromedp.Run(ctx, steps...); err != nil {
			t.Fatalf("enrolling %s: %v (the page: %s)", next, err, pageState(ctx))
		}
	}

	// E again: enrolled already, replaced once the owner says so.
	var replaceShown bool
	if err := chromedp.Run(ctx,
		chromedp.Evaluate(`document.querySelector('#faces-list li[data-face="E"]').click()`, nil),
		lay(tile.East), press("faces-capture"), poll(faces+`.crop !== null && !`+faces+`.busy`),
		press("faces-accept"), poll(faces+`.error.includes('E is enrolled already')`),
		chromedp.Evaluate(`!document.getElementById('faces-replace').hidden`, &replaceShown),
		press("faces-replace"), poll(faces+`.says === 'E replaced.'`),
	); err != nil {
		t.Fatalf("replacing E: %v (the page: %s)", err, pageState(ctx))
	}
	if !replaceShown {
		t.Error("E enrolled already: the page offered no Replace")
	}

	// Check: the real model names every crop back, and the camera is ready.
	var png []byte
	var ready bool
	if err := chromedp.Run(ctx,
		press("faces-check"),
		poll(faces+`.checked !== null`),
		chromedp.Evaluate(faces+`.checked.ready`, &ready),
		chromedp.Text(`#faces-result`, &says),
		chromedp.ScrollIntoView(`#faces-work`),
		chromedp.Screenshot(`#faces-work`, &png),
	); err != nil {
		t.Fatalf("the check: %v", err)
	}
	writeShot(t, filepath.Join(screenshotDir(t), "setup-faces.png"), png)
	if !ready || !strings.Contains(says, "The camera is ready: all 5 faces are recognised back") {
		t.Errorf("the check: ready %v, the page says %q", ready, says)
	}
	items, err := labels.Read(enrolled)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range items {
		got = append(got, it.Tile.String())
	}
	if strings.Join(got, " ") != "S W N J E" {
		t.Errorf("the enrolment folder lists %v, want S W N J and E (replaced) once each", got)
	}
	t.Logf("enrolled %v in %s; the page says %q", got, enrolled, says)
}

// jsCorners is corners as a JavaScript list.
func jsCorners(cs [4][2]float64) string {
	var b strings.Builder
	b.WriteString("[")
	for i, c := range cs {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "[%.1f,%.1f]", c[0], c[1])
	}
	b.WriteString("]")
	return b.String()
}

// pageState is the enrolment's state on the page, for a failure's message.
func pageState(ctx context.Context) string {
	var s string
	_ = chromedp.Run(ctx, chromedp.Evaluate(`JSON.stringify(Object.assign({}, window.siameseSetup.faces, {crop: !!window.siameseSetup.faces.crop, checked: !!window.siameseSetup.faces.checked}))`, &s))
	return s
}
