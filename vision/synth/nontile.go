package synth

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand/v2"

	"gocv.io/x/gocv"
)

// NonTileKinds are the kinds of crop NonTile draws: what the extractor may cut out of a real table
// that is not a tile face. They are drawn here in Go, differently from the network's training
// script (vision/classify/train/negatives.py), so that measuring rejection on them is not
// measuring on what was trained on.
var NonTileKinds = []string{"felt", "wood", "cloth", "hand", "back", "shadow", "blank"}

// NonTile draws a crop of kind (one of NonTileKinds), ArtW x ArtH BGR; the caller closes it.
func NonTile(kind string, rng *rand.Rand) (gocv.Mat, error) {
	base := func() gocv.Mat { return surface(rng, rng.IntN(3)) }
	switch kind {
	case "felt", "wood", "cloth":
		return surface(rng, map[string]int{"felt": 0, "wood": 1, "cloth": 2}[kind]), nil
	case "hand":
		m := base()
		skin := color.RGBA{uint8(150 + rng.IntN(90)), uint8(110 + rng.IntN(70)), uint8(70 + rng.IntN(80)), 0}
		c := image.Pt(rng.IntN(ArtW), ArtH/2+rng.IntN(ArtH/2))
		gocv.Ellipse(&m, c, image.Pt(35+rng.IntN(40), 50+rng.IntN(40)), rng.Float64()*180, 0, 360, skin, -1)
		for range 2 + rng.IntN(4) {
			a := rng.Float64() * 2 * math.Pi
			l := 50 + rng.Float64()*60
			gocv.Line(&m, c, c.Add(image.Pt(int(l*math.Cos(a)), int(l*math.Sin(a)))), skin, 14+rng.IntN(8))
		}
		gocv.GaussianBlur(m, &m, image.Pt(5, 5), 0, 0, gocv.BorderDefault)
		return m, nil
	case "back":
		m := base()
		ivory := color.RGBA{235, 235, 225, 0}
		inset := rng.IntN(12)
		gocv.Rectangle(&m, image.Rect(inset, inset, ArtW-inset, ArtH-inset), ivory, -1)
		e := 4 + rng.IntN(10)
		c := color.RGBA{uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(rng.IntN(256)), 0}
		gocv.Rectangle(&m, image.Rect(inset+e, inset+e, ArtW-inset-e, ArtH-inset-e), c, -1)
		return m, nil
	case "shadow":
		m := base()
		shadeAcross(m, rng.Float64()*2*math.Pi, 0.3+0.5*rng.Float64())
		return m, nil
	case "blank":
		m := base()
		inset := rng.IntN(10)
		gocv.Rectangle(&m, image.Rect(inset, inset, ArtW-inset, ArtH-inset), color.RGBA{uint8(215 + rng.IntN(35)), uint8(215 + rng.IntN(35)), uint8(200 + rng.IntN(40)), 0}, -1)
		return m, nil
	}
	return gocv.Mat{}, fmt.Errorf("synth: no non-tile kind %q (want one of %v)", kind, NonTileKinds)
}

// surface is a plain table top: felt (one colour, fine noise), wood (bands of grain) or cloth
// (a woven check).
func surface(rng *rand.Rand, kind int) gocv.Mat {
	c1 := [3]float64{rng.Float64() * 200, rng.Float64() * 200, rng.Float64() * 200}
	c2 := [3]float64{rng.Float64() * 255, rng.Float64() * 255, rng.Float64() * 255}
	m := gocv.NewMatWithSize(ArtH, ArtW, gocv.MatTypeCV8UC3)
	period := 4 + rng.Float64()*14
	angle := rng.Float64() * math.Pi
	for y := range ArtH {
		for x := range ArtW {
			t := 0.0
			switch kind {
			case 0:
				t = 0.1 * rng.Float64()
			case 1:
				u := float64(x)*math.Cos(angle) + float64(y)*math.Sin(angle)
				t = 0.5 + 0.5*math.Sin(u/period+3*math.Sin(float64(y)/37))
				t *= 0.4
			case 2:
				if (int(float64(x)/period)+int(float64(y)/period))%2 == 0 {
					t = 1
				}
			}
			for ch := range 3 {
				m.SetUCharAt(y, x*3+ch, uint8(c1[ch]*(1-t)+c2[ch]*t))
			}
		}
	}
	return m
}

// shadeAcross darkens m by up to depth along direction a, in place.
func shadeAcross(m gocv.Mat, a, depth float64) {
	for y := range m.Rows() {
		for x := range m.Cols() {
			u := (float64(x)/float64(m.Cols())-0.5)*math.Cos(a) + (float64(y)/float64(m.Rows())-0.5)*math.Sin(a)
			k := 1 - depth/(1+math.Exp(-12*u))
			for ch := range 3 {
				m.SetUCharAt(y, x*3+ch, uint8(float64(m.GetUCharAt(y, x*3+ch))*k))
			}
		}
	}
}

// PhotoPatch cuts a tile-shaped (3:4) window at a random place out of img, its width a random
// share of the widest such window from minShare to maxShare, scaled to ArtW x ArtH: "a patch of
// some other photo". The caller closes it.
func PhotoPatch(img gocv.Mat, rng *rand.Rand, minShare, maxShare float64) (gocv.Mat, error) {
	if img.Empty() || img.Channels() != 3 || !(minShare > 0 && minShare <= maxShare && maxShare <= 1) {
		return gocv.Mat{}, fmt.Errorf("synth: photo patch: want a BGR image and 0 < %v <= %v <= 1", minShare, maxShare)
	}
	side := float64(min(img.Cols(), img.Rows()*3/4))
	w := max(8, int(side*(minShare+rng.Float64()*(maxShare-minShare))))
	h := w * 4 / 3
	if w > img.Cols() || h > img.Rows() {
		return gocv.Mat{}, fmt.Errorf("synth: photo patch: image %dx%d too small", img.Cols(), img.Rows())
	}
	x, y := rng.IntN(img.Cols()-w+1), rng.IntN(img.Rows()-h+1)
	win := img.Region(image.Rect(x, y, x+w, y+h))
	defer win.Close()
	out := gocv.NewMat()
	gocv.Resize(win, &out, image.Pt(ArtW, ArtH), 0, 0, gocv.InterpolationArea)
	return out, nil
}
