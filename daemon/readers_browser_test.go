package daemon

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/hw/rack"
	"github.com/siamesetable/siamesed/mqtt"
)

// TestFailingReaderNamedOnTheDisplays: on the simulated table, one reader of West's rack 1 made
// weak is named on the table display's banner with its read rate, and no healthy reader is; a
// reader of East's rack 2 gone silent is named down, and its line goes once it answers again.
// Each seat view names only its own racks' readers.
func TestFailingReaderNamedOnTheDisplays(t *testing.T) {
	ctx := browser(t)
	dir := t.TempDir()
	addr, tb := simDaemon(t, dir, quietTable())
	base := "http://" + addr + "/"
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range []string{"p1a", "p1b", "p2a"} {
		must(tb.Put(r, rack.In, parseFaces(t, "1B 2B 3B 4C 5C 6C 7D 8D 9D E S W N J")...))
	}
	must(tb.SetWeak("p2a", "in-01", 0.45))
	must(tb.SetSilent("p1b", "in-00", true))

	// banner is the table display's banner: its lines, and whether it shows.
	var lines []string
	var hidden bool
	banner := func(cond string) {
		t.Helper()
		if err := chromedp.Run(ctx,
			chromedp.Poll(cond, nil, chromedp.WithPollingTimeout(waitFor)),
			chromedp.Evaluate(`[...document.querySelectorAll('#readers .reader-problem')].map(d => d.textContent)`, &lines),
			chromedp.Evaluate(`document.getElementById('readers').hidden`, &hidden),
		); err != nil {
			var h string
			chromedp.Run(ctx, chromedp.Evaluate(`JSON.stringify(window.siamese.health)`, &h))
			t.Fatalf("table display: %v (health %s)", err, h)
		}
	}
	if err := chromedp.Run(ctx, chromedp.Navigate(base)); err != nil {
		t.Fatal(err)
	}
	named := func(reader string) string {
		return fmt.Sprintf(`window.siamese.readers.some(r => r.reader.startsWith(%q))`, reader+"@")
	}
	banner(named("in-01") + " && " + named("in-00"))
	failing, down := lineWith(lines, "reader in-01@"), lineWith(lines, "reader in-00@")
	if hidden || len(lines) != 2 ||
		!strings.HasPrefix(failing, "West's rack 1: reader in-01@") || !strings.Contains(failing, "is failing: it answers ") ||
		!strings.Contains(failing, "% of polls — check the tile positions or the reader") ||
		!strings.HasPrefix(down, "East's rack 2: reader in-00@") || !strings.Contains(down, "is down: it stopped answering") {
		t.Fatalf("the banner (hidden %v): %q", hidden, lines)
	}
	var png []byte
	if err := chromedp.Run(ctx, chromedp.FullScreenshot(&png, 100)); err != nil {
		t.Fatal(err)
	}
	writeShot(t, filepath.Join(screenshotDir(t), "table-readers.png"), png)

	// The silent reader answers again: its line goes, the weak one's stays.
	must(tb.SetSilent("p1b", "in-00", false))
	banner(`!(` + named("in-00") + `)`)
	if hidden || len(lines) != 1 || !strings.HasPrefix(lines[0], "West's rack 1: reader in-01@") {
		t.Fatalf("once in-00 answers again, the banner (hidden %v): %q", hidden, lines)
	}

	creds, _, err := mqtt.LoadOrCreateCredentials(mqtt.CredentialsFile(dir))
	if err != nil {
		t.Fatal(err)
	}
	if got := seatBanner(t, ctx, base, 1, creds.Seats[1]); len(got) != 1 || !strings.HasPrefix(got[0], "Your rack 1: reader in-01@") {
		t.Fatalf("West's seat view: %q", got)
	}
	if got := seatBanner(t, ctx, base, 0, creds.Seats[0]); len(got) != 0 {
		t.Fatalf("East's seat view names another seat's reader: %q", got)
	}
}

// seatBanner logs a seat view in and returns its banner's lines once it has the health.
func seatBanner(t *testing.T, ctx context.Context, base string, seat int, password string) []string {
	t.Helper()
	var lines []string
	var hidden bool
	if err := chromedp.Run(ctx,
		chromedp.Navigate(base+"seat.html"),
		chromedp.WaitVisible(`#password`),
		chromedp.Poll(`document.querySelectorAll('#seat option').length === 2`, nil, chromedp.WithPollingTimeout(waitFor)),
		chromedp.SetValue(`#seat`, fmt.Sprint(seat)),
		chromedp.SendKeys(`#password`, password),
		chromedp.Click(`#login button[type=submit]`),
		chromedp.Poll(`window.siamese.health !== null && window.siamese.private !== null`, nil, chromedp.WithPollingTimeout(waitFor)),
		chromedp.Evaluate(`[...document.querySelectorAll('#readers .reader-problem')].map(d => d.textContent)`, &lines),
		chromedp.Evaluate(`document.getElementById('readers').hidden`, &hidden),
	); err != nil {
		t.Fatalf("seat %d's view: %v", seat, err)
	}
	if hidden != (len(lines) == 0) {
		t.Fatalf("seat %d's view: the banner's lines %q, hidden %v", seat, lines, hidden)
	}
	return lines
}

// lineWith is the first line holding s, or "".
func lineWith(lines []string, s string) string {
	for _, l := range lines {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}

func parseFaces(t *testing.T, s string) []tile.Face {
	t.Helper()
	var out []tile.Face
	for _, f := range strings.Fields(s) {
		face, err := tile.Parse(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, face)
	}
	return out
}
