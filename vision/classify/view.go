package classify

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"gocv.io/x/gocv"
)

// View is a small, fixed change of a crop: the window it is seen through moved and scaled. The
// extractor's crops are off by a few pixels and a few percent in size from one sighting to the
// next, so a crop is embedded as it is and through a few such views, and the vectors averaged:
// the answer then depends less on where exactly this one crop was cut.
type View struct {
	// Zoom: the window is 1/Zoom of the crop's width and height; 0 means 1, above 1 zooms in,
	// below 1 takes in a border of repeated edge pixels.
	Zoom float64
	// DX, DY move the window's centre by this share of the crop's width and height (the crop's
	// own axes: on a landscape crop DX runs along the tile's length).
	DX, DY float64
}

// identity reports whether v leaves the crop as it is.
func (v View) identity() bool { return (v.Zoom == 0 || v.Zoom == 1) && v.DX == 0 && v.DY == 0 }

// Check rejects views that would not leave the window's centre inside the crop or that zoom
// beyond a factor of two either way.
func (v View) Check() error {
	if v.Zoom != 0 && !(v.Zoom >= 0.5 && v.Zoom <= 2) || math.IsNaN(v.DX) || math.IsNaN(v.DY) || math.Abs(v.DX) >= 0.5 || math.Abs(v.DY) >= 0.5 {
		return fmt.Errorf("classify: view %+v: want zoom 0.5-2 and shifts under half the crop", v)
	}
	return nil
}

// apply returns the crop seen through v; the caller closes it. An identity view returns a
// clone.
func (v View) apply(crop gocv.Mat) (gocv.Mat, error) {
	if err := v.Check(); err != nil {
		return gocv.Mat{}, err
	}
	if v.identity() {
		return crop.Clone(), nil
	}
	z := v.Zoom
	if z == 0 {
		z = 1
	}
	w, h := crop.Cols(), crop.Rows()
	ww, wh := max(1, int(math.Round(float64(w)/z))), max(1, int(math.Round(float64(h)/z)))
	x0 := int(math.Round(float64(w-ww)/2 + v.DX*float64(w)))
	y0 := int(math.Round(float64(h-wh)/2 + v.DY*float64(h)))
	// Whole pixels, no resampling here: the embedder resizes once, as it does a plain crop. Where
	// the window leaves the crop, the crop's edge pixels are repeated.
	src := crop
	if pad := max(-x0, -y0, x0+ww-w, y0+wh-h, 0); pad > 0 {
		padded := gocv.NewMat()
		defer padded.Close()
		gocv.CopyMakeBorder(crop, &padded, pad, pad, pad, pad, gocv.BorderReplicate, color.RGBA{})
		src, x0, y0 = padded, x0+pad, y0+pad
	}
	win := src.Region(image.Rect(x0, y0, x0+ww, y0+wh))
	defer win.Close()
	return win.Clone(), nil
}
