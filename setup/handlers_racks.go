package setup

import (
	"errors"
	"fmt"
	"net/http"
	"slices"

	"github.com/siamesetable/siamesed/hw/enroll"
)

// The Racks section's API: every reader and load cell live; the tag enrolment walk, started
// and stopped from the page (it advances by itself as tags are read).
func (s *Server) racksRoutes(mux *http.ServeMux) {
	mux.Handle("GET /api/setup/racks", s.owner(s.withRacks(s.racks)))
	mux.Handle("POST /api/setup/racks/enrol/start", s.changes(s.owner(s.withRacks(s.startEnrol))))
	mux.Handle("POST /api/setup/racks/enrol/stop", s.changes(s.owner(s.withRacks(s.stopEnrol))))
	mux.Handle("POST /api/setup/racks/enrol/forget", s.changes(s.owner(s.withRacks(s.forgetTag))))
}

// withRacks answers 404 on a table whose daemon passed no racks.
func (s *Server) withRacks(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.o.Racks == nil {
			fail(w, http.StatusNotFound, "this table has no racks")
			return
		}
		h(w, r)
	}
}

func (s *Server) racks(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, racksView(s.o.Racks))
}

type enrolStart struct {
	Reader string `json:"reader"` // "rack/reader"; "": the first
}

// startEnrol starts (or resumes) the enrolment walk on a reader. It is refused while a game
// is in play: a tile set on a rack to be enrolled would be read as a move of the game.
func (s *Server) startEnrol(w http.ResponseWriter, r *http.Request) {
	var b enrolStart
	if !readJSON(w, r, &b, 4<<10) {
		return
	}
	t, ok := s.walk(w)
	if !ok {
		return
	}
	names := s.o.Racks.Readers()
	if b.Reader == "" && len(names) > 0 {
		b.Reader = names[0]
	}
	if !slices.Contains(names, b.Reader) {
		fail(w, http.StatusNotFound, "no reader %q on these racks", b.Reader)
		return
	}
	rd, err := s.o.Racks.Reader(b.Reader)
	if err != nil {
		fail(w, http.StatusInternalServerError, "%v", err)
		return
	}
	err = t.Walk.Start(b.Reader, rd, s.noGame)
	var inPlay *gameInPlay
	switch {
	case errors.As(err, &inPlay), errors.Is(err, enroll.ErrWalking):
		fail(w, http.StatusConflict, "the enrolment did not start: %v", err)
		return
	case err != nil:
		fail(w, http.StatusInternalServerError, "%v", err)
		return
	}
	s.o.Log.Info("setup: the tag enrolment walk started", "reader", b.Reader, "file", t.File)
	writeJSON(w, http.StatusOK, t.Walk.State())
}

// walk is the racks' tags with their enrolment walk; false, answered, where tags cannot be
// enrolled.
func (s *Server) walk(w http.ResponseWriter) (Tags, bool) {
	t := s.o.Racks.Tags()
	if t.Walk == nil {
		fail(w, http.StatusConflict, "tags cannot be enrolled here: %s", t.Why)
		return t, false
	}
	return t, true
}

func (s *Server) stopEnrol(w http.ResponseWriter, r *http.Request) {
	var b struct{}
	if !readJSON(w, r, &b, 4<<10) {
		return
	}
	t, ok := s.walk(w)
	if !ok {
		return
	}
	t.Walk.Stop()
	st := t.Walk.State()
	s.o.Log.Info("setup: the tag enrolment walk stopped", "enrolled", st.Done, "of", st.Total)
	writeJSON(w, http.StatusOK, st)
}

type forgetBody struct {
	UID string `json:"uid"`
}

// forgetTag removes the tag the walk enrolled last (a tile of another face set down by
// mistake); the walk asks for that face again.
func (s *Server) forgetTag(w http.ResponseWriter, r *http.Request) {
	var b forgetBody
	if !readJSON(w, r, &b, 4<<10) {
		return
	}
	t, ok := s.walk(w)
	if !ok {
		return
	}
	if err := s.noGame(); err != nil {
		fail(w, http.StatusConflict, "nothing was changed: %v", err)
		return
	}
	f, err := t.Walk.Forget(b.UID)
	switch {
	case errors.Is(err, enroll.ErrNotEnrolled):
		fail(w, http.StatusNotFound, "nothing was changed: %v", err)
		return
	case err != nil:
		fail(w, http.StatusInternalServerError, "%v", err)
		return
	}
	s.o.Log.Info("setup: an enrolled tag forgotten", "uid", b.UID, "face", f.String())
	writeJSON(w, http.StatusOK, t.Walk.State())
}

// gameInPlay refuses set-up steps that put tiles on the racks while a game is played.
type gameInPlay struct{ p Playing }

func (g *gameInPlay) Error() string {
	return fmt.Sprintf("a game is in play (game %s, %d acts): tiles set on a rack to be enrolled would be read as moves of it; enrol between games", g.p.Game, g.p.Acts)
}

// noGame says no while the table's game has acts and is not over.
func (s *Server) noGame() error {
	p, _ := s.o.Table.Playing()
	if p.Acts > 0 && !p.Waiting {
		return &gameInPlay{p}
	}
	return nil
}
