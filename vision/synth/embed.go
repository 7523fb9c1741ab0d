package synth

import (
	"embed"
	"fmt"
	"image"
	"io/fs"
	"path"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/engine/tile"
)

// builtin holds every face as the synthetic frames draw it, EmbeddedW x EmbeddedH, made from the
// CC0 tile artwork by `siamesed-vision vision art --art ../shared/data/tile-art/png --out
// vision/synth/art --size 60x80` (art/README.md), so that a simulated camera needs nothing
// outside the binary.
//
//go:embed art/*.png
var builtin embed.FS

// EmbeddedW and EmbeddedH are the size of the built-in faces: the extractor's crop, larger than
// the tiles the simulated camera draws (36x48 by default).
const (
	EmbeddedW = 60
	EmbeddedH = 80
)

// Embedded returns the built-in faces, scaled up to ArtW x ArtH. Close frees them.
func Embedded() (*Art, error) { return LoadFaces(builtin, "art") }

// EmbeddedFS is the folder of built-in faces, <face>.png (1B.png .. J.png), at its root.
func EmbeddedFS() fs.FS {
	sub, err := fs.Sub(builtin, "art")
	if err != nil {
		panic(err) // a constant, valid path
	}
	return sub
}

// LoadFaces reads the face images `vision art` writes, <face>.png in dir of fsys for every face
// (1B.png .. J.png, any size of 3:4), and brings each to ArtW x ArtH. Close frees them.
func LoadFaces(fsys fs.FS, dir string) (*Art, error) {
	a := &Art{}
	for f := range tile.Face(tile.NumFaces) {
		name := path.Join(dir, f.String()+".png")
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			a.Close()
			return nil, fmt.Errorf("synth: faces: %w", err)
		}
		m, err := gocv.IMDecode(data, gocv.IMReadColor)
		if err != nil || m.Empty() {
			m.Close()
			a.Close()
			return nil, fmt.Errorf("synth: faces: %s is not an image OpenCV reads (%v)", name, err)
		}
		if m.Cols()*4 != m.Rows()*3 {
			m.Close()
			a.Close()
			return nil, fmt.Errorf("synth: faces: %s is %dx%d, want a portrait 3:4 face", name, m.Cols(), m.Rows())
		}
		a.faces[f] = ScaleFace(m, ArtW, ArtH)
		m.Close()
	}
	return a, nil
}

// ScaleFace returns m brought to w x h: by area when shrinking (as the built-in faces were
// made), linearly when growing. The caller closes it.
func ScaleFace(m gocv.Mat, w, h int) gocv.Mat {
	out := gocv.NewMat()
	interp := gocv.InterpolationArea
	if w > m.Cols() {
		interp = gocv.InterpolationLinear
	}
	gocv.Resize(m, &out, image.Pt(w, h), 0, 0, interp)
	return out
}
