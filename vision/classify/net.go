package classify

import (
	"crypto/sha256"
	_ "embed"
	"fmt"
	"image"
	"math"
	"strings"

	"github.com/siamesetable/siamesed/internal/userfile"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/vision/labels"
)

// The built-in model: train/train.py, trained on a fixed third of photos-dev (train/train-photos.csv,
// left out of every measurement), the tile artwork and drawn non-tile crops; see train/README.md.
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
// from every enrolled face): with NetMaxNone, the lowest of 0.5, 0.55, 0.6 at which 99% of non-tile
// crops of the training photos were rejected (seed 7's split, not a reported one) and no tile
// the simulated camera saw under glare was named (350 of them, seed 11; at 0.5, 37 were named,
// all wrong), 0.6; docs/vision.md.
const NetMinSimilarity = 0.6

// NetMaxNone is the default likeness to the network's "no tile" class at or above which the answer
// is unknown: the lowest of 0.5, 0.6, ... 0.9 that turned no more training-photo tiles into
// questions than leaving it out, under any condition (loose, tight, off-centre, dim, uneven,
// blurred), 0.8; docs/vision.md.
const NetMaxNone = 0.8

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
	return &Classifier{Threshold: NetThreshold, MinSimilarity: NetMinSimilarity, MaxNone: NetMaxNone, EnrolViews: NetEnrolViews(), emb: n, nearest: 1}, nil
}

// NetEnrolViews are NewNet's enrolment views: the crop as it is and four windows 8% smaller,
// moved 3% of the crop towards each corner, as the extractor's cut wanders from one sighting to
// the next. With the previous model they took seed 1's wrong crops from 6 to 4 of 628 and left
// seeds 2-5 as they were: within the training's noise, kept because they do not hurt
// (docs/vision.md). They cost nothing per classification beyond the longer list of examples.
func NetEnrolViews() []View {
	views := []View{{}}
	for _, d := range [][2]float64{{-1, -1}, {1, -1}, {-1, 1}, {1, 1}} {
		views = append(views, View{Zoom: 1.08, DX: 0.03 * d[0], DY: 0.03 * d[1]})
	}
	return views
}

// netEmbedder runs the network on a crop resized to its input size.
type netEmbedder struct {
	net  gocv.Net
	size image.Point // input width and height
	// outputs are the graph's outputs: the embedding and, when the model has it, "none" (the
	// embedding's dot product with the unit weight of the class trained on crops of no tile).
	outputs []string
}

// NoneOutput names a model's optional second output: for each crop, the dot product of its
// embedding with the unit weight of the class the network was trained to put every non-tile
// crop in (train/train.py). Divided by the embedding's length, the crop's cosine to "no tile".
const NoneOutput = "none"

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
	if len(info.Outputs) != 1 && (len(info.Outputs) != 2 || info.Outputs[1] != NoneOutput) {
		return nil, fmt.Errorf("%w: %s: outputs %q, want an embedding (and, optionally, %q after it)", ErrBadModel, name, info.Outputs, NoneOutput)
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

// trial runs the network on a grey image alone and batched with an orange one: the views of a
// crop go through as one batch, and a model whose graph mixes the images of a batch would
// otherwise give wrong vectors without an error.
func (n *netEmbedder) trial() error {
	grey := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(100, 100, 100, 0), n.size.Y, n.size.X, gocv.MatTypeCV8UC3)
	defer grey.Close()
	orange := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(0, 128, 255, 0), n.size.Y, n.size.X, gocv.MatTypeCV8UC3)
	defer orange.Close()
	one, oneNone, err := n.run([]gocv.Mat{grey})
	if err != nil {
		return err
	}
	two, twoNone, err := n.run([]gocv.Mat{grey, orange})
	if err != nil {
		return err
	}
	if len(one[0]) != len(two[0]) || dot(one[0], two[0]) < 0.999 {
		return fmt.Errorf("a batch of two images gives another vector for the first than it alone")
	}
	if oneNone != nil && math.Abs(float64(oneNone[0]-twoNone[0])) > 0.001 {
		return fmt.Errorf("a batch of two images gives another %q for the first than it alone", NoneOutput)
	}
	return nil
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
	vecs, none, err := n.run(small)
	if err != nil {
		return embedding{}, err
	}
	e := embedding{ups: vecs[:len(crops)]}
	if half {
		e.downs = vecs[len(crops):]
	}
	if none != nil {
		e.none = none[:len(crops)]
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

// run feeds images of the input size through the network as one batch: pixels / 255, BGR, as
// trained. It returns one unit vector per image and, when the model has the output, each
// image's cosine to "none" (nil otherwise).
func (n *netEmbedder) run(ims []gocv.Mat) ([][]float32, []float32, error) {
	blob := gocv.NewMat()
	defer blob.Close()
	gocv.BlobFromImages(ims, &blob, 1.0/255, n.size, gocv.NewScalar(0, 0, 0, 0), false, false, gocv.MatTypeCV32F)
	n.net.SetInput(blob, "")
	var outs []gocv.Mat
	if len(n.outputs) == 2 {
		outs = n.net.ForwardLayers(n.outputs) // one pass for both
	} else {
		outs = []gocv.Mat{n.net.Forward("")}
	}
	defer func() {
		for _, o := range outs {
			o.Close()
		}
	}()
	out := outs[0]
	if out.Empty() || out.Size()[0] != len(ims) || out.Total() < 2*len(ims) || out.Total()%len(ims) != 0 {
		return nil, nil, fmt.Errorf("classify: the network gave %d numbers for %d images, want an embedding each", out.Total(), len(ims))
	}
	v, err := out.DataPtrFloat32()
	if err != nil {
		return nil, nil, fmt.Errorf("classify: network output: %w", err)
	}
	var nv []float32
	if len(outs) == 2 {
		if outs[1].Total() != len(ims) {
			return nil, nil, fmt.Errorf("classify: the network gave %d numbers of %q for %d images, want one each", outs[1].Total(), NoneOutput, len(ims))
		}
		if nv, err = outs[1].DataPtrFloat32(); err != nil {
			return nil, nil, fmt.Errorf("classify: network output %q: %w", NoneOutput, err)
		}
	}
	k := len(v) / len(ims)
	vecs := make([][]float32, len(ims))
	var none []float32
	for i := range vecs {
		vecs[i] = append([]float32(nil), v[i*k:(i+1)*k]...)
		length := normalise(vecs[i])
		if nv != nil {
			none = append(none, nv[i]/max(length, 1e-12))
		}
	}
	return vecs, none, nil
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
