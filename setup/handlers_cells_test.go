package setup

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/siamesetable/siamesed/hw/loadcell"
)

// fakeCells is one load cell, p1a/in, whose next readings a test sets.
type fakeCells struct {
	mu       sync.Mutex
	readings []int32
	saved    []loadcell.Calibration
}

func (f *fakeCells) set(rs ...int32) {
	f.mu.Lock()
	f.readings = rs
	f.mu.Unlock()
}

func (f *fakeCells) ReadCell(zone string, n int) ([]int32, error) {
	if zone != "p1a/in" {
		return nil, fmt.Errorf("no load cell under %s", zone)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.readings) != n {
		return nil, fmt.Errorf("fake: %d readings set, %d asked", len(f.readings), n)
	}
	return f.readings, nil
}

func (f *fakeCells) SaveCell(zone string, cal loadcell.Calibration) (string, string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.saved = append(f.saved, cal)
	return "/data/calibration.yaml", "", nil
}

func steady(v int32) []int32 { return []int32{v - 40, v + 30, v, v + 10, v - 20} }

// TestCalibratingALoadCell: a zone is tared, then saved with a known weight: the calibration
// is the empty reading and the scale. Saving before taring, without a weight, with a weight of
// nothing or that moved nothing, or on readings that do not agree, is refused with what to do
// and saves nothing; so is a zone without a cell, and any step while a game is in play.
func TestCalibratingALoadCell(t *testing.T) {
	cells := &fakeCells{}
	h := newHarness(t, func(o *Options) { o.Cells = cells })
	const tare, save = "/api/setup/racks/cells/p1a/in/tare", "/api/setup/racks/cells/p1a/in/save"
	for _, p := range []string{tare, save} {
		if resp, _ := h.call("POST", p, "", map[string]any{}); resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s without the session: %d", p, resp.StatusCode)
		}
	}
	cookie := h.login()
	refused := func(path string, body any, code int, says string) {
		t.Helper()
		resp, out := h.call("POST", path, cookie, body)
		if msg, _ := out["error"].(string); resp.StatusCode != code || !strings.Contains(msg, says) {
			t.Fatalf("%s %v: %d %v, want %d saying %q", path, body, resp.StatusCode, out, code, says)
		}
	}
	cells.set(steady(60_000)...)
	refused(save, map[string]any{"grams": 100}, http.StatusConflict, "tare p1a/in first")
	cells.set(60_000, 60_100, 95_000, 140_000, 61_000) // a hand on the rack
	refused(tare, map[string]any{}, http.StatusUnprocessableEntity, "not steady")
	refused(save, map[string]any{"grams": 100}, http.StatusConflict, "tare p1a/in first")
	refused("/api/setup/racks/cells/p9z/in/tare", map[string]any{}, http.StatusNotFound, "no load cell under p9z/in")

	cells.set(steady(60_000)...)
	if resp, out := h.call("POST", tare, cookie, map[string]any{}); resp.StatusCode != 200 || out["zero"] != 60_000.0 {
		t.Fatalf("tare: %d %v", resp.StatusCode, out)
	}
	refused(save, map[string]any{}, http.StatusUnprocessableEntity, "enter the known weight")
	refused(save, map[string]any{"grams": 0}, http.StatusUnprocessableEntity, "in grams")
	refused(save, map[string]any{"grams": 100}, http.StatusUnprocessableEntity, "put the weight on the zone")
	cells.set(60_000, 100_000, 60_000, 100_000, 80_000) // still swinging
	refused(save, map[string]any{"grams": 100}, http.StatusUnprocessableEntity, "not steady")
	if len(cells.saved) != 0 {
		t.Fatalf("refused steps saved %v", cells.saved)
	}

	cells.set(steady(60_000 + 41_000)...)
	resp, out := h.call("POST", save, cookie, map[string]any{"grams": 100})
	if resp.StatusCode != 200 || len(cells.saved) != 1 || cells.saved[0] != (loadcell.Calibration{Offset: 60_000, CountsPerGram: 410}) ||
		!strings.Contains(out["message"].(string), "saved to /data/calibration.yaml") {
		t.Fatalf("save: %d %v, saved %v", resp.StatusCode, out, cells.saved)
	}
	refused(save, map[string]any{"grams": 100}, http.StatusConflict, "tare p1a/in first") // a tare is for one save

	h.table.mu.Lock()
	h.table.playing.Game, h.table.playing.Acts = "g3", 9
	h.table.mu.Unlock()
	refused(tare, map[string]any{}, http.StatusConflict, "a game is in play (game g3, 9 acts): a new calibration would change")
	if !strings.Contains(h.logged(), "load cell calibrated") {
		t.Error("the calibration is not logged")
	}
}
