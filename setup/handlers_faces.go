package setup

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/vision/area"
	"github.com/siamesetable/siamesed/vision/labels"
)

// The Camera section's "Enrol faces" step (faces.go): the empty area first, then each face the
// card uses captured, shown, retaken or accepted, and at the end checked with the model and
// handed to the camera worker.

// facesState is the enrolment under way: the corners the empty area was captured through here
// (zero: not yet), and the crop captured and not accepted yet.
type facesState struct {
	mu      sync.Mutex
	empty   area.Calibration
	pending *Picture
	face    tile.Face // of pending
}

// emptyKnown says whether the camera knows the empty area through the corners saved now:
// captured here since they were saved, or kept beside the enrolment by the camera worker
// (labels.EmptyView), which takes it up again when it starts.
func (s *Server) emptyKnown() bool {
	a, err := s.savedArea()
	if err != nil {
		return false
	}
	s.fc.mu.Lock()
	here := s.fc.empty == a
	s.fc.mu.Unlock()
	if here || s.o.EnrolmentDir == "" {
		return here
	}
	png, corners := labels.EmptyView(s.o.EnrolmentDir)
	kept, err := area.Load(corners)
	if err != nil || kept != a {
		return false
	}
	_, err = os.Stat(png)
	return err == nil
}

// facesOut is the enrolment as the page shows it.
type facesOut struct {
	Dir      string      `json:"dir"`
	Card     string      `json:"card"`     // which card the faces are for
	Required []tile.Face `json:"required"` // J and every face the card uses
	Enrolled []enrolled  `json:"enrolled"`
	Left     []tile.Face `json:"left"`  // required and not enrolled yet, in order
	Empty    bool        `json:"empty"` // the empty area is captured: faces can be
	Pending  *tile.Face  `json:"pending"`
}

type enrolled struct {
	Face  tile.Face `json:"face"`
	Image string    `json:"image"`
}

type faceBody struct {
	Face    *tile.Face `json:"face"`
	Replace bool       `json:"replace"`
}

func (s *Server) facesAPI() map[string]http.HandlerFunc {
	return map[string]http.HandlerFunc{
		"GET /api/setup/camera/faces":          s.faces,
		"POST /api/setup/camera/faces/empty":   s.captureEmpty,
		"POST /api/setup/camera/faces/capture": s.captureFace,
		"POST /api/setup/camera/faces/accept":  s.acceptFace,
		"POST /api/setup/camera/faces/check":   s.checkFaces,
	}
}

// enrolment is the enrolment folder and the faces required, or answers why not (false).
func (s *Server) enrolment(w http.ResponseWriter) (Enrolment, []tile.Face, string, bool) {
	if s.noCamera(w) {
		return Enrolment{}, nil, "", false
	}
	if s.o.EnrolmentDir == "" {
		fail(w, http.StatusConflict, "this table names no enrolment folder (vision.enrolment)")
		return Enrolment{}, nil, "", false
	}
	req, which, err := s.requiredFaces()
	if err != nil {
		fail(w, http.StatusConflict, "the faces to enrol are not known: %v", err)
		return Enrolment{}, nil, "", false
	}
	e, err := ReadEnrolment(s.o.EnrolmentDir)
	if err != nil {
		fail(w, http.StatusInternalServerError, "%v", err)
		return Enrolment{}, nil, "", false
	}
	return e, req, which, true
}

func (s *Server) facesOut(e Enrolment, req []tile.Face, which string) facesOut {
	out := facesOut{Dir: e.Dir, Card: which, Required: req, Left: append([]tile.Face{}, labels.Missing(e.Faces(), req)...), Enrolled: []enrolled{}}
	for _, f := range e.Faces() {
		out.Enrolled = append(out.Enrolled, enrolled{Face: f, Image: e.Image(f)})
	}
	out.Empty = s.emptyKnown()
	s.fc.mu.Lock()
	if s.fc.pending != nil {
		f := s.fc.face
		out.Pending = &f
	}
	s.fc.mu.Unlock()
	return out
}

func (s *Server) faces(w http.ResponseWriter, r *http.Request) {
	if e, req, which, ok := s.enrolment(w); ok {
		writeJSON(w, http.StatusOK, s.facesOut(e, req, which))
	}
}

// capture asks the camera through the saved corners, a; a refusal or failure is answered.
func (s *Server) capture(w http.ResponseWriter, empty bool) (Picture, area.Calibration, bool) {
	a, err := s.savedArea()
	if err != nil {
		fail(w, http.StatusConflict, "%v", err)
		return Picture{}, a, false
	}
	p, err := s.o.Camera.Capture(a, empty)
	switch {
	case errors.Is(err, ErrRefused):
		fail(w, http.StatusUnprocessableEntity, "nothing captured: %s", strings.TrimPrefix(err.Error(), ErrRefused.Error()+": "))
		return Picture{}, a, false
	case err != nil:
		fail(w, http.StatusServiceUnavailable, "the camera gave no capture: %v", err)
		return Picture{}, a, false
	}
	return p, a, true
}

func (s *Server) captureEmpty(w http.ResponseWriter, r *http.Request) {
	var body struct{}
	if !readJSON(w, r, &body, 1<<10) {
		return
	}
	if _, _, _, ok := s.enrolment(w); !ok {
		return
	}
	s.fc.mu.Lock()
	s.fc.empty, s.fc.pending = area.Calibration{}, nil
	s.fc.mu.Unlock()
	p, a, ok := s.capture(w, true)
	if !ok {
		return
	}
	s.fc.mu.Lock()
	s.fc.empty = a
	s.fc.mu.Unlock()
	writeJSON(w, http.StatusOK, p)
}

func (s *Server) captureFace(w http.ResponseWriter, r *http.Request) {
	var body faceBody
	if !readJSON(w, r, &body, 1<<10) {
		return
	}
	e, req, which, ok := s.enrolment(w)
	if !ok {
		return
	}
	switch {
	case body.Face == nil:
		fail(w, http.StatusUnprocessableEntity, "nothing captured: name the face to capture")
		return
	case !slices.Contains(req, *body.Face):
		fail(w, http.StatusUnprocessableEntity, "nothing captured: %v is not a face to enrol: %s uses %s, and J", *body.Face, which, tile.Format(req))
		return
	}
	s.fc.mu.Lock()
	s.fc.pending = nil
	s.fc.mu.Unlock()
	if !s.emptyKnown() {
		fail(w, http.StatusConflict, "nothing captured: clear the discard area and capture it empty first (Start)")
		return
	}
	p, _, ok := s.capture(w, false)
	if !ok {
		return
	}
	s.fc.mu.Lock()
	s.fc.pending, s.fc.face = &p, *body.Face
	s.fc.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"face": *body.Face, "crop": p, "enrolled": e.Image(*body.Face), "faces": s.facesOut(e, req, which)})
}

func (s *Server) acceptFace(w http.ResponseWriter, r *http.Request) {
	var body faceBody
	if !readJSON(w, r, &body, 1<<10) {
		return
	}
	e, req, which, ok := s.enrolment(w)
	if !ok {
		return
	}
	e, no := s.accept(e, body)
	switch {
	case no.already:
		writeJSON(w, no.code, map[string]any{"error": no.msg, "already": true})
	case no.code != 0:
		fail(w, no.code, "%s", no.msg)
	default:
		writeJSON(w, http.StatusOK, s.facesOut(e, req, which))
	}
}

// refusal is why a crop was not saved (code 0: it was); already: its face is enrolled, and the
// page may offer to replace it.
type refusal struct {
	code    int
	msg     string
	already bool
}

// accept saves the crop captured for body's face, if it is the one captured (and, for a face
// enrolled already, if body says replace); else it says why not and changes nothing.
func (s *Server) accept(e Enrolment, body faceBody) (Enrolment, refusal) {
	s.fc.mu.Lock()
	defer s.fc.mu.Unlock()
	switch {
	case body.Face == nil:
		return e, refusal{code: http.StatusUnprocessableEntity, msg: "nothing saved: name the face to accept"}
	case s.fc.pending == nil || s.fc.face != *body.Face:
		return e, refusal{code: http.StatusConflict, msg: fmt.Sprintf("nothing saved: capture %v first", *body.Face)}
	case e.Image(*body.Face) != "" && !body.Replace:
		return e, refusal{code: http.StatusConflict, already: true,
			msg: fmt.Sprintf("nothing saved: %v is enrolled already (%s): replace it with this crop?", *body.Face, e.Image(*body.Face))}
	}
	e, err := e.Add(*body.Face, s.fc.pending.JPEG, body.Replace)
	if err != nil {
		return e, refusal{code: http.StatusInternalServerError, msg: err.Error()}
	}
	s.fc.pending = nil
	s.o.Log.Info("setup: a face enrolled", "face", *body.Face, "dir", e.Dir, "replaced", body.Replace)
	return e, refusal{}
}
