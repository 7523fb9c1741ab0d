// Package synth renders synthetic overhead frames of the discard area from the CC0 tile artwork
// (shared/data/tile-art, or the faces built in from it: Embedded): a felt table, tiles at random places in quarter turns, then perspective,
// uneven light, blur, noise and optionally a hand passing over. Each frame comes with its truth.
package synth

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"path/filepath"

	"github.com/siamesetable/siamesed/internal/userfile"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/engine/tile"
)

// artFile names the artwork of each face the riichi set has (see tile-art/README.md).
func artFile(f tile.Face) string {
	if s, ok := f.Suit(); ok {
		return [...]string{"Sou", "Man", "Pin"}[s] + fmt.Sprint(f.Rank())
	}
	switch f {
	case tile.East:
		return "Ton"
	case tile.South:
		return "Nan"
	case tile.West:
		return "Shaa"
	case tile.North:
		return "Pei"
	case tile.Red:
		return "Chun"
	case tile.Green:
		return "Hatsu"
	}
	return "" // white dragon, flower and joker are drawn stand-ins
}

// Art holds one BGR image of every face, ArtW x ArtH pixels.
type Art struct {
	faces [tile.NumFaces]gocv.Mat
}

// ArtW and ArtH are the size the artwork is kept at.
const (
	ArtW = 120
	ArtH = 160
)

// LoadArt composes each face on the blank tile front from dir (tile-art/png). White dragon,
// flower and joker have no riichi artwork: they get drawn stand-ins. Close frees the images.
func LoadArt(dir string) (*Art, error) {
	blank, err := readPNG(filepath.Join(dir, "Front.png"))
	if err != nil {
		return nil, err
	}
	front := toRGBA(blank) // converted once, copied for each face
	a := &Art{}
	for f := range tile.Face(tile.NumFaces) {
		img := image.NewRGBA(front.Rect)
		copy(img.Pix, front.Pix)
		if name := artFile(f); name != "" {
			face, err := readPNG(filepath.Join(dir, name+".png"))
			if err != nil {
				a.Close()
				return nil, err
			}
			// The glyphs fill the face; inset them so the tile keeps a plain border.
			b := img.Bounds()
			in := image.Rect(b.Dx()/12, b.Dy()/12, b.Dx()-b.Dx()/12, b.Dy()-b.Dy()/12)
			draw.Draw(img, in, scaled(face, in.Dx(), in.Dy()), image.Point{}, draw.Over)
		}
		m, err := gocv.ImageToMatRGB(img)
		if err != nil {
			a.Close()
			return nil, fmt.Errorf("synth: %w", err)
		}
		small := gocv.NewMat()
		gocv.Resize(m, &small, image.Pt(ArtW, ArtH), 0, 0, gocv.InterpolationArea)
		m.Close()
		standIn(f, &small)
		a.faces[f] = small
	}
	return a, nil
}

// standIn draws the faces the artwork lacks: a framed white dragon, a flower, a joker.
func standIn(f tile.Face, m *gocv.Mat) {
	blue := color.RGBA{40, 60, 170, 0}
	switch f {
	case tile.White:
		gocv.Rectangle(m, image.Rect(18, 22, ArtW-18, ArtH-22), blue, 5)
		gocv.Rectangle(m, image.Rect(30, 36, ArtW-30, ArtH-36), blue, 2)
	case tile.Flower:
		c := image.Pt(ArtW/2, ArtH/2+10)
		for i, d := range []image.Point{{0, -22}, {21, -7}, {13, 18}, {-13, 18}, {-21, -7}} {
			gocv.Circle(m, c.Add(d), 13, color.RGBA{byte(60 + 20*i), 40, 200, 0}, -1)
		}
		gocv.Circle(m, c, 9, color.RGBA{0, 170, 230, 0}, -1)
		gocv.Line(m, c.Add(image.Pt(0, 25)), c.Add(image.Pt(0, 60)), color.RGBA{30, 140, 30, 0}, 4)
		gocv.PutText(m, "1", image.Pt(12, 34), gocv.FontHersheySimplex, 0.9, color.RGBA{30, 30, 30, 0}, 2)
	case tile.Joker:
		gocv.PutText(m, "JOKER", image.Pt(10, 50), gocv.FontHersheySimplex, 0.8, blue, 2)
		gocv.Circle(m, image.Pt(ArtW/2, 100), 26, color.RGBA{30, 30, 200, 0}, 4)
		gocv.Circle(m, image.Pt(ArtW/2-9, 94), 4, color.RGBA{20, 20, 20, 0}, -1)
		gocv.Circle(m, image.Pt(ArtW/2+9, 94), 4, color.RGBA{20, 20, 20, 0}, -1)
		gocv.Ellipse(m, image.Pt(ArtW/2, 106), image.Pt(12, 7), 0, 0, 180, color.RGBA{20, 20, 20, 0}, 2)
	}
}

// Face is the artwork of f (BGR, ArtW x ArtH). It belongs to Art.
func (a *Art) Face(f tile.Face) gocv.Mat { return a.faces[f] }

// Close frees the images.
func (a *Art) Close() error {
	for i := range a.faces {
		a.faces[i].Close() // closing a zero Mat is harmless
	}
	return nil
}

func readPNG(p string) (image.Image, error) {
	f, err := userfile.Open(p, "a tile picture", 32<<20)
	if err != nil {
		return nil, fmt.Errorf("synth: %w", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return nil, fmt.Errorf("synth: %s: %w", p, err)
	}
	return img, nil
}

// scaled is a nearest-neighbour resize, good enough before the area resize that follows. It
// converts src to RGBA once and copies pixels: per pixel through At and Set, the 34 faces took
// ten times as long.
func scaled(src image.Image, w, h int) image.Image {
	from := toRGBA(src)
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	b := from.Rect
	for y := range h {
		for x := range w {
			i := from.PixOffset(b.Min.X+x*b.Dx()/w, b.Min.Y+y*b.Dy()/h)
			copy(dst.Pix[dst.PixOffset(x, y):][:4], from.Pix[i:i+4])
		}
	}
	return dst
}

// toRGBA is img as premultiplied RGBA: the same values RGBA.Set would store for its pixels.
func toRGBA(img image.Image) *image.RGBA {
	if m, ok := img.(*image.RGBA); ok {
		return m
	}
	m := image.NewRGBA(img.Bounds())
	draw.Draw(m, m.Rect, img, m.Rect.Min, draw.Src)
	return m
}
