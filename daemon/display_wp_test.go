package daemon

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestWrightPattersonDisplay: a Wright-Patterson table on a simulated clock (whole games in
// seconds, tracked exactly) shown in a browser: the display tells the rolls, every flower
// exchange and each bouquet as events, the bouquet with its payment in limits; it draws the
// flowers laid on the racks, the scores in points and limits and the wall-game pot; at each
// game's end the result and payouts in limits; and never a concealed tile. A screenshot is
// saved.
func TestWrightPattersonDisplay(t *testing.T) {
	ctx := browser(t)
	cfg := liveConfig()
	cfg.Rules = "wright-patterson-siamese"
	// The simulated clock at the table's own pace (the live tests' quick pace is faster than
	// the racks settle: fine for drawing acts, not for whole games tracked right).
	cfg.Sim.Fast, cfg.Sim.Faults = true, 0
	cfg.Sim.Pace, cfg.Track.Grace = Defaults().Sim.Pace, Defaults().Track.Grace
	addr, _ := runDaemon(t, cfg, t.TempDir())
	var racked int
	var score, pot string
	if err := chromedp.Run(ctx,
		chromedp.Navigate("http://"+addr+"/"),
		chromedp.Poll(`document.querySelectorAll('.rack .flowers .tile[data-face="F"]').length > 0`, nil, chromedp.WithPollingTimeout(waitFor)),
		chromedp.Evaluate(`document.querySelectorAll('.rack .flowers .tile[data-face="F"]').length`, &racked),
		chromedp.Evaluate(`[...document.querySelectorAll('.seat-head .score')].map(e => e.textContent).join(' | ')`, &score),
		chromedp.Evaluate(`document.getElementById('pot').textContent`, &pot),
	); err != nil {
		t.Fatalf("flowers on the racks: %v", err)
	}
	if !strings.Contains(score, "limit") || !strings.HasPrefix(pot, "wall-game pot ") {
		t.Fatalf("scores %q, %q", score, pot)
	}
	var png []byte
	if err := chromedp.Run(ctx, chromedp.Poll(`[...document.images].every(i => i.complete)`, nil, chromedp.WithPollingTimeout(waitFor)),
		chromedp.FullScreenshot(&png, 100)); err != nil {
		t.Fatal(err)
	}
	writeShot(t, filepath.Join(screenshotDir(t), "table-wp.png"), png)

	var flowers, rolls, bouquets, concealedShown int
	var bouquetText string
	if err := chromedp.Run(ctx,
		chromedp.Poll(`window.siamese.events.some(e => e.kind === 'bouquet') && window.siamese.events.some(e => e.kind === 'roll')`,
			nil, chromedp.WithPollingTimeout(2*waitFor)),
		chromedp.Evaluate(`window.siamese.events.filter(e => e.kind === 'flower').length`, &flowers),
		chromedp.Evaluate(`window.siamese.events.filter(e => e.kind === 'roll').length`, &rolls),
		chromedp.Evaluate(`window.siamese.events.filter(e => e.kind === 'bouquet').length`, &bouquets),
		chromedp.Evaluate(`window.siamese.events.find(e => e.kind === 'bouquet').text`, &bouquetText),
		chromedp.Evaluate(`document.querySelectorAll('.standing .tile[data-face]:not([data-face=""])').length`, &concealedShown),
	); err != nil {
		var ev string
		chromedp.Run(ctx, chromedp.Evaluate(`JSON.stringify(window.siamese.events.slice(-20))`, &ev))
		t.Fatalf("events: %v; the last: %s", err, ev)
	}
	if flowers == 0 || concealedShown != 0 || !strings.Contains(bouquetText, "limit") || !strings.Contains(bouquetText, "paid at once") {
		t.Fatalf("%d flower events, %d rolls, %d bouquets (%q), %d concealed faces drawn", flowers, rolls, bouquets, bouquetText, concealedShown)
	}

	// The end of a game with a Mah Jongg: the scores and payouts in limits.
	var results []struct {
		Reason string   `json:"reason"`
		Lines  []string `json:"lines"`
	}
	if err := chromedp.Run(ctx,
		chromedp.Poll(`window.siamese.results.some(r => r.lines.some(l => l.includes(' pays ')))`, nil, chromedp.WithPollingTimeout(2*waitFor)),
		chromedp.Evaluate(`window.siamese.results`, &results),
	); err != nil {
		var res, games string
		chromedp.Run(ctx, chromedp.Evaluate(`JSON.stringify(window.siamese.results)`, &res),
			chromedp.Evaluate(`JSON.stringify([...new Set(window.siamese.drawn.map(d => d.game))])`, &games))
		t.Fatalf("results: %v; results shown %s; games drawn %s", err, res, games)
	}
	for _, r := range results {
		for _, l := range r.Lines {
			if strings.ContainsAny(l, "0123456789") && !strings.Contains(l, "limit") {
				t.Errorf("result %s: %q is not in limits", r.Reason, l)
			}
		}
	}
	t.Logf("%d flower exchanges, %d rolls, %d bouquets told; %d results, the first: %s %q", flowers, rolls, bouquets, len(results), results[0].Reason, results[0].Lines)
}
