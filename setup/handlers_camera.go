package setup

import (
	"errors"
	"fmt"
	"image"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/siamesetable/siamesed/internal/safefile"
	"github.com/siamesetable/siamesed/vision/area"
)

// The Camera section: the camera's latest frame, the owner's four corners of the discard area
// checked against it and previewed as the top-down view, then saved where the camera worker
// reads its calibration (Options.CalibrationFile), in the format `siamesed calibrate camera`
// writes, and the worker told.

// camState is what the Camera section remembers: the size of the last frame shown, against
// which corners are checked.
type camState struct {
	mu    sync.Mutex
	frame image.Point
}

// cameraOut is the Camera section's picture of the camera.
type cameraOut struct {
	Camera  string            `json:"camera"`            // the configuration's camera: sim, /dev/video0, ...
	Worker  bool              `json:"worker"`            // a vision worker runs it: snapshots can be taken
	File    string            `json:"file"`              // where the calibration is saved
	Saved   *area.Calibration `json:"saved"`             // the calibration saved there, if any
	Problem string            `json:"problem,omitempty"` // the file there cannot be read
	Frame   *frameSize        `json:"frame"`             // the last snapshot's size
	Health  string            `json:"health,omitempty"`  // the camera's state: working, or its problem
}

// cameraAPI is the Camera section's calls (docs/display.md's table lists each): all need the
// owner's session; a POST takes a JSON body from a page of the same origin.
func (s *Server) cameraAPI() map[string]http.HandlerFunc {
	return map[string]http.HandlerFunc{
		"GET /api/setup/camera":              s.cameraStatus,
		"GET /api/setup/camera/snapshot":     s.snapshot,
		"POST /api/setup/camera/preview":     s.preview,
		"POST /api/setup/camera/calibration": s.saveCalibration,
	}
}

type frameSize struct {
	Width  int `json:"width"`
	Height int `json:"height"`
}

func (s *Server) cameraRoutes(mux *http.ServeMux) {
	api := s.cameraAPI()
	for pattern, h := range s.facesAPI() {
		api[pattern] = h
	}
	for pattern, h := range api {
		if strings.HasPrefix(pattern, "POST ") {
			mux.Handle(pattern, s.changes(s.owner(h)))
		} else {
			mux.Handle(pattern, s.owner(h))
		}
	}
}

func (s *Server) cameraStatus(w http.ResponseWriter, r *http.Request) {
	out := cameraOut{Camera: s.o.CameraName, Worker: s.o.Camera != nil, File: s.o.CalibrationFile}
	out.Saved, out.Problem = savedCalibration(s.o.CalibrationFile)
	if s.o.Camera != nil {
		out.Health = s.o.Camera.Health()
	}
	s.cam.mu.Lock()
	if f := s.cam.frame; f != (image.Point{}) {
		out.Frame = &frameSize{Width: f.X, Height: f.Y}
	}
	s.cam.mu.Unlock()
	writeJSON(w, http.StatusOK, out)
}

// savedCalibration is the calibration saved in file (nil: none), or why it cannot be read.
func savedCalibration(file string) (*area.Calibration, string) {
	if file == "" {
		return nil, ""
	}
	c, err := area.Load(file)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, ""
	case err != nil:
		return nil, err.Error()
	}
	return &c, ""
}

// noCamera answers when no worker runs a camera; it says whether it did.
func (s *Server) noCamera(w http.ResponseWriter) bool {
	if s.o.Camera != nil {
		return false
	}
	fail(w, http.StatusConflict, "this table has no camera worker (camera: %s): there is no frame to show", s.o.CameraName)
	return true
}

func (s *Server) snapshot(w http.ResponseWriter, r *http.Request) {
	if s.noCamera(w) {
		return
	}
	p, err := s.o.Camera.Snapshot()
	if err != nil {
		fail(w, http.StatusServiceUnavailable, "the camera gave no snapshot: %v", err)
		return
	}
	s.cam.mu.Lock()
	s.cam.frame = image.Pt(p.Width, p.Height)
	s.cam.mu.Unlock()
	writeJSON(w, http.StatusOK, p)
}

// corners reads and checks a corners form; a bad one is answered (422, every problem listed).
func (s *Server) corners(w http.ResponseWriter, r *http.Request, what string) (area.Calibration, bool) {
	var f CornersForm
	if !readJSON(w, r, &f, 8<<10) {
		return area.Calibration{}, false
	}
	s.cam.mu.Lock()
	frame := s.cam.frame
	s.cam.mu.Unlock()
	c, err := CheckCorners(f, frame)
	var fe *FormError
	if errors.As(err, &fe) {
		writeJSON(w, http.StatusUnprocessableEntity, errorBody{Error: what + ": " + strings.TrimPrefix(fe.Error(), "setup: "), Problems: fe.Problems})
		return area.Calibration{}, false
	}
	return c, true
}

func (s *Server) preview(w http.ResponseWriter, r *http.Request) {
	if s.noCamera(w) {
		return
	}
	c, ok := s.corners(w, r, "no preview")
	if !ok {
		return
	}
	p, err := s.o.Camera.Preview(c)
	if err != nil {
		fail(w, http.StatusServiceUnavailable, "the camera gave no preview: %v", err)
		return
	}
	writeJSON(w, http.StatusOK, p)
}

func (s *Server) saveCalibration(w http.ResponseWriter, r *http.Request) {
	if s.noCamera(w) {
		return
	}
	if s.o.CalibrationFile == "" {
		fail(w, http.StatusConflict, "this table names no calibration file (vision.calibration)")
		return
	}
	c, ok := s.corners(w, r, "nothing was saved")
	if !ok {
		return
	}
	b, err := c.Marshal()
	if err == nil {
		err = os.MkdirAll(filepath.Dir(s.o.CalibrationFile), 0o755)
	}
	if err == nil {
		err = safefile.WriteFile(s.o.CalibrationFile, b, 0o644)
	}
	if err != nil {
		fail(w, http.StatusInternalServerError, "the calibration could not be saved: %v", err)
		return
	}
	s.o.Log.Info("setup: the camera's calibration saved", "file", s.o.CalibrationFile, "corners", c.Corners, "width", c.Width, "height", c.Height)
	how, err := s.o.Camera.Reload()
	if err != nil {
		fail(w, http.StatusInternalServerError, "saved in %s, but the camera could not take it: %v", s.o.CalibrationFile, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"saved": c, "file": s.o.CalibrationFile, "reloaded": how, "at": s.o.Now().UTC().Truncate(time.Second)})
}

// CameraCheck is the table's Camera check: a calibration saved where o says, or no camera
// worker to calibrate.
func CameraCheck(o Options) Check {
	return Check{Name: "Camera", Ready: func() (bool, string) {
		if o.Camera == nil {
			return true, fmt.Sprintf("no camera worker (camera: %s): nothing to calibrate", o.CameraName)
		}
		saved, problem := savedCalibration(o.CalibrationFile)
		switch {
		case problem != "":
			return false, "the saved calibration cannot be read: " + problem
		case saved == nil:
			return false, "the discard area's corners are not set: click them in the Camera section"
		}
		return true, fmt.Sprintf("the discard area's corners are saved (%s, a %dx%d top-down view)", o.CalibrationFile, saved.Width, saved.Height)
	}}
}
