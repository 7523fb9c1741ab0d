package classify

import (
	"crypto/sha256"
	_ "embed"
	"fmt"
	"image"
	"strings"

	"github.com/siamesetable/siamesed/internal/userfile"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/vision/labels"
)

// The built-in model: train/train.py, trained on a fixed third of photos-dev (train/train-photos.csv,
// left out of every measurement), the tile artwork and drawn non-tile crops; its face classes
// (the faces output) by train/head.py on those and the four sets of photos-sets; see
// train/README.md.
//
//go:embed model/tiles.onnx
var builtinModel []byte

// builtinSum is the SHA-256 of the built-in model as trained (sha256sum's format): a damaged copy
// is refused before anything reads it.
//
//go:embed model/tiles.onnx.sha256
var builtinSum string

func checkBuiltin() error {
	want, _, _ := strings.Cut(builtinSum, " ")
	if got := fmt.Sprintf("%x", sha256.Sum256(builtinModel)); got != strings.TrimSpace(want) {
		return fmt.Errorf("%w: %s: SHA-256 %s, want %s (model/tiles.onnx.sha256)", ErrBadModel, BuiltinModel, got, want)
	}
	return nil
}

// BuiltinModel names the built-in model in errors and reports.
const BuiltinModel = "vision/classify/model/tiles.onnx (built in)"

// MaxModelBytes bounds a model file: the built-in one is about 2.8 MB.
const MaxModelBytes = 64 << 20

// NetThreshold is the default confidence (margin over the runner-up face) below which the
// network's answer is unknown: 0.1, as chosen for the previous model (docs/vision.md).
const NetThreshold = 0.1

// NetMinSimilarity is the default similarity below which the network's answer is unknown (too far
// from every enrolled face): the lowest of 0.6, 0.7, 0.75, 0.8, 0.85, 0.9 at which no face of
// the held-out sets B and C left out of a table's own enrolment was named (vision eval --sets
// --open, the model whose face classes never saw B or C), 0.8; checked on sets F and H with the
// model that never saw those. At 0.6 (the previous choice, on photos-dev alone) nearly 2% of
// such faces were named as another; at 0.9 a fifth of the table's own tiles turned into
// questions under every table condition together (docs/vision.md).
const NetMinSimilarity = 0.8

// NetMaxNone is the default likeness to the network's "no tile" class at or above which the answer
// is unknown: the lowest of 0.5, 0.6, ... 0.9 that turned no more training-photo tiles into
// questions than leaving it out, under any condition (loose, tight, off-centre, dim, uneven,
// blurred), 0.8; docs/vision.md.
const NetMaxNone = 0.8

// NetKindLead is the default KindLead: a crop the network takes for a kind of face never
// enrolled, more than for the nearest enrolled face, is answered unknown.
const NetKindLead = 0

// NetLookAlike is the similarity of two enrolled faces' crops (Example.Similarity) at or above
// which `enroll camera` warns that the model holds them alike.
const NetLookAlike = 0.85

// NewNet returns an empty classifier on the embedding network in the ONNX file at path, or on the
// built-in model when path is "". The file is checked (CheckONNX; the built-in model also against
// its SHA-256), then loaded in a child process (Probe), and only then by OpenCV here, since OpenCV
// aborts the process on some malformed models. Close frees the network.
func NewNet(path string) (*Classifier, error) {
	name, data := BuiltinModel, builtinModel
	if path != "" {
		var err error
		if data, err = userfile.ReadFile(path, "a model", MaxModelBytes); err != nil {
			return nil, fmt.Errorf("classify: model: %w", err)
		}
		name = path
	} else if err := checkBuiltin(); err != nil {
		return nil, err
	}
	if _, err := CheckONNX(name, data); err != nil {
		return nil, err
	}
	if err := Probe(name, data); err != nil {
		return nil, err
	}
	n, err := loadNet(name, data)
	if err != nil {
		return nil, err
	}
	return &Classifier{Threshold: NetThreshold, MinSimilarity: NetMinSimilarity, MaxNone: NetMaxNone, KindLead: NetKindLead, Views: NetViews(), EnrolViews: NetEnrolViews(), emb: n, nearest: 1}, nil
}

// NetZoom is the window NewNet's classifier sees every crop through, enrolled or classified:
// the crop shrunk a tenth inside a border of its own edge pixels (View.Zoom). Seen as they are,
// a set's 2C and 3C printed large, the numeral close to the tile's top edge, were held nearly
// alike; seen with a margin, apart. Measured on the tile sets with four training runs' models,
// each on sets it never saw, with the set's own one crop a face enrolled: at 0.9 every set met
// issue 27's goal with all four models, the crop as it is with one (docs/vision.md, "The window
// the network sees", also for what it costs). One view, as before.
const NetZoom = 0.9

// NetViews are NewNet's views of a crop to classify: the one window NetZoom.
func NetViews() []View { return []View{{Zoom: NetZoom}} }

// NetEnrolViews are NewNet's enrolment views: the window NetZoom and four windows 8% smaller
// than it, moved 3% of the crop towards each corner, as the extractor's cut wanders from one
// sighting to the next. With the previous model they took seed 1's wrong crops from 6 to 4 of
// 628 and left seeds 2-5 as they were: within the training's noise, kept because they do not
// hurt (docs/vision.md). They cost nothing per classification beyond the longer list of
// examples.
func NetEnrolViews() []View {
	views := NetViews()
	for _, d := range [][2]float64{{-1, -1}, {1, -1}, {-1, 1}, {1, 1}} {
		views = append(views, View{Zoom: 1.08 * NetZoom, DX: 0.03 * d[0], DY: 0.03 * d[1]})
	}
	return views
}

// netEmbedder runs the network on a crop resized to its input size.
type netEmbedder struct {
	net  gocv.Net
	size image.Point // input width and height
	// outputs are the graph's outputs: the embedding and, when the model has them, "none" (the
	// embedding's dot product with the unit weight of the class trained on crops of no tile)
	// and "faces" (with each face class's).
	outputs []string
}

// NoneOutput names a model's optional second output: for each crop, the dot product of its
// embedding with the unit weight of the class the network was trained to put every non-tile
// crop in (train/train.py). Divided by the embedding's length, the crop's cosine to "no tile".
const NoneOutput = "none"

// FacesOutput names a model's optional third output: for each crop, the dot product of its
// embedding with the unit weight of each face class (tile.NumFaces numbers, in tile.Face's
// order; train/head.py). Divided by the embedding's length, the crop's cosine to each kind of
// face: which kind the network takes it for, whatever the table enrolled.
const FacesOutput = "faces"

const maxInputSide = 512

func loadNet(name string, data []byte) (*netEmbedder, error) {
	info, err := CheckONNX(name, data)
	if err != nil {
		return nil, err
	}
	s := info.Shape
	if (s[0] != 0 && s[0] != 1) || s[1] != 3 || s[2] < 8 || s[3] < 8 || s[2] > maxInputSide || s[3] > maxInputSide {
		return nil, fmt.Errorf("%w: %s: input %q is %v, want 1x3xHxW, a BGR image of 8 to %d pixels a side",
			ErrBadModel, name, info.Input, s, maxInputSide)
	}
	if o := info.Outputs; len(o) > 3 || len(o) >= 2 && o[1] != NoneOutput || len(o) == 3 && o[2] != FacesOutput {
		return nil, fmt.Errorf("%w: %s: outputs %q, want an embedding (and, optionally, %q and then %q after it)", ErrBadModel, name, info.Outputs, NoneOutput, FacesOutput)
	}
	net, err := gocv.ReadNetFromONNXBytes(data)
	if err != nil {
		return nil, fmt.Errorf("classify: %s: %w", name, err)
	}
	if net.Empty() {
		net.Close()
		return nil, fmt.Errorf("%w: %s: OpenCV read no network", ErrBadModel, name)
	}
	n := &netEmbedder{net: net, size: image.Pt(int(s[3]), int(s[2])), outputs: info.Outputs}
	if err := n.trial(); err != nil {
		n.close()
		return nil, fmt.Errorf("%w: %s: trial run: %v", ErrBadModel, name, err)
	}
	return n, nil
}

func (n *netEmbedder) close() error { return n.net.Close() }

// embed runs the network once on a batch of every crop (and each crop half a turn round, when
// half is set).
func (n *netEmbedder) embed(crops []gocv.Mat, half bool) (embedding, error) {
	var small []gocv.Mat
	defer func() {
		for _, m := range small {
			m.Close()
		}
	}()
	for _, crop := range crops {
		m, err := n.inputImage(crop)
		if err != nil {
			return embedding{}, err
		}
		small = append(small, m)
	}
	if half {
		for _, m := range small[:len(crops)] {
			turned := gocv.NewMat()
			gocv.Flip(m, &turned, -1) // half a turn
			small = append(small, turned)
		}
	}
	o, err := n.run(small)
	if err != nil {
		return embedding{}, err
	}
	e := embedding{ups: o.vecs[:len(crops)]}
	if half {
		e.downs = o.vecs[len(crops):]
	}
	if o.none != nil {
		e.none = o.none[:len(crops)]
	}
	if o.faces != nil {
		e.faces = o.faces[:len(crops)]
	}
	return e, nil
}

// inputImage returns crop upright and resized to the network's input; the caller closes it.
func (n *netEmbedder) inputImage(crop gocv.Mat) (gocv.Mat, error) {
	src, release, err := upright(crop)
	if err != nil {
		return gocv.Mat{}, err
	}
	defer release()
	small := gocv.NewMat()
	gocv.Resize(src, &small, n.size, 0, 0, gocv.InterpolationArea)
	return small, nil
}

// builtinTrainedOn lists the photos of ../shared/data/photos-dev the built-in model was trained on
// (train/README.md); they are left out of every measurement of it.
//
//go:embed train/train-photos.csv
var builtinTrainedOn string

// BuiltinTrainedOn are the photos-dev crops the built-in model was trained on: leave them out of
// any split that measures it (vision eval --exclude).
func BuiltinTrainedOn() ([]labels.Item, error) {
	return labels.Parse("train/train-photos.csv (built in)", strings.NewReader(builtinTrainedOn))
}

// Excluding returns items less those whose image is in drop.
func Excluding(items, drop []labels.Item) []labels.Item {
	gone := map[string]bool{}
	for _, it := range drop {
		gone[it.Image] = true
	}
	var out []labels.Item
	for _, it := range items {
		if !gone[it.Image] {
			out = append(out, it)
		}
	}
	return out
}
