package watch

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/internal/safefile"
	"github.com/siamesetable/siamesed/vision/area"
	"github.com/siamesetable/siamesed/vision/labels"
)

// The empty discard area's view, taken when the set-up page's enrolment starts, is kept beside
// the enrolment folder (labels.EmptyView) with the corners it was taken through: a worker
// started again (corners saved, the enrolment handed over, a crash) takes it up and goes on
// capturing; one taken through other corners than those saved now is dropped.

// EmptyKept is where a real camera's worker keeps the empty area's view: beside the enrolment
// folder Enrolled, taken up at the start when it was taken through Area, the corners saved now
// (zero: none saved). Enrolled "": the view is kept in memory only.
type EmptyKept struct {
	Enrolled string
	Area     area.Calibration
}

// Keep keeps the empty area's view beside k.Enrolled from now on, and takes up the view kept
// there if it was taken through k.Area; another, or one that cannot be read, is dropped, and
// the next capture refused says why.
func (c *Capturer) Keep(k EmptyKept) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.kept = k.Enrolled
	if k.Enrolled == "" {
		return
	}
	png, corners := labels.EmptyView(k.Enrolled)
	a, view, err := readKept(png, corners)
	switch {
	case errors.Is(err, errNoneKept):
	case err != nil:
		c.dropKept(fmt.Sprintf("the empty view kept in %s cannot be read (%v)", png, err))
	case a != k.Area:
		view.Close()
		c.dropKept("the empty view kept was taken through other corners than those saved now")
	default:
		c.empty.Close()
		c.empty, c.emptyArea, c.emptyWhy = view, a, ""
	}
}

// errNoneKept: no empty view is kept (neither file is there).
var errNoneKept = errors.New("no empty view kept")

// readKept reads the view kept in png and the corners it was taken through.
func readKept(png, corners string) (area.Calibration, gocv.Mat, error) {
	_, errP := os.Stat(png)
	_, errC := os.Stat(corners)
	if errors.Is(errP, fs.ErrNotExist) && errors.Is(errC, fs.ErrNotExist) {
		return area.Calibration{}, gocv.Mat{}, errNoneKept
	}
	a, err := area.Load(corners)
	if err != nil {
		return area.Calibration{}, gocv.Mat{}, err
	}
	view := gocv.IMRead(png, gocv.IMReadColor)
	if view.Empty() || view.Cols() != a.Width || view.Rows() != a.Height {
		err := fmt.Errorf("%s is no %dx%d picture", png, a.Width, a.Height)
		view.Close()
		return area.Calibration{}, gocv.Mat{}, err
	}
	return a, view, nil
}

// keepView writes view, taken through a, beside the enrolment folder: the old corners are
// removed first and the new ones written last, so that a view half written has no corners and
// is never taken for one through them (readKept drops it).
func (c *Capturer) keepView(view gocv.Mat, a area.Calibration) error {
	if c.kept == "" {
		return nil
	}
	png, corners := labels.EmptyView(c.kept)
	if err := os.Remove(corners); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("keeping the empty view: %w", err)
	}
	buf, err := gocv.IMEncode(gocv.PNGFileExt, view)
	if err != nil {
		return fmt.Errorf("keeping the empty view: %w", err)
	}
	defer buf.Close()
	if err := safefile.WriteFile(png, buf.GetBytes(), 0o644); err != nil {
		return fmt.Errorf("keeping the empty view: %w", err)
	}
	b, err := a.Marshal()
	if err == nil {
		err = safefile.WriteFile(corners, b, 0o644)
	}
	if err != nil {
		return fmt.Errorf("keeping the empty view's corners: %w", err)
	}
	return nil
}

// dropKept removes the view kept and its corners, saying why the enrolment must start again.
func (c *Capturer) dropKept(why string) {
	png, corners := labels.EmptyView(c.kept)
	for _, f := range []string{corners, png} {
		if err := os.Remove(f); err != nil && !errors.Is(err, fs.ErrNotExist) {
			why += fmt.Sprintf("; it cannot be removed: %v", err)
		}
	}
	c.emptyWhy = why
}
