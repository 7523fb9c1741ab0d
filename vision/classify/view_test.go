package classify

import (
	"image"
	"slices"
	"testing"

	"gocv.io/x/gocv"
)

// A 40x80 crop: left half black, right half white, a grey pixel block in the middle.
func viewCrop(t *testing.T) gocv.Mat {
	t.Helper()
	m := gocv.NewMatWithSize(80, 40, gocv.MatTypeCV8UC3)
	white := m.Region(image.Rect(20, 0, 40, 80))
	white.SetTo(gocv.NewScalar(255, 255, 255, 0))
	white.Close()
	mid := m.Region(image.Rect(18, 38, 22, 42))
	mid.SetTo(gocv.NewScalar(128, 128, 128, 0))
	mid.Close()
	return m
}

// netAndCrop is the built-in network's classifier and viewCrop, both closed when the test ends.
func netAndCrop(t *testing.T) (*Classifier, gocv.Mat) {
	t.Helper()
	c, err := NewNet("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	crop := viewCrop(t)
	t.Cleanup(func() { crop.Close() })
	return c, crop
}

func TestViewApply(t *testing.T) {
	crop := viewCrop(t)
	defer crop.Close()
	for _, c := range []struct {
		v          View
		w, h       int
		left, righ uint8 // first and last pixel of the top row
	}{
		{View{}, 40, 80, 0, 255},
		{View{Zoom: 1}, 40, 80, 0, 255},
		{View{Zoom: 2}, 20, 40, 0, 255},             // the middle: 10..30 across
		{View{Zoom: 0.5}, 80, 160, 0, 255},          // edges repeated outwards
		{View{Zoom: 2, DX: 0.25}, 20, 40, 255, 255}, // the right half: all white
		{View{Zoom: 2, DX: -0.25}, 20, 40, 0, 0},    // the left half: all black
	} {
		out, err := c.v.apply(crop)
		if err != nil {
			t.Fatalf("%+v: %v", c.v, err)
		}
		l, r := out.GetVecbAt(0, 0)[0], out.GetVecbAt(0, out.Cols()-1)[0]
		if out.Cols() != c.w || out.Rows() != c.h || l != c.left || r != c.righ {
			t.Errorf("%+v: got %dx%d, top row %d..%d; want %dx%d, %d..%d", c.v, out.Cols(), out.Rows(), l, r, c.w, c.h, c.left, c.righ)
		}
		out.Close()
	}
	for _, v := range []View{{Zoom: 0.4}, {Zoom: 3}, {DX: 0.5}, {DY: -0.6}, {Zoom: -1}} {
		if err := v.Check(); err == nil {
			t.Errorf("%+v: accepted", v)
		}
		if m, err := v.apply(crop); err == nil {
			m.Close()
			t.Errorf("%+v: applied", v)
		}
	}
}

// Views are what the classifier embeds: one view zooming into the middle gives the same answer
// and confidence as the middle cut out by hand, and enrolment views multiply the examples but
// not the crops counted.
func TestClassifierUsesViews(t *testing.T) {
	c, crop := netAndCrop(t)
	other := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(30, 90, 200, 0), 80, 40, gocv.MatTypeCV8UC3)
	defer other.Close()
	c.EnrolViews = []View{{}, {Zoom: 1.1}, {Zoom: 0.9}}
	if err := c.Enrol(0, crop); err != nil {
		t.Fatal(err)
	}
	if err := c.Enrol(1, other); err != nil {
		t.Fatal(err)
	}
	if c.Len() != 2 || len(c.examples) != 6 {
		t.Fatalf("Len %d, examples %d; want 2 crops, 6 examples", c.Len(), len(c.examples))
	}
	middle := crop.Region(image.Rect(10, 20, 30, 60))
	defer middle.Close()
	c.Views = nil
	want, err := c.Classify(middle)
	if err != nil {
		t.Fatal(err)
	}
	c.Views = []View{{Zoom: 2}}
	got, err := c.Classify(crop)
	if err != nil {
		t.Fatal(err)
	}
	c.Views = nil
	whole, err := c.Classify(crop)
	if err != nil {
		t.Fatal(err)
	}
	if got.Face != want.Face || got.Confidence != want.Confidence || whole.Confidence == want.Confidence {
		t.Errorf("zoomed view %+v, middle cut by hand %+v, whole crop %+v: want the first two equal, the third not", got, want, whole)
	}
}

// TestNetSeesEveryCropThroughItsWindow: NewNet's classifier answers for a crop, and enrols it,
// as the same classifier without views does for the crop seen through NetZoom's window.
func TestNetSeesEveryCropThroughItsWindow(t *testing.T) {
	c, crop := netAndCrop(t)
	window, err := View{Zoom: NetZoom}.apply(crop)
	if err != nil {
		t.Fatal(err)
	}
	defer window.Close()
	enrolled, err := c.Example(0, crop)
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Query(crop)
	if err != nil {
		t.Fatal(err)
	}
	c.Views, c.EnrolViews = nil, nil
	plain, err := c.Example(0, window)
	if err != nil {
		t.Fatal(err)
	}
	want, err := c.Query(window)
	if err != nil {
		t.Fatal(err)
	}
	asIs, err := c.Query(crop)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.vec, want.vec) || slices.Equal(got.vec, asIs.vec) {
		t.Errorf("classified by default: cosine %.5f to the window, %.5f to the crop as it is; want the window's vector",
			dot(got.vec, want.vec), dot(got.vec, asIs.vec))
	}
	if !slices.Equal(enrolled.vecs[0][0], plain.vecs[0][0]) {
		t.Errorf("enrolled by default: first view's cosine to the window %.5f; want the window's vector", dot(enrolled.vecs[0][0], plain.vecs[0][0]))
	}
}
