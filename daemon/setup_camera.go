package daemon

import (
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
	if e, ok := d.camera.(*visionEyes); ok {
		o.Camera = setupCamera{e}
	}
	o.Checks = append(o.Checks, setup.CameraCheck(*o))
}
