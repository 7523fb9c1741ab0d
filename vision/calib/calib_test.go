package calib

import (
	"errors"
	"image"
	"image/color"
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct{ name, in, err string }{
		{"ok", "corners: [[10, 10], [630, 12], [620, 470], [5, 460]]\nwidth: 640\nheight: 480\n", ""},
		{"unknown field", "corners: [[0,0],[1,0],[1,1],[0,1]]\nwidth: 640\nheight: 480\nzoom: 2\n", "zoom"},
		{"tiny", "corners: [[0,0],[100,0],[100,100],[0,100]]\nwidth: 2\nheight: 480\n", "width 2"},
		{"crossed", "corners: [[0,0],[100,100],[100,0],[0,100]]\nwidth: 64\nheight: 48\n", "convex"},
		{"negative", "corners: [[-5,0],[100,0],[100,100],[0,100]]\nwidth: 64\nheight: 48\n", "corner 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse("c.yaml", []byte(tc.in))
			if tc.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				if c.Width != 640 {
					t.Fatalf("width %d", c.Width)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.HasPrefix(err.Error(), "calib: ") {
				t.Fatalf("err = %v, want calib: ...%q", err, tc.err)
			}
		})
	}
}

func TestSaveLoadRoundTrip(t *testing.T) {
	c := Calibration{Corners: [4][2]float64{{10.5, 20}, {600, 15}, {610, 470}, {3, 455}}, Width: 400, Height: 300}
	p := filepath.Join(t.TempDir(), "c.yaml")
	if err := c.Save(p); err != nil {
		t.Fatal(err)
	}
	got, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if got != c {
		t.Fatalf("got %+v, want %+v", got, c)
	}
	if err := (Calibration{}).Save(p); !errors.Is(err, ErrInvalid) {
		t.Fatalf("saving a zero calibration: %v", err)
	}
}

func TestWarpMapsCornersToTheView(t *testing.T) {
	// A white quadrilateral on black, warped, must fill the view.
	frame := gocv.NewMatWithSize(480, 640, gocv.MatTypeCV8UC1)
	defer frame.Close()
	c := Calibration{Corners: [4][2]float64{{100, 50}, {540, 80}, {580, 430}, {60, 400}}, Width: 200, Height: 150}
	pv := gocv.NewPointsVector()
	defer pv.Close()
	quad := gocv.NewPointVector()
	for _, p := range c.Corners {
		quad.Append(imgPt(p))
	}
	pv.Append(quad)
	gocv.FillPoly(&frame, pv, color.RGBA{255, 255, 255, 255})
	w, err := NewWarper(c)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	out := gocv.NewMat()
	defer out.Close()
	w.Warp(frame, &out)
	if out.Cols() != 200 || out.Rows() != 150 {
		t.Fatalf("size %dx%d", out.Cols(), out.Rows())
	}
	if n := gocv.CountNonZero(out); n < 200*150*97/100 {
		t.Fatalf("only %d of %d pixels inside the area", n, 200*150)
	}
	// WarpTo: the same view at another size is the whole view brought to that size; asked for
	// a size again after another, it is made anew.
	for _, size := range []image.Point{image.Pt(50, 40), image.Pt(80, 60), image.Pt(50, 40), image.Pt(200, 150)} {
		small := gocv.NewMat()
		w.WarpTo(frame, &small, size)
		if small.Cols() != size.X || small.Rows() != size.Y {
			t.Fatalf("WarpTo %v: size %dx%d", size, small.Cols(), small.Rows())
		}
		if n := gocv.CountNonZero(small); n < size.X*size.Y*95/100 {
			t.Fatalf("WarpTo %v: only %d of %d pixels inside the area", size, n, size.X*size.Y)
		}
		small.Close()
	}
	// A view made small is the whole view brought to that size: a mark lands where it would.
	marked := frame.Clone()
	defer marked.Close()
	gocv.Circle(&marked, image.Pt(300, 250), 30, color.RGBA{0, 0, 0, 0}, -1)
	whole, shrunk, small, diff := gocv.NewMat(), gocv.NewMat(), gocv.NewMat(), gocv.NewMat()
	defer whole.Close()
	defer shrunk.Close()
	defer small.Close()
	defer diff.Close()
	w.Warp(marked, &whole)
	gocv.Resize(whole, &shrunk, image.Pt(100, 75), 0, 0, gocv.InterpolationArea)
	w.WarpTo(marked, &small, image.Pt(100, 75))
	gocv.AbsDiff(shrunk, small, &diff)
	gocv.Threshold(diff, &diff, 128, 255, gocv.ThresholdBinary)
	if n := gocv.CountNonZero(diff); n > 100*75/100 {
		t.Errorf("the small view differs from the whole view made small in %d of %d pixels", n, 100*75)
	}
	if n := gocv.CountNonZero(small); n > 100*75*99/100 {
		t.Errorf("the mark is not in the small view: %d of %d pixels lit", n, 100*75)
	}
}

func FuzzParse(f *testing.F) {
	f.Add("corners: [[10, 10], [630, 12], [620, 470], [5, 460]]\nwidth: 640\nheight: 480\n")
	f.Add("corners: [[0,0]]\n")
	f.Add("width: 1e9\n")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := Parse("fuzz", []byte(s))
		if err != nil {
			return
		}
		b, err := c.Marshal()
		if err != nil {
			t.Fatalf("valid calibration does not marshal: %v", err)
		}
		again, err := Parse("again", b)
		if err != nil || again != c {
			t.Fatalf("round trip: %v %+v != %+v", err, again, c)
		}
	})
}

func imgPt(p [2]float64) image.Point { return image.Pt(int(p[0]), int(p[1])) }
