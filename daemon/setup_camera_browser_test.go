package daemon

import (
	"bytes"
	"context"
	"encoding/base64"
	"image"
	"image/jpeg"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/siamesetable/siamesed/setup"
	"github.com/siamesetable/siamesed/vision/area"
)

// TestSetupCameraInABrowser: camera: sim with a real siamesed-vision. The owner opens the
// set-up page's Camera section, sees the simulated camera's snapshot, clicks the discard area's
// corners the wrong way round (the page says so and nothing is saved), starts again, clicks
// them in order with the last one off, drags it into place, sees the top-down view of the area
// (no dark surround at its edges) and saves: the data directory holds the corners as
// vision/area loads them, and the table's Camera check is ready. Screenshot: setup-camera.png.
func TestSetupCameraInABrowser(t *testing.T) {
	ctx := browser(t)
	cfg := quietTable()
	cfg.Camera, cfg.Vision.Worker = "sim", visionWorker(t)
	dir := t.TempDir()
	addr, _ := runDaemon(t, cfg, dir)
	base := "http://" + addr + "/"
	pw := ownerPassword(t, dir)
	poll := func(expr string) chromedp.Action {
		return chromedp.Poll(expr, nil, chromedp.WithPollingTimeout(waitFor), chromedp.WithPollingInterval(50*time.Millisecond))
	}
	if err := chromedp.Run(ctx,
		chromedp.Navigate(base+"setup"),
		chromedp.WaitVisible(`#owner-password`),
		chromedp.SendKeys(`#owner-password`, pw),
		chromedp.Click(`#login button[type=submit]`),
		poll(`window.siameseSetup.camera.snapshot !== null && document.getElementById('camera-img').complete && document.getElementById('camera-img').naturalWidth > 0`),
		chromedp.ScrollIntoView(`#camera-box`),
	); err != nil {
		t.Fatalf("the Camera section: %v", err)
	}
	frame := cameraFrame(t, ctx)
	cs := areaCorners(frame)
	m := &snapshotMarks{width: float64(frame.Bounds().Dx())}
	click, drag := m.click, m.drag

	// The wrong way round: the page says so, and nothing is saved.
	var says string
	if err := chromedp.Run(ctx,
		click(cs[0]), click(cs[3]), click(cs[2]), click(cs[1]),
		poll(`window.siameseSetup.camera.error !== ''`),
		chromedp.Text(`#camera-result`, &says),
		press("camera-save"),
		poll(`window.siameseSetup.camera.saved !== null`),
	); err != nil {
		t.Fatalf("corners the wrong way round: %v", err)
	}
	if !strings.Contains(says, "go round the other way") {
		t.Errorf("corners the wrong way round: the page says %q", says)
	}
	file := filepath.Join(dir, "camera", "calibration.yaml")
	if _, err := area.Load(file); err == nil {
		t.Fatal("corners the wrong way round were saved")
	}

	// In order, the last one off, then dragged into place.
	off := [2]float64{cs[3][0] + 25, cs[3][1] - 20}
	var corners [][]float64
	var warped string
	var png []byte
	if err := chromedp.Run(ctx,
		press("camera-reset"),
		click(cs[0]), click(cs[1]), click(cs[2]), click(off),
		poll(`window.siameseSetup.camera.preview !== null`),
		chromedp.Evaluate(`window.siameseSetup.camera.preview = null`, nil),
		drag(off, cs[3]),
		poll(`window.siameseSetup.camera.preview !== null`),
		chromedp.Evaluate(`window.siameseSetup.camera.corners`, &corners),
		chromedp.Evaluate(`document.getElementById('camera-warped').src.replace(/^data:image\/jpeg;base64,/, '')`, &warped),
		chromedp.Screenshot(`#camera-box`, &png),
	); err != nil {
		t.Fatalf("clicking the corners: %v", err)
	}
	writeShot(t, filepath.Join(screenshotDir(t), "setup-camera.png"), png)
	if len(corners) != 4 {
		t.Fatalf("the page holds corners %v", corners)
	}
	for i, c := range corners {
		if d := math.Hypot(c[0]-cs[i][0], c[1]-cs[i][1]); d > 2/m.scale {
			t.Errorf("corner %d is at %v on the page, %.1f pixels from the area's %v", i, c, d, cs[i])
		}
	}
	raw, err := base64.StdEncoding.DecodeString(warped)
	if err != nil {
		t.Fatal(err)
	}
	view, err := jpeg.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if d := darkEdge(view); d > 0.03 {
		t.Errorf("the top-down view %v is %.1f%% dark at its edges", view.Bounds(), 100*d)
	}

	// Saved.
	var result string
	var size []int
	if err := chromedp.Run(ctx,
		chromedp.Evaluate(`window.siameseSetup.camera.saved = null`, nil),
		press("camera-save"),
		poll(`window.siameseSetup.camera.saved !== null`),
		chromedp.Text(`#camera-result`, &result),
		chromedp.Evaluate(`[Number(document.getElementById('camera-width').value), Number(document.getElementById('camera-height').value)]`, &size),
		poll(`window.siameseSetup.status.checks.some(c => c.name === 'Camera' && c.ready)`),
	); err != nil {
		t.Fatalf("saving the corners: %v", err)
	}
	if !strings.Contains(result, "Saved in "+file) {
		t.Errorf("saved: the page says %q", result)
	}
	saved, err := area.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	want := area.Calibration{Width: size[0], Height: size[1]}
	for i, c := range corners {
		want.Corners[i] = [2]float64{c[0], c[1]}
	}
	if saved != want {
		t.Errorf("saved %+v, the page showed %+v", saved, want)
	}
	if w, h := saved.Width, saved.Height; math.Abs(float64(w)-960) > 40 || math.Abs(float64(h)-704) > 40 {
		t.Errorf("a %dx%d view: the simulated area is about 960x704 camera pixels (tiles 36 wide)", w, h)
	}
	t.Logf("saved %+v", saved)
}

// ownerPassword is the owner's password, as siamesed run printed it.
func ownerPassword(t *testing.T, dataDir string) string {
	t.Helper()
	pw, err := os.ReadFile(setup.OwnerFile(dataDir))
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(pw))
}

// cameraFrame is the simulated camera's frame the Camera section shows.
func cameraFrame(t *testing.T, ctx context.Context) image.Image {
	t.Helper()
	var snapshot string
	if err := chromedp.Run(ctx, chromedp.Evaluate(`window.siameseSetup.camera.snapshot.jpeg`, &snapshot)); err != nil {
		t.Fatalf("the camera's snapshot: %v", err)
	}
	raw, err := base64.StdEncoding.DecodeString(snapshot)
	if err != nil {
		t.Fatal(err)
	}
	frame, err := jpeg.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	return frame
}

// snapshotMarks clicks and drags on the Camera section's snapshot at a frame's pixels, as a
// person's mouse would.
type snapshotMarks struct {
	width float64 // the frame's, in camera pixels
	scale float64 // page pixels to a camera pixel, as last measured
}

// at is where a frame pixel is on the page, measured as it is done: a text above the
// snapshot may grow a line and move it.
func (m *snapshotMarks) at(ctx context.Context, p [2]float64) (float64, float64, error) {
	var box []float64
	if err := chromedp.Evaluate(`(() => { const b = document.getElementById('camera-marks').getBoundingClientRect(); return [b.left, b.top, b.width]; })()`, &box).Do(ctx); err != nil {
		return 0, 0, err
	}
	m.scale = box[2] / m.width
	return box[0] + p[0]*m.scale, box[1] + p[1]*m.scale, nil
}

// click clicks at frame pixel p.
func (m *snapshotMarks) click(p [2]float64) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		x, y, err := m.at(ctx, p)
		if err != nil {
			return err
		}
		return chromedp.MouseClickXY(x, y).Do(ctx)
	})
}

// drag presses at from, moves to to and lets go.
func (m *snapshotMarks) drag(from, to [2]float64) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		fx, fy, err := m.at(ctx, from)
		if err != nil {
			return err
		}
		tx, ty, _ := m.at(ctx, to)
		return chromedp.Run(ctx,
			chromedp.MouseEvent(input.MousePressed, fx, fy, chromedp.ButtonLeft, chromedp.ClickCount(1)),
			chromedp.MouseEvent(input.MouseMoved, (fx+tx)/2, (fy+ty)/2, chromedp.ButtonLeft),
			chromedp.MouseEvent(input.MouseMoved, tx, ty, chromedp.ButtonLeft),
			chromedp.MouseEvent(input.MouseReleased, tx, ty, chromedp.ButtonLeft, chromedp.ClickCount(1)))
	})
}
