package classify

import (
	_ "embed"
	"fmt"
	"image"
	"os"

	"gocv.io/x/gocv"
)

// The built-in model: train/train.py, trained on the enrolment half of photos-dev (seed 1) and on
// the tile artwork; see train/README.md.
//
//go:embed model/tiles.onnx
var builtinModel []byte

// BuiltinModel names the built-in model in errors and reports.
const BuiltinModel = "vision/classify/model/tiles.onnx (built in)"

// NetThreshold is the default confidence below which the network's answer is unknown.
const NetThreshold = 0.1

// NewNet returns an empty classifier on the embedding network in the ONNX file at path, or on the
// built-in model when path is "". The file is checked (CheckONNX) before OpenCV sees it. Close
// frees the network.
func NewNet(path string) (*Classifier, error) {
	name, data := BuiltinModel, builtinModel
	if path != "" {
		var err error
		if data, err = os.ReadFile(path); err != nil {
			return nil, fmt.Errorf("classify: model: %w", err)
		}
		name = path
	}
	n, err := loadNet(name, data)
	if err != nil {
		return nil, err
	}
	return &Classifier{Threshold: NetThreshold, emb: n, nearest: 1}, nil
}

// netEmbedder runs the network on a crop resized to its input size.
type netEmbedder struct {
	net  gocv.Net
	size image.Point // input width and height
}

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
	if len(info.Outputs) != 1 {
		return nil, fmt.Errorf("%w: %s: %d outputs, want one embedding", ErrBadModel, name, len(info.Outputs))
	}
	net, err := gocv.ReadNetFromONNXBytes(data)
	if err != nil {
		return nil, fmt.Errorf("classify: %s: %w", name, err)
	}
	if net.Empty() {
		net.Close()
		return nil, fmt.Errorf("%w: %s: OpenCV read no network", ErrBadModel, name)
	}
	n := &netEmbedder{net: net, size: image.Pt(int(s[3]), int(s[2]))}
	probe := gocv.NewMatWithSize(n.size.Y, n.size.X, gocv.MatTypeCV8UC3)
	defer probe.Close()
	if _, err := n.run(probe); err != nil {
		n.close()
		return nil, fmt.Errorf("%w: %s: trial run: %v", ErrBadModel, name, err)
	}
	return n, nil
}

func (n *netEmbedder) close() error { return n.net.Close() }

func (n *netEmbedder) embed(crop gocv.Mat, half bool) (up, down []float32, err error) {
	if crop.Empty() || crop.Channels() != 3 {
		return nil, nil, fmt.Errorf("classify: crop must be a non-empty BGR image, got %d channels", crop.Channels())
	}
	src := crop
	if crop.Cols() > crop.Rows() {
		turned := gocv.NewMat()
		defer turned.Close()
		gocv.Rotate(crop, &turned, gocv.Rotate90Clockwise)
		src = turned
	}
	small := gocv.NewMat()
	defer small.Close()
	gocv.Resize(src, &small, n.size, 0, 0, gocv.InterpolationArea)
	if up, err = n.run(small); err != nil || !half {
		return up, nil, err
	}
	gocv.Flip(small, &small, -1) // half a turn
	down, err = n.run(small)
	return up, down, err
}

// run feeds one image of the input size through the network: pixels / 255, BGR, as trained.
func (n *netEmbedder) run(m gocv.Mat) ([]float32, error) {
	blob := gocv.BlobFromImage(m, 1.0/255, n.size, gocv.NewScalar(0, 0, 0, 0), false, false)
	defer blob.Close()
	n.net.SetInput(blob, "")
	out := n.net.Forward("")
	defer out.Close()
	if out.Empty() || out.Total() < 2 {
		return nil, fmt.Errorf("classify: the network gave %d numbers, want an embedding", out.Total())
	}
	v, err := out.DataPtrFloat32()
	if err != nil {
		return nil, fmt.Errorf("classify: network output: %w", err)
	}
	v = append([]float32(nil), v...)
	normalise(v)
	return v, nil
}
