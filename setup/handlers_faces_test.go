package setup

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/vision/area"
	"github.com/siamesetable/siamesed/vision/labels"
	"github.com/siamesetable/siamesed/vision/wire"
)

// windsCard uses the four winds: with J, the five faces to enrol.
const windsCard = `name: Four Winds Card
year: 2026
hands:
  - section: "Winds"
    pattern: "NNNN EEEE WWWW SS"
    value: 25
`

// windsTable is a camera harness whose Table section saved the winds card.
func windsTable(t *testing.T, cam *fakeCamera) (*harness, string) {
	return newCameraHarness(t, cam, func(dir string) {
		if _, err := SaveSettings(dir, Settings{Rules: "siamese", Names: []string{"East", "West"}}, []byte(windsCard)); err != nil {
			t.Fatal(err)
		}
	})
}

// enrolledFiles is labels.csv's faces and the images in the folder, as text.
func enrolledFiles(t *testing.T, dir string) (string, []string) {
	t.Helper()
	items, err := labels.Read(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	var faces []string
	for _, it := range items {
		faces = append(faces, it.Tile.String()+"="+it.Image)
	}
	imgs, _ := filepath.Glob(filepath.Join(dir, labels.ImageDir, "*"))
	for i := range imgs {
		imgs[i] = filepath.Base(imgs[i])
	}
	return strings.Join(faces, " "), imgs
}

// The enrolment step: the faces of the card the Table section saved, and J, are listed; bad
// input (no corners saved, no empty area, a face not in the card, a capture the camera refuses,
// accepting with no capture or another face's, a face enrolled already without replace) gets a
// clear message and changes nothing saved; accepted crops are saved as enroll camera saves them.
func TestFacesEnrolment(t *testing.T) {
	cam := &fakeCamera{}
	h, _ := windsTable(t, cam)
	cookie := h.login()
	dir := filepath.Join(h.dir, "camera", "enrolled")
	resp, out := h.call("GET", "/api/setup/camera/faces", cookie, nil)
	if resp.StatusCode != 200 || len(out["required"].([]any)) != 5 || !strings.Contains(out["card"].(string), "Four Winds Card") {
		t.Fatalf("faces: %d %v", resp.StatusCode, out)
	}
	expect := func(what, method, path string, body any, code int, says string) map[string]any {
		t.Helper()
		resp, out := h.call(method, path, cookie, body)
		if resp.StatusCode != code || (says != "" && !strings.Contains(out["error"].(string), says)) {
			t.Fatalf("%s: %d %v, want %d saying %q", what, resp.StatusCode, out, code, says)
		}
		return out
	}
	expect("before the corners", "POST", "/api/setup/camera/faces/empty", map[string]any{}, 409, "save the discard area's corners first")
	h.call("GET", "/api/setup/camera/snapshot", cookie, nil)
	expect("the corners", "POST", "/api/setup/camera/calibration", goodCorners, 200, "")
	expect("before the empty area", "POST", "/api/setup/camera/faces/capture", map[string]any{"face": "E"}, 409, "capture it empty first")
	cam.captures = []captured{{err: errors.New("the camera worker is not running")}}
	expect("the worker down", "POST", "/api/setup/camera/faces/empty", map[string]any{}, 503, "the camera gave no capture")
	expect("empty", "POST", "/api/setup/camera/faces/empty", map[string]any{}, 200, "")
	expect("a face not in the card", "POST", "/api/setup/camera/faces/capture", map[string]any{"face": "5D"}, 422, "5D is not a face to enrol")
	expect("no face", "POST", "/api/setup/camera/faces/capture", map[string]any{"face": "5Q"}, 400, "")
	cam.captures = []captured{{err: fmt.Errorf("%w: more than one thing in the discard area (2 tiles, 0 other shapes)", ErrRefused)}}
	expect("two tiles", "POST", "/api/setup/camera/faces/capture", map[string]any{"face": "E"}, 422, "nothing captured: more than one thing")
	expect("accept with no capture", "POST", "/api/setup/camera/faces/accept", map[string]any{"face": "E"}, 409, "capture E first")
	if faces, imgs := enrolledFiles(t, dir); faces != "" || len(imgs) != 0 {
		t.Fatalf("bad input saved %q %v", faces, imgs)
	}
	out = expect("capture E", "POST", "/api/setup/camera/faces/capture", map[string]any{"face": "E"}, 200, "")
	if out["crop"].(map[string]any)["width"] != 40.0 || out["enrolled"] != "" {
		t.Errorf("capture E: %v", out)
	}
	expect("accept another face", "POST", "/api/setup/camera/faces/accept", map[string]any{"face": "S"}, 409, "capture S first")
	out = expect("accept E", "POST", "/api/setup/camera/faces/accept", map[string]any{"face": "E"}, 200, "")
	if got := tile.Format(faceList(out["left"])); got != "S W N J" {
		t.Errorf("left after E: %s", got)
	}
	expect("check too soon", "POST", "/api/setup/camera/faces/check", map[string]any{}, 409, "4 faces are still to enrol")
	if c := check(t, h, cookie, "Faces"); c["ready"] != false || !strings.Contains(c["text"].(string), "4 of 5 faces are still to enrol (S W N J)") {
		t.Errorf("the Faces check with E enrolled: %v", c)
	}
	for _, f := range []string{"S", "W", "N", "J"} {
		expect("capture "+f, "POST", "/api/setup/camera/faces/capture", map[string]any{"face": f}, 200, "")
		out = expect("accept "+f, "POST", "/api/setup/camera/faces/accept", map[string]any{"face": f}, 200, "")
	}
	if left, ok := out["left"].([]any); !ok || len(left) != 0 {
		t.Errorf("every face enrolled: left %v, want an empty list", out["left"])
	}
	if c := check(t, h, cookie, "Faces"); c["ready"] != false || !strings.Contains(c["text"].(string), "enrolled but not checked: press Check") {
		t.Errorf("the Faces check with every face enrolled, not checked: %v", c)
	}
	expect("accept E twice", "POST", "/api/setup/camera/faces/accept", map[string]any{"face": "E"}, 409, "capture E first")
	faces, imgs := enrolledFiles(t, dir)
	if !strings.HasPrefix(faces, "E=001-E.jpg S=001-S.jpg") || len(imgs) != 5 {
		t.Fatalf("E accepted: %q %v", faces, imgs)
	}
	expect("capture E again", "POST", "/api/setup/camera/faces/capture", map[string]any{"face": "E"}, 200, "")
	out = expect("E without replace", "POST", "/api/setup/camera/faces/accept", map[string]any{"face": "E"}, 409, "E is enrolled already (001-E.jpg): replace it")
	if out["already"] != true {
		t.Errorf("E without replace: %v, want already", out)
	}
	if f, i := enrolledFiles(t, dir); f != faces || len(i) != 5 {
		t.Fatalf("E without replace changed %q %v", f, i)
	}
	expect("E replaced", "POST", "/api/setup/camera/faces/accept", map[string]any{"face": "E", "replace": true}, 200, "")
	if f, i := enrolledFiles(t, dir); !strings.HasSuffix(f, "J=001-J.jpg E=002-E.jpg") || len(i) != 5 || i[0] != "001-J.jpg" {
		t.Fatalf("E replaced: %q %v", f, i)
	}
	if cam.reloads != 1 {
		t.Errorf("%d reloads before the check, want 1 (the corners)", cam.reloads)
	}
	if strings.Join(cam.asked, "") != "EETTTTTTT" {
		t.Errorf("captures asked %s", strings.Join(cam.asked, ""))
	}
}

func faceList(v any) []tile.Face {
	var out []tile.Face
	for _, s := range v.([]any) {
		f, err := tile.Parse(s.(string))
		if err != nil {
			panic(err)
		}
		out = append(out, f)
	}
	return out
}

// The check: every face enrolled, a crop the model names as another face is shown and the
// camera is not told; all named back, the camera takes the enrolment and the page says ready,
// with the faces held alike and both their crops. The Faces check ticks only while the
// enrolment is the one the last check passed: not before Check, not after a crop is retaken or
// changed by hand, not after a check that misread one.
func TestFacesCheck(t *testing.T) {
	cam := &fakeCamera{}
	h, _ := windsTable(t, cam)
	cookie := h.login()
	h.call("GET", "/api/setup/camera/snapshot", cookie, nil)
	h.call("POST", "/api/setup/camera/calibration", cookie, goodCorners)
	h.call("POST", "/api/setup/camera/faces/empty", cookie, map[string]any{})
	var crops []wire.Recognised
	for _, f := range []tile.Face{tile.East, tile.South, tile.West, tile.North, tile.Joker} {
		if resp, out := h.call("POST", "/api/setup/camera/faces/capture", cookie, map[string]any{"face": f}); resp.StatusCode != 200 {
			t.Fatalf("capture %v: %v", f, out)
		}
		if resp, out := h.call("POST", "/api/setup/camera/faces/accept", cookie, map[string]any{"face": f}); resp.StatusCode != 200 {
			t.Fatalf("accept %v: %v", f, out)
		}
		crops = append(crops, wire.Recognised{Image: "001-" + f.String() + ".jpg", Face: f, As: f, Known: true})
	}
	cam.checked = Checked{Crops: append([]wire.Recognised(nil), crops...)}
	cam.checked.Crops[1].As = tile.West
	facesCheck := func(what string, ready bool, says string) {
		t.Helper()
		if c := check(t, h, cookie, "Faces"); c["ready"] != ready || !strings.Contains(c["text"].(string), says) {
			t.Errorf("the Faces check %s: %v, want ready %v saying %q", what, c, ready, says)
		}
	}
	facesCheck("before Check", false, "every face is enrolled but not checked: press Check")
	resp, out := h.call("POST", "/api/setup/camera/faces/check", cookie, map[string]any{})
	if resp.StatusCode != 200 || out["ready"] != false || len(out["misread"].([]any)) != 1 || !strings.Contains(out["says"].(string), "1 of 5 faces are not recognised back") {
		t.Fatalf("a misread crop: %d %v", resp.StatusCode, out)
	}
	if cam.reloads != 1 {
		t.Errorf("a misread enrolment was handed to the camera (%d reloads)", cam.reloads)
	}
	facesCheck("after a misread", false, "not checked: press Check")
	cam.checked = Checked{Crops: crops, Alike: []wire.Alike{{A: tile.West, B: tile.North, ImageA: "001-W.jpg", ImageB: "001-N.jpg", Similarity: 0.9}}}
	resp, out = h.call("POST", "/api/setup/camera/faces/check", cookie, map[string]any{})
	if resp.StatusCode != 200 || out["ready"] != true || !strings.Contains(out["says"].(string), "The camera is ready") || cam.reloads != 2 {
		t.Fatalf("all named back: %d %v, %d reloads", resp.StatusCode, out, cam.reloads)
	}
	facesCheck("once checked", true, "enrolled and checked")
	// A crop retaken on the page, or changed by hand, wants the check again; it passes again.
	h.call("POST", "/api/setup/camera/faces/capture", cookie, map[string]any{"face": "E"})
	if resp, out := h.call("POST", "/api/setup/camera/faces/accept", cookie, map[string]any{"face": "E", "replace": true}); resp.StatusCode != 200 {
		t.Fatalf("E retaken: %v", out)
	}
	facesCheck("after E was retaken", false, "the faces enrolled changed since they were last checked: press Check")
	cam.checked.Crops[0].Image = "002-E.jpg"
	if resp, out = h.call("POST", "/api/setup/camera/faces/check", cookie, map[string]any{}); out["ready"] != true {
		t.Fatalf("checked again: %d %v", resp.StatusCode, out)
	}
	facesCheck("checked again", true, "enrolled and checked")
	// The last check is the one that counts: a misread one, the enrolment unchanged, unticks it.
	cam.checked.Crops[3].As = tile.West
	h.call("POST", "/api/setup/camera/faces/check", cookie, map[string]any{})
	cam.checked.Crops[3].As = tile.North
	facesCheck("after a misread check of the same enrolment", false, "every face is enrolled but not checked: press Check")
	if resp, out = h.call("POST", "/api/setup/camera/faces/check", cookie, map[string]any{}); out["ready"] != true {
		t.Fatalf("checked once more: %d %v", resp.StatusCode, out)
	}
	crop := filepath.Join(h.dir, "camera", "enrolled", labels.ImageDir, "001-N.jpg")
	if err := os.WriteFile(crop, []byte("another crop"), 0o644); err != nil {
		t.Fatal(err)
	}
	facesCheck("after a crop changed by hand", false, "changed since they were last checked")
	alike := out["alike"].([]any)[0].(map[string]any)
	if alike["a"] != "W" || alike["jpeg_a"] == "" || alike["jpeg_b"] == "" || alike["jpeg_a"] == alike["jpeg_b"] {
		t.Errorf("the pair alike: %v", alike)
	}
	cam.checked.Alike[0].ImageB = "../../setup/owner-password"
	if resp, out = h.call("POST", "/api/setup/camera/faces/check", cookie, map[string]any{}); resp.StatusCode != 500 || !strings.Contains(out["error"].(string), "not an enrolled crop") {
		t.Errorf("a crop outside the enrolment: %d %v", resp.StatusCode, out)
	}
}

// The empty area kept by the camera worker beside the enrolment (labels.EmptyView) counts
// after a restart while it was taken through the corners saved now: the page need not Start
// again, and a face is captured at once. Kept through other corners, or corners saved anew
// after Start, it does not: a capture asks for Start first.
func TestFacesEmptyAreaKept(t *testing.T) {
	saved := area.Calibration{Corners: [4][2]float64{{102, 80}, {1038, 76}, {1060, 800}, {88, 818}}, Width: 960, Height: 704}
	other := saved
	other.Corners[1][0] = 1000
	for _, c := range []struct {
		what  string
		kept  area.Calibration
		empty bool
	}{{"kept through the corners saved", saved, true}, {"kept through other corners", other, false}} {
		cam := &fakeCamera{}
		h, _ := newCameraHarness(t, cam, func(dir string) {
			if _, err := SaveSettings(dir, Settings{Rules: "siamese", Names: []string{"East", "West"}}, []byte(windsCard)); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Join(dir, "camera"), 0o755); err != nil {
				t.Fatal(err)
			}
			png, corners := labels.EmptyView(filepath.Join(dir, "camera", "enrolled"))
			if err := saved.Save(filepath.Join(dir, "camera", "calibration.yaml")); err != nil {
				t.Fatal(err)
			}
			if err := c.kept.Save(corners); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(png, []byte("a view"), 0o644); err != nil {
				t.Fatal(err)
			}
		})
		cookie := h.login()
		if _, out := h.call("GET", "/api/setup/camera/faces", cookie, nil); out["empty"] != c.empty {
			t.Errorf("%s: the page is told empty %v, want %v", c.what, out["empty"], c.empty)
		}
		resp, out := h.call("POST", "/api/setup/camera/faces/capture", cookie, map[string]any{"face": "E"})
		if c.empty && resp.StatusCode != 200 || !c.empty && (resp.StatusCode != 409 || !strings.Contains(out["error"].(string), "capture it empty first")) {
			t.Errorf("%s: capture E: %d %v", c.what, resp.StatusCode, out)
		}
	}
	// Started here, then corners saved anew: Start again.
	cam := &fakeCamera{}
	h, _ := windsTable(t, cam)
	cookie := h.login()
	h.call("GET", "/api/setup/camera/snapshot", cookie, nil)
	h.call("POST", "/api/setup/camera/calibration", cookie, goodCorners)
	h.call("POST", "/api/setup/camera/faces/empty", cookie, map[string]any{})
	if _, out := h.call("GET", "/api/setup/camera/faces", cookie, nil); out["empty"] != true {
		t.Fatalf("after Start: %v", out)
	}
	moved := map[string]any{"corners": [][]float64{{100, 80}, {1038, 76}, {1060, 800}, {88, 818}}, "width": 960, "height": 704}
	if resp, out := h.call("POST", "/api/setup/camera/calibration", cookie, moved); resp.StatusCode != 200 {
		t.Fatalf("corners saved anew: %d %v", resp.StatusCode, out)
	}
	if _, out := h.call("GET", "/api/setup/camera/faces", cookie, nil); out["empty"] != false {
		t.Errorf("corners saved anew after Start: empty %v, want false", out["empty"])
	}
	if resp, out := h.call("POST", "/api/setup/camera/faces/capture", cookie, map[string]any{"face": "E"}); resp.StatusCode != 409 {
		t.Errorf("corners saved anew after Start: capture E: %d %v", resp.StatusCode, out)
	}
}
