package daemon

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/hw/config"
	"github.com/siamesetable/siamesed/setup"
	"github.com/siamesetable/siamesed/vision/area"
	"github.com/siamesetable/siamesed/vision/wire"
)

// setupCamera is setup.Camera: the set-up page's Camera section, answered by the vision worker.
type setupCamera struct{ e *visionEyes }

var _ setup.Camera = setupCamera{}

func (c setupCamera) Snapshot() (setup.Picture, error) {
	return c.ask(wire.Request{Op: wire.OpSnapshot})
}

func (c setupCamera) Preview(a area.Calibration) (setup.Picture, error) {
	return c.ask(wire.Request{Op: wire.OpPreview, Area: a})
}

func (c setupCamera) Reload() (string, error) { return c.e.reload() }

// checkWait is the longest the page waits for a check: the worker loads the model and embeds
// every crop.
const checkWait = 2 * time.Minute

// Capture asks the worker to capture through a; what it refuses (no tile, two, not still) is
// setup.ErrRefused, in the worker's words.
func (c setupCamera) Capture(a area.Calibration, empty bool) (setup.Picture, error) {
	q := wire.Request{Op: wire.OpCapture, Area: a, Empty: empty}
	p, err := c.ask(q)
	var we *workerError
	if errors.As(err, &we) {
		return setup.Picture{}, fmt.Errorf("%w: %s", setup.ErrRefused, workerSays(we.msg, q.Op))
	}
	return p, err
}

func (c setupCamera) Check(dir string) (setup.Checked, error) {
	q := wire.Request{Op: wire.OpCheck, Dir: dir}
	rep, err := c.e.request(q, checkWait)
	var we *workerError
	switch {
	case errors.As(err, &we):
		return setup.Checked{}, errors.New(workerSays(we.msg, q.Op))
	case err != nil:
		return setup.Checked{}, err
	case rep.Kind != wire.KindChecked:
		return setup.Checked{}, errors.New("the camera worker answered check without the crops checked")
	}
	return setup.Checked{Crops: rep.Crops, Alike: rep.Alike}, nil
}

// show lays faces alone in the simulated camera's area (SimCamera, for a test's hands).
func (c setupCamera) show(fs ...tile.Face) error {
	_, err := c.e.request(wire.Request{Op: wire.OpShow, Faces: fs}, pictureWait)
	return err
}

// workerSays is the worker's error line without the line and op it names ("line 12: capture:
// no tile ..."): the page asked for it, and knows.
func workerSays(msg string, op wire.Op) string {
	if _, rest, ok := strings.Cut(msg, ": "+string(op)+": "); ok {
		return rest
	}
	return msg
}

func (c setupCamera) Health() string {
	c.e.mu.Lock()
	defer c.e.mu.Unlock()
	if c.e.status.Working {
		return "working"
	}
	return c.e.status.Problem
}

func (c setupCamera) ask(q wire.Request) (setup.Picture, error) {
	rep, err := c.e.picture(q, pictureWait)
	if err != nil {
		return setup.Picture{}, err
	}
	return setup.Picture{Width: rep.Width, Height: rep.Height, JPEG: rep.JPEG}, nil
}

// cameraOptions are the set-up page's Camera section: the vision worker, where no other camera
// (direct, none) runs; the calibration file in the data directory; the Camera check.
func (d *daemon) cameraOptions(o *setup.Options) {
	o.CameraName = d.cfg.Camera
	o.CalibrationFile = config.InData(d.opt.DataDir, d.cfg.Vision.Calibration)
	if dir, err := filepath.Abs(config.InData(d.opt.DataDir, d.cfg.Vision.Enrolment)); err == nil {
		o.EnrolmentDir = dir
	}
	if e, ok := d.camera.(*visionEyes); ok {
		o.Camera = setupCamera{e}
		if d.opt.SimCamera != nil && d.cfg.Camera == "sim" {
			d.opt.SimCamera(setupCamera{e}.show)
		}
	}
	o.Checks = append(o.Checks, setup.CameraCheck(*o))
}
