package wire

import (
	"math"
	"path/filepath"

	"github.com/siamesetable/siamesed/engine/tile"
)

// The set-up page's requests and the check's reply: what each may hold.

// checkSetup checks what only capture, show and check hold: empty, faces, dir.
func (r Request) checkSetup() error {
	switch {
	case r.Empty && r.Op != OpCapture:
		return bad("%s takes no empty", r.Op)
	case r.Faces != nil && r.Op != OpLay && r.Op != OpShow:
		return bad("%s takes no faces", r.Op)
	case r.Dir != "" && r.Op != OpCheck:
		return bad("%s takes no dir", r.Op)
	case r.Op == OpCheck && !filepath.IsAbs(r.Dir):
		return bad("check: dir %q: want the enrolment folder's absolute path", r.Dir)
	}
	return nil
}

// checkChecked checks a check's answer: at least one crop, every face a face, names given.
func (r Reply) checkChecked() error {
	if len(r.Crops) == 0 {
		return bad("checked: no crops")
	}
	for i, c := range r.Crops {
		if c.Image == "" || c.Face >= tile.NumFaces || c.As >= tile.NumFaces {
			return bad("checked: crop %d (%q): want an image and faces", i, c.Image)
		}
	}
	for i, a := range r.Alike {
		s := float64(a.Similarity)
		if a.ImageA == "" || a.ImageB == "" || a.A >= tile.NumFaces || a.B >= tile.NumFaces || math.IsNaN(s) || s < -1 || s > 1 {
			return bad("checked: alike pair %d (%v, %v): want two images, two faces and a similarity from -1 to 1", i, a.A, a.B)
		}
	}
	return nil
}

// warps says whether op looks through corners not necessarily saved: preview and capture.
func warps(op Op) bool { return op == OpPreview || op == OpCapture }

// readArea reads a preview's or capture's corners and view size: four corners of two numbers
// each, and nothing of the kind in any other request.
func readArea(r *Request, j requestJSON) error {
	has := j.Corners != nil || j.Width != 0 || j.Height != 0
	switch {
	case !warps(r.Op) && has:
		return bad("%s takes no corners, width or height", orUnknown(r.Op))
	case !warps(r.Op):
		return nil
	case len(j.Corners) != 4:
		return bad("%s: %d corners: want 4 (top-left, top-right, bottom-right, bottom-left)", r.Op, len(j.Corners))
	case j.Width == 0 || j.Height == 0:
		return bad("%s needs width and height, the top-down view's size", r.Op)
	}
	for i, c := range j.Corners {
		if len(c) != 2 {
			return bad("%s: corner %d has %d numbers: want x, y", r.Op, i, len(c))
		}
		r.Area.Corners[i] = [2]float64{c[0], c[1]}
	}
	r.Area.Width, r.Area.Height = j.Width, j.Height
	return nil
}
