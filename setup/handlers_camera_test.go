package setup

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"image"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/siamesetable/siamesed/vision/area"
)

// fakeCamera is the daemon's camera worker, as the Camera section sees it.
type fakeCamera struct {
	mu       sync.Mutex
	frame    Picture
	previews []area.Calibration
	reloads  int
	down     error
	// The enrolment: what the next captures answer (in turn; none left: a crop), the
	// captures asked for (E: empty), and what a check answers.
	captures []captured
	asked    []string
	checked  Checked
}

type captured struct {
	p   Picture
	err error
}

func (c *fakeCamera) Capture(a area.Calibration, empty bool) (Picture, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.asked = append(c.asked, map[bool]string{true: "E", false: "T"}[empty])
	if len(c.captures) == 0 {
		return Picture{Width: 40, Height: 56, JPEG: []byte{0xff, 0xd8, 0xff, byte(len(c.asked))}}, nil
	}
	next := c.captures[0]
	c.captures = c.captures[1:]
	return next.p, next.err
}

func (c *fakeCamera) Check(dir string) (Checked, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.checked, c.down
}

func (c *fakeCamera) Snapshot() (Picture, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.frame, c.down
}

func (c *fakeCamera) Preview(a area.Calibration) (Picture, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.previews = append(c.previews, a)
	return Picture{Width: a.Width, Height: a.Height, JPEG: []byte{0xff, 0xd8, 0xff, 1}}, c.down
}

func (c *fakeCamera) Health() string { return "working" }

func (c *fakeCamera) Reload() (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.reloads++
	return "the camera worker restarted with it", nil
}

// newCameraHarness is newHarness with a camera: a 1120x864 frame, its calibration to be saved
// under the data directory (cam nil: no worker runs, as with camera: direct).
// prepare, if any, runs on the data directory before the server opens it.
func newCameraHarness(t *testing.T, cam *fakeCamera, prepare ...func(dir string)) (*harness, string) {
	t.Helper()
	h := &harness{t: t, clk: newNow(), dir: t.TempDir(), log: &bytes.Buffer{}, logMu: &sync.Mutex{},
		table: &fakeTable{playing: Playing{Rules: "siamese", Card: "Siamese Table Example Card", Names: []string{"East", "West"}}}}
	var err error
	if h.owner, _, err = LoadOrCreateOwner(h.dir); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(h.dir, "camera", "calibration.yaml")
	o := Options{DataDir: h.dir, Owner: h.owner, Now: h.clk.now, Table: h.table, Broker: "none", Config: Settings{Rules: "siamese"}, Seats: 2,
		CameraName: "/dev/video0", CalibrationFile: file, EnrolmentDir: filepath.Join(h.dir, "camera", "enrolled"),
		Log: slog.New(slog.NewTextHandler(lockedBuf{h.logMu, h.log}, nil))}
	if cam != nil {
		cam.frame = Picture{Width: 1120, Height: 864, JPEG: []byte{0xff, 0xd8, 0xff, 0xe0}}
		o.Camera = cam
	} else {
		o.CameraName = "direct"
	}
	o.Checks = append(o.Checks, CameraCheck(o))
	for _, p := range prepare {
		p(h.dir)
	}
	s, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	s.Routes(mux)
	h.srv = httptest.NewServer(mux)
	t.Cleanup(h.srv.Close)
	return h, file
}

var goodCorners = map[string]any{"corners": [][]float64{{102, 80}, {1038, 76}, {1060, 800}, {88, 818}}, "width": 960, "height": 704}

// check is the status's named check.
func check(t *testing.T, h *harness, cookie, name string) map[string]any {
	t.Helper()
	_, st := h.call("GET", "/api/setup/status", cookie, nil)
	for _, c := range st["checks"].([]any) {
		if c := c.(map[string]any); c["name"] == name {
			return c
		}
	}
	t.Fatalf("no %s check in %v", name, st)
	return nil
}

// The owner takes a snapshot, previews the corners and saves them: the file is what vision/area
// (and so the camera worker) loads, the camera is told, and the table's Camera check is ready.
func TestCameraSnapshotPreviewSave(t *testing.T) {
	cam := &fakeCamera{}
	h, file := newCameraHarness(t, cam)
	cookie := h.login()
	if c := check(t, h, cookie, "Camera"); c["ready"] != false || !strings.Contains(c["text"].(string), "not set") {
		t.Fatalf("before: %v", c)
	}
	resp, out := h.call("GET", "/api/setup/camera/snapshot", cookie, nil)
	if resp.StatusCode != 200 || out["width"] != 1120.0 || out["height"] != 864.0 || out["jpeg"] != base64.StdEncoding.EncodeToString(cam.frame.JPEG) {
		t.Fatalf("snapshot: %d %v", resp.StatusCode, out)
	}
	resp, out = h.call("POST", "/api/setup/camera/preview", cookie, goodCorners)
	want := area.Calibration{Corners: [4][2]float64{{102, 80}, {1038, 76}, {1060, 800}, {88, 818}}, Width: 960, Height: 704}
	if resp.StatusCode != 200 || out["width"] != 960.0 || len(cam.previews) != 1 || cam.previews[0] != want {
		t.Fatalf("preview: %d %v, the camera asked %v", resp.StatusCode, out, cam.previews)
	}
	if _, err := os.Stat(file); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a preview saved something: %v", err)
	}
	resp, out = h.call("POST", "/api/setup/camera/calibration", cookie, goodCorners)
	if resp.StatusCode != 200 || out["file"] != file || cam.reloads != 1 || !strings.Contains(out["reloaded"].(string), "restarted") {
		t.Fatalf("save: %d %v, %d reloads", resp.StatusCode, out, cam.reloads)
	}
	if got, err := area.Load(file); err != nil || got != want {
		t.Fatalf("saved %+v (%v), want %+v", got, err, want)
	}
	if c := check(t, h, cookie, "Camera"); c["ready"] != true {
		t.Fatalf("after: %v", c)
	}
	_, out = h.call("GET", "/api/setup/camera", cookie, nil)
	if out["worker"] != true || out["saved"] == nil || out["frame"].(map[string]any)["width"] != 1120.0 || out["health"] != "working" {
		t.Fatalf("the camera's state: %v", out)
	}
}

// Bad corners get a clear message and change nothing saved: the calibration saved before stays
// byte for byte, and the camera is not told anything.
func TestBadCornersChangeNothing(t *testing.T) {
	cam := &fakeCamera{}
	h, file := newCameraHarness(t, cam)
	cookie := h.login()
	resp, out := h.call("POST", "/api/setup/camera/calibration", cookie, goodCorners)
	if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(out["error"].(string), "take a snapshot first") {
		t.Fatalf("before a snapshot: %d %v", resp.StatusCode, out)
	}
	h.call("GET", "/api/setup/camera/snapshot", cookie, nil)
	if resp, out := h.call("POST", "/api/setup/camera/calibration", cookie, goodCorners); resp.StatusCode != 200 {
		t.Fatalf("save: %d %v", resp.StatusCode, out)
	}
	before, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	corners := func(cs ...[]float64) map[string]any {
		return map[string]any{"corners": cs, "width": 960, "height": 704}
	}
	for _, c := range []struct {
		name string
		body any
		code int
		want string
	}{
		{"outside", corners([]float64{102, 80}, []float64{1500, 30}, []float64{1060, 800}, []float64{88, 818}), 422, "the top-right corner (1500, 30) is outside the camera's 1120x864 frame"},
		{"negative", corners([]float64{-2, 80}, []float64{1038, 76}, []float64{1060, 800}, []float64{88, 818}), 422, "the top-left corner (-2, 80) is outside"},
		{"below", corners([]float64{102, 80}, []float64{1038, 76}, []float64{1060, 865}, []float64{88, 818}), 422, "the bottom-right corner (1060, 865) is outside"},
		{"crossed", corners([]float64{102, 80}, []float64{1060, 800}, []float64{1038, 76}, []float64{88, 818}), 422, "they cross, fold in, or lie on one line"},
		{"dart", corners([]float64{102, 80}, []float64{1038, 76}, []float64{400, 300}, []float64{88, 818}), 422, "they cross, fold in, or lie on one line"},
		{"line", corners([]float64{0, 0}, []float64{100, 100}, []float64{200, 200}, []float64{300, 300}), 422, "they cross, fold in, or lie on one line"},
		{"mirrored", corners([]float64{102, 80}, []float64{88, 818}, []float64{1060, 800}, []float64{1038, 76}), 422, "go round the other way"},
		{"three", corners([]float64{102, 80}, []float64{1038, 76}, []float64{1060, 800}), 422, "3 corners: click all four"},
		{"five", corners([]float64{102, 80}, []float64{1038, 76}, []float64{1060, 800}, []float64{88, 818}, []float64{5, 5}), 422, "5 corners"},
		{"one number", corners([]float64{102, 80}, []float64{1038}, []float64{1060, 800}, []float64{88, 818}), 422, "the top-right corner is not x, y"},
		{"no size", map[string]any{"corners": [][]float64{{102, 80}, {1038, 76}, {1060, 800}, {88, 818}}}, 422, "the top-down view is 0x0 pixels"},
		{"wrong JSON", map[string]any{"corners": "all four"}, 400, "not the JSON expected"},
		{"unknown field", map[string]any{"corners": [][]float64{{102, 80}, {1038, 76}, {1060, 800}, {88, 818}}, "width": 960, "height": 704, "zoom": 2}, 400, `unknown field "zoom"`},
	} {
		for _, path := range []string{"preview", "calibration"} {
			resp, out := h.call("POST", "/api/setup/camera/"+path, cookie, c.body)
			msg, _ := out["error"].(string)
			if resp.StatusCode != c.code || !strings.Contains(msg, c.want) {
				t.Errorf("%s, %s: %d %q, want %d saying %q", c.name, path, resp.StatusCode, msg, c.code, c.want)
			}
			if c.code == 422 && path == "calibration" && !strings.HasPrefix(msg, "nothing was saved: ") {
				t.Errorf("%s: %q does not say nothing was saved", c.name, msg)
			}
		}
	}
	req, _ := http.NewRequest("POST", h.srv.URL+"/api/setup/camera/calibration", strings.NewReader("corners: 4"))
	req.Header.Set("Content-Type", "application/json")
	req.AddCookie(&http.Cookie{Name: cookieName, Value: cookie})
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 400 {
		t.Errorf("not JSON: %v %v", resp, err)
	}
	if after, err := os.ReadFile(file); err != nil || !bytes.Equal(after, before) {
		t.Errorf("the saved calibration changed:\n%s\nwas\n%s", after, before)
	}
	if cam.reloads != 1 || len(cam.previews) != 0 {
		t.Errorf("the camera was told %d times and asked %d previews", cam.reloads, len(cam.previews))
	}
}

// Without the owner's session no camera call goes through; with no camera worker there is no
// snapshot to take, the page is told why, and the Camera check does not hold the table back.
func TestCameraNeedsTheOwnerAndAWorker(t *testing.T) {
	cam := &fakeCamera{}
	h, _ := newCameraHarness(t, cam)
	for pattern := range (&Server{}).cameraAPI() {
		method, path, _ := strings.Cut(pattern, " ")
		if resp, out := h.call(method, path, "made-up", goodCorners); resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s without the session: %d %v", pattern, resp.StatusCode, out)
		}
	}
	if len(cam.previews) != 0 || cam.reloads != 0 {
		t.Error("a refused call reached the camera")
	}
	h, file := newCameraHarness(t, nil)
	cookie := h.login()
	resp, out := h.call("GET", "/api/setup/camera/snapshot", cookie, nil)
	if resp.StatusCode != http.StatusConflict || !strings.Contains(out["error"].(string), "no camera worker (camera: direct)") {
		t.Errorf("no worker: %d %v", resp.StatusCode, out)
	}
	if resp, _ := h.call("POST", "/api/setup/camera/calibration", cookie, goodCorners); resp.StatusCode != http.StatusConflict {
		t.Errorf("saved with no worker: %d", resp.StatusCode)
	}
	if _, err := os.Stat(file); err == nil {
		t.Error("a calibration was saved with no camera")
	}
	if c := check(t, h, cookie, "Camera"); c["ready"] != true {
		t.Errorf("the Camera check with no worker: %v", c)
	}
}

// FuzzCheckCorners: any JSON is refused with problems, or is four corners inside the frame going
// round a convex area clockwise, with a view size that a calibration takes.
func FuzzCheckCorners(f *testing.F) {
	f.Add([]byte(`{"corners":[[102,80],[1038,76],[1060,800],[88,818]],"width":960,"height":704}`))
	f.Add([]byte(`{"corners":[[102,80],[1060,800],[1038,76],[88,818]],"width":960,"height":704}`))
	f.Add([]byte(`{"corners":[[1e308,80],[1038],[],[88,818,3]],"width":-1,"height":1e9}`))
	frame := image.Pt(1120, 864)
	f.Fuzz(func(t *testing.T, body []byte) {
		var form CornersForm
		if json.Unmarshal(body, &form) != nil {
			return
		}
		c, err := CheckCorners(form, frame)
		var fe *FormError
		if err != nil {
			if !errors.As(err, &fe) || len(fe.Problems) == 0 {
				t.Fatalf("%s: %v is not a list of problems", body, err)
			}
			return
		}
		if err := c.Validate(); err != nil || !c.Clockwise() {
			t.Fatalf("%s accepted as %+v: %v, clockwise %v", body, c, err, c.Clockwise())
		}
		for _, p := range c.Corners {
			if p[0] < 0 || p[1] < 0 || p[0] > 1120 || p[1] > 864 {
				t.Fatalf("%s accepted with a corner outside the frame: %+v", body, c)
			}
		}
	})
}

// Every camera call is in docs/display.md's table of the set-up API.
func TestCameraAPIIsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/display.md")
	if err != nil {
		t.Fatal(err)
	}
	calls := (&Server{}).cameraAPI()
	if len(calls) < 4 {
		t.Fatalf("%d calls", len(calls))
	}
	for pattern := range calls {
		if !bytes.Contains(doc, []byte("| `"+pattern)) {
			t.Errorf("docs/display.md's table has no row for %s", pattern)
		}
	}
}
