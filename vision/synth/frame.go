package synth

import (
	"fmt"
	"image"
	"image/color"
	"math"
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
	art  *Art
	opts Options
	cal  calib.Calibration
	warp gocv.Mat // top-down -> camera
	// homography is warp's numbers, row by row.
	homography [9]float64
	scaled     [tile.NumFaces]gocv.Mat // each face at the tile size, made when first drawn
	made       [tile.NumFaces]bool
	// The last scene drawn: a camera watching a still table sees the same scene frame after
	// frame, and only the noise differs. lit is it through the lens, blurred and lit, ready
	// for noise. A new scene is blurred and lit again only where its view differs from the
	// last (a hand, a tile laid): most of the frame stays.
	lit       gocv.Mat
	lastScene Scene
	lastOK    bool
	noise     []int16 // gaussTable scaled by Noise, rounded: made when first needed
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
	r := &Renderer{art: art, opts: opts, cal: c, warp: gocv.GetPerspectiveTransform2f(src, dst)}
	for i := range r.homography {
		r.homography[i] = r.warp.GetDoubleAt(i/3, i%3)
	}
	return r, nil
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
		r.lit.Close()
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
	frame := gocv.NewMat()
	if err := r.RenderTo(s, seed, &frame); err != nil {
		frame.Close()
		return gocv.Mat{}, err
	}
	return frame, nil
}

// RenderTo is Render into frame, which is made again only when it is not already a frame of the
// camera's size: a camera loop that keeps its frame does not allocate one per frame.
func (r *Renderer) RenderTo(s Scene, seed uint64, frame *gocv.Mat) error {
	if !r.lastOK || !sameScene(s, r.lastScene) {
		if err := r.redraw(s); err != nil {
			return err
		}
		r.lastScene = Scene{Tiles: slices.Clone(s.Tiles), Hand: s.Hand}
		if s.Hand != nil {
			h := *s.Hand
			r.lastScene.Hand = &h
		}
	}
	if frame.Rows() != r.lit.Rows() || frame.Cols() != r.lit.Cols() || frame.Type() != r.lit.Type() || !frame.IsContinuous() {
		frame.Close()
		*frame = gocv.NewMatWithSize(r.lit.Rows(), r.lit.Cols(), r.lit.Type())
	}
	return r.addNoise(frame, seed)
}

// redraw makes s the last scene: drawn and looked at through the lens, then blurred and lit
// where it differs from the last scene's view (everywhere, the first time), to the same
// pixels as blurring and lighting the whole view.
func (r *Renderer) redraw(s Scene) error {
	sharp, err := r.draw(s)
	if err != nil {
		return err
	}
	defer sharp.Close()
	area := image.Rect(0, 0, sharp.Cols(), sharp.Rows())
	if r.lastOK {
		area = r.changed(r.lastScene, s).Intersect(area)
	} else {
		r.lit = gocv.NewMatWithSize(sharp.Rows(), sharp.Cols(), sharp.Type())
	}
	r.lastOK = true
	if area.Empty() {
		return nil
	}
	// The blur takes in the pixels around the area too, and only the area is kept. They are
	// blurred as an image of their own: OpenCV blurs a region of a larger image a little
	// differently (a grey level here and there) from a whole image.
	pad := r.opts.Blur / 2
	around := area.Inset(-pad).Intersect(image.Rect(0, 0, sharp.Cols(), sharp.Rows()))
	region := sharp.Region(around)
	src := region.Clone()
	region.Close()
	defer src.Close()
	blurred := gocv.NewMat()
	defer blurred.Close()
	if k := r.opts.Blur | 1; r.opts.Blur > 1 {
		gocv.GaussianBlur(src, &blurred, image.Pt(k, k), 0, 0, gocv.BorderDefault)
	} else {
		src.CopyTo(&blurred)
	}
	kept := blurred.Region(area.Sub(around.Min))
	part := kept.Clone()
	kept.Close()
	defer part.Close()
	if err := light(&part, r.opts.Light, area.Min.X, sharp.Cols()); err != nil {
		return err
	}
	dst := r.lit.Region(area)
	defer dst.Close()
	part.CopyTo(&dst)
	return nil
}

// changed bounds, in the camera's frame, the pixels of the sharp view that differ between
// scenes a and b: where a tile lies in one and not the other, where a hand passes in one and
// not the other, widened by the blur's reach and a pixel of interpolation.
func (r *Renderer) changed(a, b Scene) image.Rectangle {
	ts := r.opts.TileSize()
	var top image.Rectangle // in the top-down view
	for _, p := range a.Tiles {
		if !slices.Contains(b.Tiles, p) {
			top = top.Union(tileRect(p, ts))
		}
	}
	for _, p := range b.Tiles {
		if !slices.Contains(a.Tiles, p) {
			top = top.Union(tileRect(p, ts))
		}
	}
	if (a.Hand == nil) != (b.Hand == nil) || a.Hand != nil && *a.Hand != *b.Hand {
		top = top.Union(r.handRect(a.Hand)).Union(r.handRect(b.Hand))
	}
	if top.Empty() {
		return image.Rectangle{}
	}
	var out image.Rectangle
	for _, c := range [4]image.Point{top.Min, {top.Max.X, top.Min.Y}, top.Max, {top.Min.X, top.Max.Y}} {
		x, y := r.toFrame(float64(c.X), float64(c.Y))
		pt := image.Rectangle{Min: image.Pt(int(math.Floor(x)), int(math.Floor(y)))}
		pt.Max = pt.Min.Add(image.Pt(2, 2))
		out = out.Union(pt)
	}
	return out.Inset(-r.opts.Blur/2 - 2)
}

// tileRect holds tile p at any quarter turn, with a pixel to spare.
func tileRect(p Placed, ts image.Point) image.Rectangle {
	h := max(ts.X, ts.Y)/2 + 1
	return image.Rect(p.Center.X-h, p.Center.Y-h, p.Center.X+h+1, p.Center.Y+h+1)
}

// handShape is the hand draw draws at c, in an area h high: its palm's half axes (an ellipse
// turned 30 degrees) and its arm, reaching to the area's near edge.
func handShape(c, ts image.Point, h int) (palm image.Point, arm image.Rectangle) {
	return image.Pt(ts.X*2, ts.Y*2), image.Rect(c.X-ts.X, c.Y, c.X+ts.X, h)
}

// handRect holds the hand draw draws at c (none for nil): its palm at any angle, and its arm.
func (r *Renderer) handRect(c *image.Point) image.Rectangle {
	if c == nil {
		return image.Rectangle{}
	}
	palm, arm := handShape(*c, r.opts.TileSize(), r.opts.H)
	reach := max(palm.X, palm.Y) + 1
	return image.Rect(c.X-reach, c.Y-reach, c.X+reach+1, c.Y+reach+1).Union(arm)
}

// toFrame is where the camera sees the point (x, y) of the top-down view.
func (r *Renderer) toFrame(x, y float64) (float64, float64) {
	m := &r.homography
	w := m[6]*x + m[7]*y + m[8]
	return (m[0]*x + m[1]*y + m[2]) / w, (m[3]*x + m[4]*y + m[5]) / w
}

func sameScene(a, b Scene) bool {
	if (a.Hand == nil) != (b.Hand == nil) || a.Hand != nil && *a.Hand != *b.Hand {
		return false
	}
	return slices.Equal(a.Tiles, b.Tiles)
}

// draw lays the scene's tiles and hand on the felt and looks at it through the camera's tilt,
// before blur, light and noise.
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
		palm, arm := handShape(*s.Hand, ts, o.H)
		gocv.Ellipse(&top, *s.Hand, palm, 30, 0, 360, skin, -1)
		gocv.Rectangle(&top, arm, skin, -1)
	}
	frame := gocv.NewMat()
	fw, fh := o.W+2*o.FrameMargin, o.H+2*o.FrameMargin
	gocv.WarpPerspectiveWithParams(top, &frame, r.warp, image.Pt(fw, fh), gocv.InterpolationLinear, gocv.BorderConstant, color.RGBA{25, 25, 25, 0})
	return frame, nil
}

// light darkens m, a part of a frame w wide starting at column x0, towards the frame's right
// edge by up to share, in place.
func light(m *gocv.Mat, share float64, x0, w int) error {
	if share == 0 {
		return nil
	}
	b, err := m.DataPtrUint8()
	if err != nil {
		return fmt.Errorf("synth: %w", err)
	}
	cols, ch := m.Cols(), m.Channels()
	k := make([]float32, cols)
	for x := range k {
		k[x] = float32(1 - share*float64(x0+x)/float64(w))
	}
	for row := 0; row < len(b); row += cols * ch {
		px := b[row : row+cols*ch]
		for x, kx := range k {
			for c := range ch {
				px[x*ch+c] = uint8(float32(px[x*ch+c]) * kx)
			}
		}
	}
	return nil
}

// addNoise writes the lit view of the last scene with Gaussian noise added into frame, a Mat of
// its size and type. The noise of a frame is a stretch of one fixed table of Gaussian numbers
// starting where seed says: as random as independent draws to anything that looks at a frame,
// and many times faster.
func (r *Renderer) addNoise(frame *gocv.Mat, seed uint64) error {
	src, err := r.lit.DataPtrUint8()
	if err != nil {
		return fmt.Errorf("synth: %w", err)
	}
	dst, err := frame.DataPtrUint8()
	if err != nil {
		return fmt.Errorf("synth: %w", err)
	}
	if r.opts.Noise == 0 {
		copy(dst, src)
		return nil
	}
	if r.noise == nil {
		g := gaussTable()
		r.noise = make([]int16, len(g))
		for i, v := range g {
			r.noise[i] = int16(math.Round(float64(v) * r.opts.Noise))
		}
	}
	tab := r.noise
	j := rand.New(rand.NewPCG(seed, 2)).IntN(len(tab))
	for i := 0; i < len(src); {
		n := min(len(src)-i, len(tab)-j)
		addClamped(dst[i:i+n], src[i:i+n], tab[j:j+n])
		i += n
		if j += n; j == len(tab) {
			j = 0
		}
	}
	return nil
}

// addClamped writes src+noise, held to 0..255, into dst (all of one length). Written so that
// the compiler checks no bounds in the loop.
func addClamped(dst, src []uint8, noise []int16) {
	dst, noise = dst[:len(src)], noise[:len(src)]
	for k, v := range src {
		dst[k] = uint8(max(0, min(255, int16(v)+noise[k])))
	}
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
