package setup

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/siamesetable/siamesed/configs"
	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/internal/safefile"
	"github.com/siamesetable/siamesed/vision/area"
	"github.com/siamesetable/siamesed/vision/labels"
	"github.com/siamesetable/siamesed/vision/wire"
)

// The Camera section's enrolment: the faces the table's card uses, and J, captured one by one
// from the camera through the saved corners and kept in the enrolment folder in the layout
// `siamesed enroll camera` writes (labels.csv, images/), where the camera worker reads them.

// ErrRefused is wrapped by a capture the camera refused as bad input (no tile, more than one,
// not still): the player lays the tile again; nothing is wrong with the camera.
var ErrRefused = errors.New("the camera refused the capture")

// Checked is an enrolment checked with the model: each crop named back, and the faces it holds
// alike.
type Checked struct {
	Crops []wire.Recognised
	Alike []wire.Alike
}

// Enrolment is the enrolment folder Dir's faces, as the page shows them.
type Enrolment struct {
	Dir   string
	Items []labels.Item
}

// ReadEnrolment reads the enrolment folder dir; none yet is an empty enrolment.
func ReadEnrolment(dir string) (Enrolment, error) {
	items, err := labels.Read(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return Enrolment{Dir: dir}, nil
	}
	if err != nil {
		return Enrolment{}, fmt.Errorf("setup: the enrolment: %w", err)
	}
	return Enrolment{Dir: dir, Items: items}, nil
}

// Faces are the faces enrolled, each once, in order.
func (e Enrolment) Faces() []tile.Face {
	var out []tile.Face
	for _, it := range e.Items {
		if !slices.Contains(out, it.Tile) {
			out = append(out, it.Tile)
		}
	}
	return out
}

// Image is the crop enrolled for f ("": none).
func (e Enrolment) Image(f tile.Face) string {
	for _, it := range e.Items {
		if it.Tile == f {
			return it.Image
		}
	}
	return ""
}

// Add saves jpeg as the crop of f: the image first, then labels.csv naming it (each whole or
// not at all), then the crops it replaces are removed. A face enrolled already is replaced only
// with replace.
func (e Enrolment) Add(f tile.Face, jpeg []byte, replace bool) (Enrolment, error) {
	if old := e.Image(f); old != "" && !replace {
		return e, fmt.Errorf("setup: %v is enrolled already (%s)", f, old)
	}
	if err := os.MkdirAll(filepath.Join(e.Dir, labels.ImageDir), 0o755); err != nil {
		return e, fmt.Errorf("setup: the enrolment: %w", err)
	}
	n := 1
	for {
		name := fmt.Sprintf("%03d-%v.jpg", n, f)
		if !slices.ContainsFunc(e.Items, func(it labels.Item) bool { return it.Image == name }) {
			if _, err := os.Stat(filepath.Join(e.Dir, labels.ImageDir, name)); errors.Is(err, fs.ErrNotExist) {
				break
			}
		}
		n++
	}
	name := fmt.Sprintf("%03d-%v.jpg", n, f)
	if err := safefile.WriteFile(filepath.Join(e.Dir, labels.ImageDir, name), jpeg, 0o644); err != nil {
		return e, fmt.Errorf("setup: the enrolment: %w", err)
	}
	var gone []string
	out := Enrolment{Dir: e.Dir}
	for _, it := range e.Items {
		if it.Tile == f {
			gone = append(gone, it.Image)
		} else {
			out.Items = append(out.Items, it)
		}
	}
	out.Items = append(out.Items, labels.Item{Image: name, Tile: f})
	var b bytes.Buffer
	if err := labels.Write(&b, out.Items); err != nil {
		return e, err
	}
	if err := safefile.WriteFile(filepath.Join(e.Dir, labels.FileName), b.Bytes(), 0o644); err != nil {
		return e, fmt.Errorf("setup: the enrolment: %w", err)
	}
	for _, g := range gone {
		if err := os.Remove(filepath.Join(e.Dir, labels.ImageDir, g)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return out, fmt.Errorf("setup: the enrolment: the replaced crop: %w", err)
		}
	}
	return out, nil
}

// Crop reads the enrolled crop named image (one listed in labels.csv).
func (e Enrolment) Crop(image string) ([]byte, error) {
	if !slices.ContainsFunc(e.Items, func(it labels.Item) bool { return it.Image == image }) {
		return nil, fmt.Errorf("setup: %q is not an enrolled crop", image)
	}
	return os.ReadFile(filepath.Join(e.Dir, labels.ImageDir, image))
}

// requiredFaces are the faces the table must enrol (labels.Required) for the card it plays
// next: the Table section's saved card, or the configuration's; and which card that is.
func (s *Server) requiredFaces() ([]tile.Face, string, error) {
	s.mu.Lock()
	saved := s.saved
	s.mu.Unlock()
	rules, path, which := s.o.Config.Rules, s.o.Config.CardName, "the configuration's card"
	if saved != nil {
		rules, path, which = saved.Rules, saved.CardPath(s.o.DataDir), "the card saved in the Table section"
	}
	r, err := configs.LoadRuleset(rules)
	if err != nil {
		return nil, "", fmt.Errorf("setup: %w", err)
	}
	c, err := configs.LoadCardFor(path, r)
	if err != nil {
		return nil, "", fmt.Errorf("setup: %w", err)
	}
	if c.Card.Name != "" {
		which += " (" + c.Card.Name + ")"
	}
	return labels.Required(c.Card.Faces()), which, nil
}

// savedArea is the saved calibration the captures look through, or why there is none.
func (s *Server) savedArea() (area.Calibration, error) {
	c, problem := savedCalibration(s.o.CalibrationFile)
	switch {
	case problem != "":
		return area.Calibration{}, fmt.Errorf("the saved corners cannot be read: %s", problem)
	case c == nil:
		return area.Calibration{}, errors.New("save the discard area's corners first: the faces are captured through them")
	}
	return *c, nil
}

// facesChecks is the Faces check where a camera worker runs: every face the card needs enrolled,
// and the enrolment as it stands checked (faces_checked.go); the simulated camera enrols its own.
func (s *Server) facesChecks() []Check {
	if s.o.Camera == nil {
		return nil
	}
	return []Check{{Name: "Faces", Ready: func() (bool, string) {
		if s.o.CameraName == "sim" {
			return true, "the simulated camera enrols every face itself (Enrol faces walks it as at a real table)"
		}
		req, which, err := s.requiredFaces()
		if err != nil {
			return false, fmt.Sprintf("the faces to enrol are not known: %v", err)
		}
		e, err := ReadEnrolment(s.o.EnrolmentDir)
		if err != nil {
			return false, err.Error()
		}
		if left := labels.Missing(e.Faces(), req); len(left) > 0 {
			return false, fmt.Sprintf("%d of %d faces are still to enrol (%s): Enrol faces in the Camera section", len(left), len(req), tile.Format(left))
		}
		if ok, why := s.checkedNow(e); !ok {
			return false, why
		}
		return true, fmt.Sprintf("every face of %s and J is enrolled and checked (%s)", which, e.Dir)
	}}}
}
