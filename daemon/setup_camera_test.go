package daemon

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/vision/area"
)

// decodePicture reads a picture answer's JPEG.
func decodePicture(t testing.TB, out map[string]any) image.Image {
	t.Helper()
	s, _ := out["jpeg"].(string)
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatalf("a picture's jpeg: %v (%.80v)", err, out)
	}
	img, err := jpeg.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds().Dx() != int(out["width"].(float64)) || img.Bounds().Dy() != int(out["height"].(float64)) {
		t.Fatalf("a %v picture said to be %vx%v", img.Bounds(), out["width"], out["height"])
	}
	return img
}

// dark says whether a pixel is the simulated camera's dark surround rather than the table.
func dark(img image.Image, x, y int) bool {
	r, g, b, _ := img.At(x, y).RGBA()
	return max(r, g, b)>>8 < 50
}

// areaCorners finds the discard area in the simulated camera's frame as a person would: the
// table's extreme points against the dark surround, top-left, top-right, bottom-right,
// bottom-left.
func areaCorners(img image.Image) [4][2]float64 {
	b := img.Bounds()
	best := [4]float64{math.Inf(1), math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	var cs [4][2]float64
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if dark(img, x, y) {
				continue
			}
			X, Y := float64(x), float64(y)
			for i, v := range [4]float64{X + Y, X - Y, X + Y, Y - X} {
				if (i == 0 && v < best[i]) || (i > 0 && v > best[i]) {
					best[i], cs[i] = v, [2]float64{X, Y}
				}
			}
		}
	}
	return cs
}

// darkEdge is the share of a view's outermost pixels that are the dark surround: none, when
// the corners are the area's.
func darkEdge(img image.Image) float64 {
	b := img.Bounds()
	n, d := 0, 0
	for x := b.Min.X; x < b.Max.X; x++ {
		for _, y := range []int{b.Min.Y + 1, b.Max.Y - 2} {
			n++
			if dark(img, x, y) {
				d++
			}
		}
	}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for _, x := range []int{b.Min.X + 1, b.Max.X - 2} {
			n++
			if dark(img, x, y) {
				d++
			}
		}
	}
	return float64(d) / float64(n)
}

func cornersBody(cs [4][2]float64, w, h int) map[string]any {
	var list [][]float64
	for _, c := range cs {
		list = append(list, []float64{c[0], c[1]})
	}
	return map[string]any{"corners": list, "width": w, "height": h}
}

// TestSetupCameraWithTheVisionWorker: camera: sim, a real siamesed-vision. The owner's snapshot
// is the simulated camera's frame; the preview through the frame's own corners shows the dark
// surround at its edges, through the area's corners (found in the snapshot) none: the warp is
// the worker's. Corners outside the frame or crossed save nothing; good ones are saved in the
// data directory as vision/area loads them, and the Camera check is then ready.
func TestSetupCameraWithTheVisionWorker(t *testing.T) {
	cfg := quietTable()
	cfg.Camera, cfg.Vision.Worker = "sim", visionWorker(t)
	dir := t.TempDir()
	addr, _ := runDaemon(t, cfg, dir)
	o := logIn(t, "http://"+addr+"/", dir)
	file := filepath.Join(dir, "camera", "calibration.yaml")
	cameraCheck := func() map[string]any {
		_, st := o.call("GET", "api/setup/status", nil)
		for _, c := range st["checks"].([]any) {
			if c := c.(map[string]any); c["name"] == "Camera" {
				return c
			}
		}
		t.Fatalf("no Camera check: %v", st)
		return nil
	}
	if c := cameraCheck(); c["ready"] != false {
		t.Fatalf("the Camera check before: %v", c)
	}
	code, out := o.call("GET", "api/setup/camera/snapshot", nil)
	if code != 200 {
		t.Fatalf("snapshot: %d %v", code, out)
	}
	frame := decodePicture(t, out)
	W, H := frame.Bounds().Dx(), frame.Bounds().Dy()
	whole := [4][2]float64{{0, 0}, {float64(W), 0}, {float64(W), float64(H)}, {0, float64(H)}}
	code, out = o.call("POST", "api/setup/camera/preview", cornersBody(whole, W, H))
	if code != 200 {
		t.Fatalf("preview of the whole frame: %d %v", code, out)
	}
	if d := darkEdge(decodePicture(t, out)); d < 0.5 {
		t.Fatalf("the whole frame's edges are %.0f%% dark: the test cannot tell the area", 100*d)
	}
	cs := areaCorners(frame)
	w, h := 960, 704
	code, out = o.call("POST", "api/setup/camera/preview", cornersBody(cs, w, h))
	if code != 200 {
		t.Fatalf("preview of the area %v: %d %v", cs, code, out)
	}
	if view := decodePicture(t, out); view.Bounds().Dx() != w || darkEdge(view) > 0.02 {
		t.Fatalf("the area's view %v is %.1f%% dark at its edges (corners %v)", view.Bounds(), 100*darkEdge(view), cs)
	}

	outside, crossed := cs, cs
	outside[2] = [2]float64{float64(W) + 40, cs[2][1]}
	crossed[1], crossed[2] = cs[2], cs[1]
	for _, c := range []struct {
		cs   [4][2]float64
		want string
	}{{outside, "the bottom-right corner"}, {crossed, "they cross"}} {
		code, out := o.call("POST", "api/setup/camera/calibration", cornersBody(c.cs, w, h))
		if msg, _ := out["error"].(string); code != 422 || !strings.Contains(msg, c.want) || !strings.HasPrefix(msg, "nothing was saved") {
			t.Errorf("corners %v: %d %v, want 422 saying %q", c.cs, code, out, c.want)
		}
	}
	if _, err := os.Stat(file); err == nil {
		t.Fatal("bad corners were saved")
	}
	code, out = o.call("POST", "api/setup/camera/calibration", cornersBody(cs, w, h))
	if code != 200 || !strings.Contains(out["reloaded"].(string), "simulated camera") {
		t.Fatalf("save: %d %v", code, out)
	}
	saved, err := area.Load(file)
	if want := (area.Calibration{Corners: cs, Width: w, Height: h}); err != nil || saved != want {
		t.Fatalf("saved %+v (%v), want %+v", saved, err, want)
	}
	if c := cameraCheck(); c["ready"] != true {
		t.Fatalf("the Camera check after: %v", c)
	}
}

// writeCameraFrames writes a recording of a camera over a green discard area on a dark table,
// corners cs, as a folder of frames (what vision watch --source reads, like a camera).
func writeCameraFrames(t *testing.T, cs [4][2]float64, w, h, n int) string {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	inside := func(x, y float64) bool {
		for i := range 4 {
			a, b := cs[i], cs[(i+1)%4]
			if (b[0]-a[0])*(y-a[1])-(b[1]-a[1])*(x-a[0]) < 0 {
				return false
			}
		}
		return true
	}
	for y := range h {
		for x := range w {
			c := color.RGBA{25, 25, 25, 255}
			if inside(float64(x)+.5, float64(y)+.5) {
				c = color.RGBA{30, 110, 45, 255}
			}
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for i := range n {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%04d.png", i)), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestSetupCameraOnANewTable: a real camera (a recording standing in for it) on a table with no
// calibration and no faces enrolled: the daemon starts, its camera says what is missing, the
// Camera section shows the camera's frame; the corners saved, the worker starts again and reads
// them (its status now asks for the faces' enrolment); the enrolment started, the worker started
// again still knows the empty area.
func TestSetupCameraOnANewTable(t *testing.T) {
	t.Parallel() // mostly waiting (on the camera worker's restarts): run beside the other such tests
	cs := [4][2]float64{{80, 60}, {560, 50}, {590, 430}, {60, 440}}
	cfg := quietTable()
	cfg.Camera, cfg.Vision.Worker = writeCameraFrames(t, cs, 640, 480, 3), visionWorker(t)
	dir := t.TempDir()
	addr, _ := runDaemon(t, cfg, dir)
	base := "http://" + addr + "/"
	o := logIn(t, base, dir)
	cameraSays := func(want string) {
		t.Helper()
		deadline := time.Now().Add(waitFor)
		for {
			var h Health
			resp, err := http.Get(base + "api/health")
			if err != nil {
				t.Fatal(err)
			}
			err = json.NewDecoder(resp.Body).Decode(&h)
			resp.Body.Close()
			if err == nil && strings.Contains(h.Camera, want) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("the camera's health %q (%v) never said %q", h.Camera, err, want)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	cameraSays("not calibrated")
	code, out := o.call("GET", "api/setup/camera/snapshot", nil)
	if code != 200 {
		t.Fatalf("snapshot: %d %v", code, out)
	}
	if b := decodePicture(t, out).Bounds(); b.Dx() != 640 || b.Dy() != 480 {
		t.Fatalf("the camera's frame is %v", b)
	}
	code, out = o.call("POST", "api/setup/camera/preview", cornersBody(cs, 480, 380))
	if code != 200 || darkEdge(decodePicture(t, out)) > 0.02 {
		t.Fatalf("preview: %d, %.80v", code, out)
	}
	code, out = o.call("POST", "api/setup/camera/calibration", cornersBody(cs, 480, 380))
	if code != 200 || !strings.Contains(out["reloaded"].(string), "started again") {
		t.Fatalf("save: %d %v", code, out)
	}
	if c, err := area.Load(filepath.Join(dir, "camera", "calibration.yaml")); err != nil || c.Corners != cs {
		t.Fatalf("saved %+v %v", c, err)
	}
	cameraSays("faces are not enrolled")
	if _, out := o.call("GET", "api/setup/camera", nil); !strings.Contains(out["health"].(string), "faces are not enrolled") {
		t.Errorf("the Camera section's state: %v", out)
	}
	// The enrolment started (the empty area captured), the worker starts again (the corners
	// saved once more): it still knows the empty area, and looks for the tile at once.
	if code, out := o.call("POST", "api/setup/camera/faces/empty", map[string]any{}); code != 200 {
		t.Fatalf("the empty area: %d %v", code, out)
	}
	if code, out := o.call("POST", "api/setup/camera/calibration", cornersBody(cs, 480, 380)); code != 200 || !strings.Contains(out["reloaded"].(string), "started again") {
		t.Fatalf("saved again: %d %v", code, out)
	}
	cameraSays("faces are not enrolled")
	if code, out := o.call("POST", "api/setup/camera/faces/capture", map[string]any{"face": "J"}); code != 422 || !strings.Contains(out["error"].(string), "no tile in the discard area") {
		t.Errorf("a capture once the worker started again: %d %v, want no tile found against the empty area kept", code, out)
	}
}
