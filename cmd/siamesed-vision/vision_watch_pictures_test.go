package main

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/vision/area"
	"github.com/siamesetable/siamesed/vision/synth"
	"github.com/siamesetable/siamesed/vision/wire"
)

func previewLine(t *testing.T, c area.Calibration) string {
	t.Helper()
	b, err := wire.Request{Op: wire.OpPreview, Area: c}.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

// The simulated camera's pictures: a snapshot is its whole frame; a preview is the top-down
// view through the corners asked (here a rectangle, so the view is that part of the frame);
// a corner outside the frame is an error naming the request's line, and the worker goes on.
func TestVisionWatchSimPictures(t *testing.T) {
	crop := area.Calibration{Corners: [4][2]float64{{100, 50}, {300, 50}, {300, 200}, {100, 200}}, Width: 200, Height: 150}
	big := crop
	big.Width, big.Height = 8000, 6000 // previewed at 1600x1200
	outside := crop
	outside.Corners[2] = [2]float64{5000, 200}
	in := `{"op":"snapshot"}` + "\n" + previewLine(t, crop) + previewLine(t, big) + previewLine(t, outside) +
		`{"op":"preview","corners":[[100,50],[300,200],[300,50],[100,200]],"width":200,"height":150}` + "\n" +
		request(wire.OpPut, tile.Dot5, watchT0)
	var out, errb bytes.Buffer
	if err := visionWatch(context.Background(), strings.NewReader(in), []string{"--sim", "--seed", "3", "--tiles", "20"}, &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	var got []string
	var pics []image.Image
	for _, rep := range replies(t, out.String())[1:] {
		s := string(rep.Kind)
		switch rep.Kind {
		case wire.KindPicture:
			img, err := jpeg.Decode(bytes.NewReader(rep.JPEG))
			if err != nil || img.Bounds().Dx() != rep.Width || img.Bounds().Dy() != rep.Height {
				t.Fatalf("a picture that is not its JPEG: %v, %v for %dx%d", err, img.Bounds(), rep.Width, rep.Height)
			}
			pics = append(pics, img)
		case wire.KindError:
			s += " " + rep.Error
		case wire.KindDone:
			s += " " + string(rune('0'+rep.Line))
		}
		got = append(got, s)
	}
	want := []string{"picture", "done 1", "picture", "done 2", "picture", "done 3", "error line 4: preview: corner 2 (5000,200) is outside the camera's",
		"error wire: line 5: wire: bad line: preview: calib: invalid: corners do not form a convex quadrilateral", "seen", "done 6"}
	if len(got) != len(want) {
		t.Fatalf("replies:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("reply %d: %q, want %q...", i, got[i], want[i])
		}
	}
	frame, view := pics[0], pics[1]
	if b := pics[2].Bounds(); b.Dx() != 1600 || b.Dy() != 1200 {
		t.Errorf("a preview of an 8000x6000 view is %v, want it scaled to 1600x1200", b)
	}
	if b := frame.Bounds(); b.Dx() < 400 || b.Dy() < 300 {
		t.Errorf("the simulated camera's frame is %v", b)
	}
	if d := meanDiff(view, frame, image.Pt(100, 50)); d > 12 {
		t.Errorf("the preview differs from the frame's part it shows by %.1f a pixel", d)
	}
	if d := meanDiff(view, frame, image.Pt(160, 90)); d < 2*12 { // the test can tell a wrong part
		t.Errorf("the preview is as like another part of the frame (%.1f): the comparison tells nothing", d)
	}
}

// meanDiff is the mean difference of grey levels between view and the same-sized part of frame
// at off.
func meanDiff(view, frame image.Image, off image.Point) float64 {
	var sum float64
	b := view.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			a := color.GrayModel.Convert(view.At(x, y)).(color.Gray).Y
			c := color.GrayModel.Convert(frame.At(x+off.X, y+off.Y)).(color.Gray).Y
			sum += max(float64(a)-float64(c), float64(c)-float64(a))
		}
	}
	return sum / float64(b.Dx()*b.Dy())
}

// A real camera on a new table, with no calibration and no faces enrolled: the worker says
// hello, says what is missing as its status, and shows its frames for the set-up page; moves
// are refused, saying why.
func TestVisionWatchCameraNotCalibratedYet(t *testing.T) {
	art, err := synth.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	defer art.Close()
	r, err := synth.NewRenderer(art, synth.Options{Tilt: 0.06, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	frames := writeFrames(t, r, []synth.Step{{Frames: 3}})
	dir := t.TempDir()
	in := `{"op":"snapshot"}` + "\n" + request(wire.OpPut, tile.Dot5, watchT0)
	var out, errb bytes.Buffer
	args := []string{"--source", frames, "--calib", filepath.Join(dir, "calibration.yaml"), "--enrolled", filepath.Join(dir, "enrolled"), "--status-every", "1h"}
	if err := visionWatch(context.Background(), strings.NewReader(in), args, &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	var got []string
	for _, rep := range replies(t, out.String()) {
		switch rep.Kind {
		case wire.KindHello:
			got = append(got, "hello "+rep.Mode)
		case wire.KindStatus:
			got = append(got, "status "+rep.Problem)
		case wire.KindPicture:
			img, err := jpeg.Decode(bytes.NewReader(rep.JPEG))
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, fmt.Sprintf("picture %v", img.Bounds().Size()))
		case wire.KindError:
			got = append(got, "error "+rep.Error)
		default:
			got = append(got, fmt.Sprintf("%s %d", rep.Kind, rep.Line))
		}
	}
	m := gocv.NewMat()
	defer m.Close()
	if err := synth.NewScript(r, synth.Step{Frames: 1}).Read(&m); err != nil {
		t.Fatal(err)
	}
	want := []string{"hello camera", "status the discard area is not calibrated", fmt.Sprintf("picture (%d,%d)", m.Cols(), m.Rows()), "done 1",
		"error line 2: put: the camera does not watch yet: the discard area is not calibrated"}
	if len(got) != len(want) {
		t.Fatalf("replies:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("reply %d: %q, want %q...", i, got[i], want[i])
		}
	}
}
