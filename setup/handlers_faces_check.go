package setup

import (
	"fmt"
	"net/http"

	"github.com/siamesetable/siamesed/vision/wire"
)

// checkedOut is the Check's answer: each crop as the model names it, the pairs it holds alike
// with both crops to show side by side, and whether the camera took the enrolment.
type checkedOut struct {
	Crops    []wire.Recognised `json:"crops"`
	Misread  []wire.Recognised `json:"misread"`
	Alike    []alikeOut        `json:"alike"`
	Ready    bool              `json:"ready"`
	Says     string            `json:"says"`
	Reloaded string            `json:"reloaded,omitempty"`
}

type alikeOut struct {
	wire.Alike
	JPEGA []byte `json:"jpeg_a"`
	JPEGB []byte `json:"jpeg_b"`
}

// checkFaces checks the enrolment with the model once every face is enrolled; when each crop
// is named back as its own face, the camera worker takes the enrolment (Reload), the check is
// recorded against the enrolment's fingerprint (the Faces check then ticks) and the page says
// the camera is ready. Faces held alike are shown, as enroll camera warns of them.
func (s *Server) checkFaces(w http.ResponseWriter, r *http.Request) {
	var body struct{}
	if !readJSON(w, r, &body, 1<<10) {
		return
	}
	e, req, _, ok := s.enrolment(w)
	if !ok {
		return
	}
	if left := s.facesOut(e, req, "").Left; len(left) > 0 {
		fail(w, http.StatusConflict, "not checked: %d faces are still to enrol (%v)", len(left), left)
		return
	}
	fp, err := e.Fingerprint()
	if err != nil {
		fail(w, http.StatusInternalServerError, "%v", err)
		return
	}
	c, err := s.o.Camera.Check(e.Dir)
	if err != nil {
		fail(w, http.StatusServiceUnavailable, "the camera could not check the enrolment: %v", err)
		return
	}
	out := checkedOut{Crops: c.Crops, Misread: []wire.Recognised{}, Alike: []alikeOut{}}
	for _, cr := range c.Crops {
		if !cr.Known || cr.As != cr.Face {
			out.Misread = append(out.Misread, cr)
		}
	}
	for _, a := range c.Alike {
		p := alikeOut{Alike: a}
		if p.JPEGA, err = e.Crop(a.ImageA); err == nil {
			p.JPEGB, err = e.Crop(a.ImageB)
		}
		if err != nil {
			fail(w, http.StatusInternalServerError, "the crops held alike: %v", err)
			return
		}
		out.Alike = append(out.Alike, p)
	}
	if len(out.Misread) > 0 {
		out.Says = fmt.Sprintf("%d of %d faces are not recognised back: capture each again (Retake) and check again", len(out.Misread), len(c.Crops))
		if err := s.forgetChecked(); err != nil {
			fail(w, http.StatusInternalServerError, "%v", err)
			return
		}
		writeJSON(w, http.StatusOK, out)
		return
	}
	if out.Reloaded, err = s.o.Camera.Reload(); err != nil {
		fail(w, http.StatusInternalServerError, "checked, but the camera could not take the enrolment: %v", err)
		return
	}
	// Recorded with the fingerprint taken before the check: a crop saved meanwhile is checked
	// again.
	if err := s.recordChecked(e, fp); err != nil {
		fail(w, http.StatusInternalServerError, "checked, but %v", err)
		return
	}
	out.Ready = true
	out.Says = fmt.Sprintf("The camera is ready: all %d faces are recognised back.", len(c.Crops))
	if len(out.Alike) > 0 {
		out.Says += fmt.Sprintf(" %d pairs of faces look alike to the model (shown below): a tile of one may be asked about; capture a clearer crop of each if you like.", len(out.Alike))
	}
	s.o.Log.Info("setup: the enrolment checked", "dir", e.Dir, "crops", len(c.Crops), "alike", len(out.Alike), "reloaded", out.Reloaded)
	writeJSON(w, http.StatusOK, out)
}
