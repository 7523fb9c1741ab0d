package daemon

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/siamesetable/siamesed/mqtt"
)

// press presses the button id as a finger would: once it is enabled (a click on a disabled
// button does nothing, and a page still busy with the last press keeps its buttons off), and
// without scrolling the page.
func press(id string) chromedp.Action {
	return chromedp.Tasks{
		chromedp.Poll(`!document.getElementById('`+id+`').disabled`, nil, chromedp.WithPollingTimeout(waitFor), chromedp.WithPollingInterval(50*time.Millisecond)),
		chromedp.Evaluate(`document.getElementById('`+id+`').click()`, nil),
	}
}

// browser starts headless Chromium for a test (skipped only when it is missing and
// SIAMESED_REQUIRE_SYSTEM_TESTS is not set).
func browser(t testing.TB) context.Context {
	t.Helper()
	bin := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			bin = p
			break
		}
	}
	if bin == "" {
		if os.Getenv("SIAMESED_REQUIRE_SYSTEM_TESTS") != "" {
			t.Fatal("chromium is not installed and SIAMESED_REQUIRE_SYSTEM_TESTS is set: run scripts/test.sh, which installs it")
		}
		t.Skip("chromium is not installed (scripts/test.sh installs it): skipping")
	}
	// The profile is removed by hand once the browser is gone: Chromium's helper processes may
	// still write to it for a moment after it is told to close.
	profile, err := os.MkdirTemp("", "siamesed-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	opts := []chromedp.ExecAllocatorOption{chromedp.ExecPath(bin), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(profile), chromedp.WindowSize(1600, 1000),
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true)}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, 4*waitFor)
	t.Cleanup(func() {
		cancelT()
		cancelC()
		cancelA()
		var err error
		for try := 0; try < 50; try++ {
			if err = os.RemoveAll(profile); err == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Logf("the browser profile %s is left behind: %v", profile, err)
	})
	return ctx
}

// screenshotDir is where the display tests leave their screenshots.
func screenshotDir(t *testing.T) string {
	dir := os.Getenv("SIAMESED_SCREENSHOTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "siamesed-screenshots")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// liveConfig is a live simulated table that plays quickly, with the embedded broker on a free
// port, read on fastConfig's fast path.
func liveConfig() Config {
	c := Defaults()
	c.Camera = "direct"
	c.Sim.Racks = "direct"
	c.HTTP = "127.0.0.1:0"
	c.MQTT.Listen = "127.0.0.1:0"
	c.Sim.Pace = Duration(25 * time.Millisecond)
	c.Track.Grace = Duration(200 * time.Millisecond)
	return c
}

// TestDisplayInABrowser: the table display loads over MQTT-over-WebSocket, shows the state,
// updates after an act, announces discards by name and shows no concealed tile; the seat view,
// logged in with seat 0's password, shows seat 0's own tiles and nobody else's. Screenshots of
// both are saved.
func TestDisplayInABrowser(t *testing.T) {
	ctx := browser(t)
	dir := t.TempDir()
	addr, _ := runDaemon(t, liveConfig(), dir)
	base := "http://" + addr + "/"
	shots := screenshotDir(t)

	var first, later int
	var seats, concealedShown int
	if err := chromedp.Run(ctx,
		chromedp.Navigate(base),
		chromedp.Poll(`document.body.dataset.seq !== undefined && window.siamese.status === 'online'`, nil, chromedp.WithPollingTimeout(waitFor)),
		chromedp.Evaluate(`Number(document.body.dataset.seq)`, &first),
	); err != nil {
		t.Fatalf("table display: %v", err)
	}
	if err := chromedp.Run(ctx, // a second run: the poll below is written with first known
		chromedp.Poll(fmt.Sprintf(`Number(document.body.dataset.seq) > %d`, first), nil, chromedp.WithPollingTimeout(waitFor)),
		chromedp.Evaluate(`Number(document.body.dataset.seq)`, &later),
		chromedp.Evaluate(`document.querySelectorAll('.seat').length`, &seats),
		chromedp.Poll(`window.siamese.spoken.length > 0`, nil, chromedp.WithPollingTimeout(waitFor)),
		chromedp.Evaluate(`document.querySelectorAll('.standing .tile[data-face]:not([data-face=""])').length`, &concealedShown),
	); err != nil {
		t.Fatalf("table display: %v", err)
	}
	var observed bool // the state says when what it shows was observed: the end-to-end figure needs it
	if err := chromedp.Run(ctx, chromedp.Evaluate(`window.siamese.drawn.some(d => d.observed && !isNaN(Date.parse(d.observed)))`, &observed)); err != nil {
		t.Fatal(err)
	}
	if !observed {
		t.Error("no state drawn carries when its act was observed")
	}
	if later <= first || seats != 2 || concealedShown != 0 {
		var drawn string
		chromedp.Run(ctx, chromedp.Evaluate(`JSON.stringify(window.siamese.drawn.map(d => d.seq))`, &drawn))
		t.Fatalf("drawn %s; table display: act %d then %d, %d seats, %d standing tiles with faces", drawn, first, later, seats, concealedShown)
	}
	var png []byte
	if err := chromedp.Run(ctx, chromedp.FullScreenshot(&png, 100)); err != nil {
		t.Fatal(err)
	}
	writeShot(t, filepath.Join(shots, "table.png"), png)

	creds, _, err := mqtt.LoadOrCreateCredentials(mqtt.CredentialsFile(dir))
	if err != nil {
		t.Fatal(err)
	}
	var seat, want, drawn, others int
	if err := chromedp.Run(ctx,
		chromedp.EmulateViewport(430, 1400),
		chromedp.Navigate(base+"seat.html"),
		chromedp.WaitVisible(`#password`),
		chromedp.Poll(`document.querySelectorAll('#seat option').length === 2`, nil, chromedp.WithPollingTimeout(waitFor)),
		chromedp.SetValue(`#seat`, "0"),
		chromedp.SendKeys(`#password`, creds.Seats[0]),
		chromedp.Click(`#login button[type=submit]`),
		chromedp.Poll(`window.siamese.private !== null && window.siamese.private.view.concealed[0].length + window.siamese.private.view.concealed[1].length > 0`,
			nil, chromedp.WithPollingTimeout(waitFor)),
		chromedp.Evaluate(`window.siamese.private.seat`, &seat),
		chromedp.Evaluate(`(() => { const p = window.siamese.private; return p.view.concealed[0].length + p.view.concealed[1].length; })()`, &want),
		chromedp.Evaluate(`document.querySelectorAll('.rack.mine .tile.concealed').length`, &drawn),
		chromedp.Evaluate(`document.querySelectorAll('.rack:not(.mine)').length`, &others),
	); err != nil {
		t.Fatalf("seat view: %v", err)
	}
	// The page may have drawn a newer view than the one read just before: compare loosely
	// only in the count's presence, exactly in whose tiles they are.
	if seat != 0 || drawn == 0 || want == 0 || others != 0 {
		t.Fatalf("seat view: seat %d, %d concealed tiles drawn (view holds %d), %d racks of others", seat, drawn, want, others)
	}
	if err := chromedp.Run(ctx, chromedp.FullScreenshot(&png, 100)); err != nil {
		t.Fatal(err)
	}
	writeShot(t, filepath.Join(shots, "seat.png"), png)

	// A press that cannot be undone asks first: "No" sends nothing.
	var asked, sentAfterNo string
	var hiddenAfterNo bool
	if err := chromedp.Run(ctx,
		press("take-back"),
		chromedp.Poll(`!document.getElementById('confirm').hidden`, nil, chromedp.WithPollingTimeout(waitFor)),
		chromedp.Text(`#confirm-text`, &asked),
		press("confirm-no"),
		chromedp.Evaluate(`document.getElementById('confirm').hidden`, &hiddenAfterNo),
		chromedp.Evaluate(`JSON.stringify(window.siamese.sent)`, &sentAfterNo),
	); err != nil {
		t.Fatalf("seat view, asked to take back: %v", err)
	}
	if !strings.HasPrefix(asked, "Take back act ") || !hiddenAfterNo || sentAfterNo != "[]" {
		t.Fatalf("seat view: take back asked %q, hidden after no %v, sent %s (want nothing sent)", asked, hiddenAfterNo, sentAfterNo)
	}

	// The seat view's take back, said yes to: the table takes back the last act it recorded,
	// and the seat view (as every view) says how many acts were taken back.
	var info string
	if err := chromedp.Run(ctx,
		press("take-back"),
		press("confirm-yes"),
		chromedp.Poll(`window.siamese.private.view.taken_back >= 1`, nil, chromedp.WithPollingTimeout(waitFor)),
		chromedp.Poll(`document.getElementById('info').textContent.includes('taken back')`, nil, chromedp.WithPollingTimeout(waitFor)),
		chromedp.Text(`#info`, &info),
	); err != nil {
		t.Fatalf("seat view, taking back the last act: %v", err)
	}
	t.Logf("seat view after a take back: %s", info)
}

func writeShot(t *testing.T, path string, png []byte) {
	t.Helper()
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}
