package daemon

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/siamesetable/siamesed/setup"
)

// TestSetupInABrowser walks the set-up page as a table's owner would, on a simulated table
// whose virtual players play on: a wrong password is refused; the owner's logs in; new names
// are saved, to apply from the next game; the table display, on the owner's screen, shows a
// QR code and a code per seat; a phone-sized page opened at the QR code's address lands in its
// seat's view with that seat's tiles; the code does not work twice; the owner takes the seat
// back and the phone is out, told why; the next game has the new names. Screenshots:
// setup.png, table-codes.png, join-seat.png.
func TestSetupInABrowser(t *testing.T) {
	t.Parallel() // a whole game on the table's clock, mostly waiting: run beside the other such tests
	ctx := browser(t)
	dir := t.TempDir()
	// The hands at the default pace, the whole table five times as fast as life: a game in
	// well under a minute. liveConfig's 25 ms pace moves hands faster than the racks judge their
	// tags, and a table so hurried may sit on a question for minutes before its next game.
	cfg := liveConfig()
	cfg.Sim.Pace, cfg.Sim.Speed, cfg.Track.Grace = Defaults().Sim.Pace, 5, Defaults().Track.Grace
	addr, _ := runDaemon(t, cfg, dir)
	base := "http://" + addr + "/"
	shots := screenshotDir(t)
	pw, err := os.ReadFile(setup.OwnerFile(dir))
	if err != nil {
		t.Fatal(err)
	}
	poll := func(expr string) chromedp.Action {
		// By interval, not by animation frame: a tab behind another draws no frames.
		return chromedp.Poll(expr, nil, chromedp.WithPollingTimeout(waitFor), chromedp.WithPollingInterval(50*time.Millisecond))
	}

	// The owner logs in (a wrong password first) and saves new names.
	var wrong string
	if err := chromedp.Run(ctx,
		chromedp.Navigate(base+"setup"),
		chromedp.WaitVisible(`#owner-password`),
		chromedp.SendKeys(`#owner-password`, "not-the-password"),
		chromedp.Click(`#login button[type=submit]`),
		poll(`document.getElementById('login-error').textContent !== ''`),
		chromedp.Text(`#login-error`, &wrong),
		chromedp.Evaluate(`document.getElementById('owner-password').value = ''`, nil),
		chromedp.SendKeys(`#owner-password`, strings.TrimSpace(string(pw))),
		chromedp.Click(`#login button[type=submit]`),
		chromedp.WaitVisible(`#table-form input[name=name1]`),
		chromedp.SetValue(`#table-form input[name=name0]`, "Ann"),
		chromedp.SetValue(`#table-form input[name=name1]`, "Bea"),
		chromedp.Click(`#save`),
		poll(`window.siameseSetup.saved !== null`),
		poll(`getComputedStyle(document.getElementById('login')).display === 'none'`),
	); err != nil {
		t.Fatalf("the set-up page: %v", err)
	}
	if !strings.Contains(wrong, "wrong password") {
		t.Errorf("a wrong password: %q", wrong)
	}
	var applied struct{ Names, Rules string }
	var result string
	if err := chromedp.Run(ctx,
		chromedp.Evaluate(`window.siameseSetup.saved.applied || {}`, &applied),
		chromedp.Text(`#table-result`, &result),
		poll(`window.siameseSetup.status && window.siameseSetup.status.ready`),
	); err != nil {
		t.Fatal(err)
	}
	// Virtual players are dealing: the game in play has acts, so the names wait for the next.
	if applied.Names != "next game" || applied.Rules != "next game" || !strings.Contains(result, "from the next game") {
		t.Fatalf("saved: applied %+v, the page says %q", applied, result)
	}
	var png []byte
	if err := chromedp.Run(ctx, chromedp.FullScreenshot(&png, 100)); err != nil {
		t.Fatal(err)
	}
	writeShot(t, filepath.Join(shots, "setup.png"), png)

	// The table display on the owner's screen: a QR code and a code per seat.
	var code string
	var qrs int
	if err := chromedp.Run(ctx,
		chromedp.Navigate(base),
		poll(`document.querySelectorAll('#seat-codes img.qr').length === 2 && [...document.querySelectorAll('#seat-codes img.qr')].every(i => i.complete && i.naturalWidth > 0)`),
		chromedp.Evaluate(`document.querySelectorAll('#seat-codes img.qr').length`, &qrs),
		chromedp.Text(`#seat-codes [data-seat="0"] .seat-code-code`, &code),
		chromedp.FullScreenshot(&png, 100),
	); err != nil {
		t.Fatalf("the table display's seat codes: %v", err)
	}
	writeShot(t, filepath.Join(shots, "table-codes.png"), png)
	var names string
	chromedp.Run(ctx, chromedp.Text(`#seat-codes [data-seat="0"] .seat-code-name`, &names))
	if qrs != 2 || code == "" || names == "" {
		t.Fatalf("seat codes: %d QR codes, seat 0 %q named %q", qrs, code, names)
	}

	// A phone opens the QR code's address and lands in seat 0's view.
	phone, cancel := chromedp.NewContext(ctx)
	defer cancel()
	var seat, drawn int
	var landed string
	if err := chromedp.Run(phone,
		chromedp.EmulateViewport(390, 844),
		chromedp.Navigate(base+"join.html#"+code),
	); err != nil {
		t.Fatalf("the phone opens the join page: %v", err)
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
	if err := chromedp.Run(phone,
		chromedp.Evaluate(`location.href`, &landed),
		chromedp.Evaluate(`window.siamese.private.seat`, &seat),
		poll(`document.querySelectorAll('.rack.mine .tile.concealed').length > 0`),
		poll(`getComputedStyle(document.getElementById('login')).display === 'none'`),
		chromedp.Evaluate(`document.querySelectorAll('.rack.mine .tile.concealed').length`, &drawn),
		chromedp.FullScreenshot(&png, 100),
	); err != nil {
		t.Fatalf("the phone joins by the code: %v", err)
	}
	writeShot(t, filepath.Join(shots, "join-seat.png"), png)
	if seat != 0 || drawn == 0 || strings.Contains(landed, code) {
		t.Fatalf("the phone: seat %d, %d tiles drawn, at %s", seat, drawn, landed)
	}

	// The code was for one phone.
	body, _ := json.Marshal(map[string]string{"code": code})
	resp, err := http.Post(base+"api/join", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("a code used twice: %d", resp.StatusCode)
	}

	// The owner sees the seat taken and takes it back: the phone is out and told so.
	var notice string
	for i, step := range []chromedp.Action{
		page.BringToFront(),
		chromedp.Navigate(base + "setup"),
		poll(`document.querySelector('#seats [data-seat="0"] .taken') !== null`),
		// The seats' list is drawn again every few seconds: the button is clicked as found.
		chromedp.Evaluate(`document.querySelector('#seats [data-seat="0"] button').click()`, nil),
		poll(`window.siameseSetup.renewed !== null && window.siameseSetup.renewed.taken_back`),
		poll(`document.querySelector('#seats [data-seat="0"] .code') !== null`),
	} {
		if err := chromedp.Run(ctx, step); err != nil {
			var seen string
			chromedp.Run(ctx, chromedp.Evaluate(`JSON.stringify(window.siameseSetup)`, &seen))
			t.Fatalf("taking the seat back, step %d: %v (the page: %s)", i, err, seen)
		}
	}
	if err := chromedp.Run(phone,
		page.BringToFront(),
		poll(`window.siamese.takenBack`),
		chromedp.Text(`#login-error`, &notice),
	); err != nil {
		t.Fatalf("the phone after the seat was taken back: %v", err)
	}
	if !strings.Contains(notice, "taken back") {
		t.Errorf("the phone says %q", notice)
	}

	// The next game is played with the new names. It is waited for last: a game takes seconds,
	// minutes on a busy machine.
	deadline := time.Now().Add(4 * waitFor)
	for s, _ := publicState(t, base); s.Seats[0] != "Ann" || s.Seats[1] != "Bea"; s, _ = publicState(t, base) {
		if time.Now().After(deadline) {
			t.Fatalf("the names did not reach the table: seats %v in game %s at act %d", s.Seats, s.Game, s.Seq)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
