package synth

import (
	"fmt"
	"image"
	"image/color"
	"math/rand/v2"
	"slices"
	"sync"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/vision/calib"
)

// Placed is one tile of a scene, in the top-down view of the discard area.
type Placed struct {
	Face     tile.Face
	Center   image.Point
	Quarter  int  // quarter turns clockwise, 0..3
	FaceDown bool // the tile's back shows (Back), not its face
	// Glare: the overhead light catches the tile, washing most of its face out to white (a
	// glossy tile under a lamp): the face is hard to name, as on a real table.
	Glare bool
}

// Back is the colour of a tile's back (BGR, a red), inside an ivory rim.
var Back = color.RGBA{30, 50, 170, 0}

// Scene is what lies in the discard area, plus an optional hand over it.
type Scene struct {
	Tiles []Placed
	Hand  *image.Point // centre of a hand passing over, in the top-down view
}

// Options shape the rendering. The zero value gives a clean, straight-down view.
type Options struct {
	W, H        int     // top-down size of the discard area (default 640x480)
	TileW       int     // tile width in the top-down view (height is 4/3 of it; default 36)
	Tilt        float64 // corner displacement for perspective, share of the size (0..0.15)
	Light       float64 // brightness falls by up to this share across the frame (0..0.5)
	Blur        int     // Gaussian kernel, odd; 0 for none
	Noise       float64 // Gaussian noise, standard deviation in grey levels
	Seed        uint64  // noise and tilt are drawn from it
	FrameMargin int     // camera frame is the area plus this margin on each side (default 40)
}

func (o *Options) defaults() {
	if o.W == 0 {
		o.W, o.H = 640, 480
	}
	if o.TileW == 0 {
		o.TileW = 36
	}
	if o.FrameMargin == 0 {
		o.FrameMargin = 40
	}
}

// TileSize is the size of a portrait tile in the top-down view.
func (o Options) TileSize() image.Point {
	o.defaults()
	return image.Pt(o.TileW, o.TileW*4/3)
}

// Table is the felt colour (BGR).
var Table = color.RGBA{40, 95, 30, 0}

// Renderer draws scenes as a camera sees them.
type Renderer struct {
	art    *Art
	opts   Options
	cal    calib.Calibration
	warp   gocv.Mat                // top-down -> camera
	scaled [tile.NumFaces]gocv.Mat // each face at the tile size, made when first drawn
	made   [tile.NumFaces]bool
	// The last scene drawn, before light and noise: a camera watching a still table sees the
	// same scene frame after frame, and only the noise differs.
	last      gocv.Mat
	lastScene Scene
	lastOK    bool
}

// NewRenderer fixes the camera (tilt) from opts.Seed; Calibration says where it put the area.
func NewRenderer(art *Art, opts Options) (*Renderer, error) {
	opts.defaults()
	rng := rand.New(rand.NewPCG(opts.Seed, 1))
	W, H, M := float64(opts.W), float64(opts.H), float64(opts.FrameMargin)
	jit := func(s float64) float64 { return (rng.Float64()*2 - 1) * opts.Tilt * s }
	var c calib.Calibration
	c.Width, c.Height = opts.W, opts.H
	for i, p := range [4][2]float64{{0, 0}, {W, 0}, {W, H}, {0, H}} {
		c.Corners[i] = [2]float64{M + p[0] + jit(W), M + p[1] + jit(H)}
	}
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("synth: tilt too strong: %w", err)
	}
	src := gocv.NewPoint2fVectorFromPoints([]gocv.Point2f{{X: 0, Y: 0}, {X: float32(W), Y: 0}, {X: float32(W), Y: float32(H)}, {X: 0, Y: float32(H)}})
	defer src.Close()
	dps := make([]gocv.Point2f, 4)
	for i, p := range c.Corners {
		dps[i] = gocv.Point2f{X: float32(p[0]), Y: float32(p[1])}
	}
	dst := gocv.NewPoint2fVectorFromPoints(dps)
	defer dst.Close()
	return &Renderer{art: art, opts: opts, cal: c, warp: gocv.GetPerspectiveTransform2f(src, dst)}, nil
}

// Calibration is the true calibration of the rendered camera.
func (r *Renderer) Calibration() calib.Calibration { return r.cal }

// Close frees the renderer's transform and scaled faces (not the art).
func (r *Renderer) Close() error {
	for i := range r.scaled {
		if r.made[i] {
			r.scaled[i].Close()
		}
	}
	if r.lastOK {
		r.last.Close()
	}
	return r.warp.Close()
}

// face is f's art at the tile size.
func (r *Renderer) face(f tile.Face) gocv.Mat {
	if !r.made[f] {
		r.scaled[f], r.made[f] = gocv.NewMat(), true
		gocv.Resize(r.art.Face(f), &r.scaled[f], r.opts.TileSize(), 0, 0, gocv.InterpolationArea)
	}
	return r.scaled[f]
}

// Render draws the scene as a BGR camera frame; seed varies the noise between frames.
func (r *Renderer) Render(s Scene, seed uint64) (gocv.Mat, error) {
	if !r.lastOK || !sameScene(s, r.lastScene) {
		base, err := r.draw(s)
		if err != nil {
			return gocv.Mat{}, err
		}
		if r.lastOK {
			r.last.Close()
		}
		r.last, r.lastScene, r.lastOK = base, Scene{Tiles: slices.Clone(s.Tiles), Hand: s.Hand}, true
		if s.Hand != nil {
			h := *s.Hand
			r.lastScene.Hand = &h
		}
	}
	frame := r.last.Clone()
	if err := lightAndNoise(&frame, r.opts.Light, r.opts.Noise, seed); err != nil {
		frame.Close()
		return gocv.Mat{}, err
	}
	return frame, nil
}

func sameScene(a, b Scene) bool {
	if (a.Hand == nil) != (b.Hand == nil) || a.Hand != nil && *a.Hand != *b.Hand {
		return false
	}
	return slices.Equal(a.Tiles, b.Tiles)
}

// draw lays the scene's tiles and hand on the felt and looks at it through the camera: its
// tilt and blur, before light and noise.
func (r *Renderer) draw(s Scene) (gocv.Mat, error) {
	o := r.opts
	top := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(float64(Table.R), float64(Table.G), float64(Table.B), 0), o.H, o.W, gocv.MatTypeCV8UC3)
	defer top.Close()
	ts := o.TileSize()
	face := gocv.NewMat()
	defer face.Close()
	turned := gocv.NewMat()
	defer turned.Close()
	for _, p := range s.Tiles {
		if p.Face >= tile.NumFaces {
			return gocv.Mat{}, fmt.Errorf("synth: no such face %d", p.Face)
		}
		scaled := r.face(p.Face)
		scaled.CopyTo(&face)
		if p.FaceDown {
			face.SetTo(gocv.NewScalar(230, 235, 235, 0))
			rim := max(2, ts.X/10)
			inner := face.Region(image.Rect(rim, rim, ts.X-rim, ts.Y-rim))
			inner.SetTo(gocv.NewScalar(float64(Back.R), float64(Back.G), float64(Back.B), 0))
			inner.Close()
		}
		src := face
		if q := p.Quarter & 3; q != 0 {
			gocv.Rotate(face, &turned, [...]gocv.RotateFlag{0, gocv.Rotate90Clockwise, gocv.Rotate180Clockwise, gocv.Rotate90CounterClockwise}[q])
			src = turned
		}
		rect := image.Rectangle{Max: image.Pt(src.Cols(), src.Rows())}.Add(p.Center.Sub(image.Pt(src.Cols()/2, src.Rows()/2)))
		if !rect.In(image.Rect(0, 0, o.W, o.H)) {
			return gocv.Mat{}, fmt.Errorf("synth: tile %v at %v leaves the area", p.Face, p.Center)
		}
		roi := top.Region(rect)
		src.CopyTo(&roi)
		if p.Glare {
			glare(&roi)
		}
		roi.Close()
	}
	if s.Hand != nil {
		skin := color.RGBA{120, 150, 200, 0}
		gocv.Ellipse(&top, *s.Hand, image.Pt(ts.X*2, ts.Y*2), 30, 0, 360, skin, -1)
		gocv.Rectangle(&top, image.Rect(s.Hand.X-ts.X, s.Hand.Y, s.Hand.X+ts.X, o.H), skin, -1)
	}
	frame := gocv.NewMat()
	fw, fh := o.W+2*o.FrameMargin, o.H+2*o.FrameMargin
	gocv.WarpPerspectiveWithParams(top, &frame, r.warp, image.Pt(fw, fh), gocv.InterpolationLinear, gocv.BorderConstant, color.RGBA{25, 25, 25, 0})
	if o.Blur > 1 {
		k := o.Blur | 1
		gocv.GaussianBlur(frame, &frame, image.Pt(k, k), 0, 0, gocv.BorderDefault)
	}
	return frame, nil
}

// lightAndNoise darkens the frame towards its right edge and adds Gaussian noise, in place. The
// noise of a frame is a stretch of one fixed table of Gaussian numbers starting where seed says:
// as random as independent draws to anything that looks at a frame, and several times faster.
func lightAndNoise(m *gocv.Mat, light, noise float64, seed uint64) error {
	if light == 0 && noise == 0 {
		return nil
	}
	b, err := m.DataPtrUint8()
	if err != nil {
		return fmt.Errorf("synth: %w", err)
	}
	w, ch := m.Cols(), m.Channels()
	k := make([]float32, w)
	for x := range k {
		k[x] = float32(1 - light*float64(x)/float64(w))
	}
	tab, sigma := gaussTable(), float32(noise)
	j := rand.New(rand.NewPCG(seed, 2)).IntN(len(tab))
	for i := 0; i < len(b); {
		for x := range w {
			for range ch {
				v := float32(b[i])*k[x] + tab[j]*sigma
				if j++; j == len(tab) {
					j = 0
				}
				switch {
				case v <= 0:
					b[i] = 0
				case v >= 255:
					b[i] = 255
				default:
					b[i] = uint8(v)
				}
				i++
			}
		}
	}
	return nil
}

// gaussTable is a fixed table of standard Gaussian numbers, of odd length so that its stretches
// do not line up with the rows of a frame.
var gaussTable = sync.OnceValue(func() []float32 {
	rng := rand.New(rand.NewPCG(0x1, 0x7ab1e))
	t := make([]float32, 1<<18+1)
	for i := range t {
		t[i] = float32(rng.NormFloat64())
	}
	return t
})

// RandomScene places n distinct-position tiles on a grid with jitter, random faces and quarter turns.
func RandomScene(opts Options, n int, rng *rand.Rand) Scene {
	opts.defaults()
	ts := opts.TileSize()
	pitch := ts.Y + ts.Y/2 // room for a turned tile and a gap
	cols, rows := (opts.W-pitch/2)/pitch, (opts.H-pitch/2)/pitch
	cells := rng.Perm(cols * rows)
	var s Scene
	for _, c := range cells[:min(n, len(cells))] {
		jx, jy := rng.IntN(ts.Y/4+1)-ts.Y/8, rng.IntN(ts.Y/4+1)-ts.Y/8
		s.Tiles = append(s.Tiles, Placed{
			Face:    tile.Face(rng.IntN(tile.NumFaces)),
			Center:  image.Pt(pitch/2+pitch*(c%cols)+pitch/2+jx, pitch/2+pitch*(c/cols)+pitch/2+jy),
			Quarter: rng.IntN(4),
		})
	}
	return s
}

// glare washes out most of a tile's face: a bright oval, soft at its edge, as a lamp's reflection
// on a glossy tile.
func glare(m *gocv.Mat) {
	w, h := m.Cols(), m.Rows()
	spot := m.Clone()
	defer spot.Close()
	gocv.Ellipse(&spot, image.Pt(w/2, h/2), image.Pt(w*2/5, h*2/5), 30, 0, 360, color.RGBA{250, 250, 248, 0}, -1)
	k := max(3, w/6) | 1
	gocv.GaussianBlur(spot, &spot, image.Pt(k, k), 0, 0, gocv.BorderReplicate)
	spot.CopyTo(m)
}
