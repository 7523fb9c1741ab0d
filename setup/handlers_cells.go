package setup

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/siamesetable/siamesed/hw/loadcell"
)

// The load cells' calibration, zone by zone: the owner clears the zone and presses Tare (the
// empty zone's reading, checked steady, is kept here), lays a known weight on it, enters its
// grams and presses Save (the loaded reading, checked steady, gives the scale; the calibration
// applies at once and is saved). Both are refused while a game is in play: the zone's tile
// count would change under the game.

// Cells are the racks' load cells, as the calibration needs them.
type Cells interface {
	// ReadCell takes n readings of a zone's load cell (zone "rack/zone"; each the median of a
	// few conversions), between two of the racks' scans.
	ReadCell(zone string, n int) ([]int32, error)
	// SaveCell makes cal the zone's calibration now, and saves it where the next start reads
	// it: file is where, or "" with why not (racks whose profile names no calibration file).
	SaveCell(zone string, cal loadcell.Calibration) (file, why string, err error)
}

// Readings taken for a step, and how far apart they may lie to count as steady (some 1.5 g at
// a typical cell's 400 counts a gram; a hand resting on the rack moves it by tens of grams).
const (
	cellReadings = 5
	cellSpread   = 600
)

type cellBody struct {
	Grams *float64 `json:"grams"`
}

func (s *Server) cellRoutes(mux *http.ServeMux) {
	mux.Handle("POST /api/setup/racks/cells/{rack}/{zone}/tare", s.changes(s.owner(s.withCells(s.tareCell))))
	mux.Handle("POST /api/setup/racks/cells/{rack}/{zone}/save", s.changes(s.owner(s.withCells(s.saveCell))))
}

func (s *Server) withCells(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.o.Cells == nil {
			fail(w, http.StatusNotFound, "this table has no load cells")
			return
		}
		if err := s.noGame(); err != nil {
			fail(w, http.StatusConflict, "nothing was measured: %v", calibrationInPlay(err))
			return
		}
		h(w, r)
	}
}

// calibrationInPlay says why a game stops a calibration.
func calibrationInPlay(err error) string {
	var g *gameInPlay
	if errors.As(err, &g) {
		return fmt.Sprintf("a game is in play (game %s, %d acts): a new calibration would change the zone's tile count under it; calibrate between games", g.p.Game, g.p.Acts)
	}
	return err.Error()
}

// steadyReading reads a zone and checks the readings agree.
func (s *Server) steadyReading(zone string) (int32, int, string) {
	rs, err := s.o.Cells.ReadCell(zone, cellReadings)
	if err != nil {
		return 0, http.StatusNotFound, fmt.Sprintf("%s: %v", zone, err)
	}
	v, err := loadcell.Steady(rs, cellSpread)
	if err != nil {
		return 0, http.StatusUnprocessableEntity, fmt.Sprintf("%s: %v", zone, err)
	}
	return v, 0, ""
}

func (s *Server) tareCell(w http.ResponseWriter, r *http.Request) {
	var b cellBody
	if !readJSON(w, r, &b, 4<<10) {
		return
	}
	zone := r.PathValue("rack") + "/" + r.PathValue("zone")
	zero, code, msg := s.steadyReading(zone)
	if code != 0 {
		fail(w, code, "nothing was saved: %s", msg)
		return
	}
	s.calMu.Lock()
	s.tares[zone] = zero
	s.calMu.Unlock()
	s.o.Log.Info("setup: load cell tared", "zone", zone, "zero", zero)
	writeJSON(w, http.StatusOK, map[string]any{"zone": zone, "zero": zero,
		"message": fmt.Sprintf("%s tared (reads %d empty): now lay a known weight on it, enter its grams and press Save", zone, zero)})
}

func (s *Server) saveCell(w http.ResponseWriter, r *http.Request) {
	var b cellBody
	if !readJSON(w, r, &b, 4<<10) {
		return
	}
	zone := r.PathValue("rack") + "/" + r.PathValue("zone")
	if b.Grams == nil {
		fail(w, http.StatusUnprocessableEntity, "nothing was saved: enter the known weight lying on %s, in grams", zone)
		return
	}
	s.calMu.Lock()
	zero, tared := s.tares[zone]
	s.calMu.Unlock()
	if !tared {
		fail(w, http.StatusConflict, "nothing was saved: tare %s first (clear it and press Tare), then lay the weight on it", zone)
		return
	}
	loaded, code, msg := s.steadyReading(zone)
	if code != 0 {
		fail(w, code, "nothing was saved: %s", msg)
		return
	}
	cal, err := loadcell.FromKnownWeight(zero, loaded, *b.Grams)
	if err != nil {
		fail(w, http.StatusUnprocessableEntity, "nothing was saved: %s: %v", zone, err)
		return
	}
	file, why, err := s.o.Cells.SaveCell(zone, cal)
	if err != nil {
		fail(w, http.StatusInternalServerError, "%s: %v", zone, err)
		return
	}
	s.calMu.Lock()
	delete(s.tares, zone)
	s.calMu.Unlock()
	where := "saved to " + file
	if file == "" {
		where = "in use until the daemon stops, not saved: " + why
	}
	s.o.Log.Info("setup: load cell calibrated", "zone", zone, "offset", cal.Offset, "counts_per_gram", cal.CountsPerGram, "file", file)
	writeJSON(w, http.StatusOK, map[string]any{"zone": zone, "calibration": cal, "file": file,
		"message": fmt.Sprintf("%s calibrated: %.1f counts a gram, %s", zone, cal.CountsPerGram, where)})
}
