package classify

import (
	"fmt"
	"math"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/engine/tile"
)

// netOut is what the network makes of a batch of images.
type netOut struct {
	vecs [][]float32 // one unit vector an image
	none []float32   // each image's cosine to "none"; nil when the model has no such output
	// faces are each image's cosines to the face classes in tile.Face's order; nil when the
	// model has no such output.
	faces [][]float32
}

// run feeds images of the input size through the network as one batch: pixels / 255, BGR, as
// trained.
func (n *netEmbedder) run(ims []gocv.Mat) (netOut, error) {
	blob := gocv.NewMat()
	defer blob.Close()
	gocv.BlobFromImages(ims, &blob, 1.0/255, n.size, gocv.NewScalar(0, 0, 0, 0), false, false, gocv.MatTypeCV32F)
	n.net.SetInput(blob, "")
	var outs []gocv.Mat
	if len(n.outputs) > 1 {
		outs = n.net.ForwardLayers(n.outputs) // one pass for all
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
		return netOut{}, fmt.Errorf("classify: the network gave %d numbers for %d images, want an embedding each", out.Total(), len(ims))
	}
	v, err := out.DataPtrFloat32()
	if err != nil {
		return netOut{}, fmt.Errorf("classify: network output: %w", err)
	}
	var per [2][]float32 // the outputs after the embedding: none, faces
	for i, want := range []int{1, tile.NumFaces} {
		if len(outs) < i+2 {
			break
		}
		o := outs[i+1]
		if o.Total() != want*len(ims) {
			return netOut{}, fmt.Errorf("classify: the network gave %d numbers of %q for %d images, want %d each", o.Total(), n.outputs[i+1], len(ims), want)
		}
		if per[i], err = o.DataPtrFloat32(); err != nil {
			return netOut{}, fmt.Errorf("classify: network output %q: %w", n.outputs[i+1], err)
		}
	}
	k := len(v) / len(ims)
	var r netOut
	for i := range ims {
		vec := append([]float32(nil), v[i*k:(i+1)*k]...)
		length := max(normalise(vec), 1e-12)
		r.vecs = append(r.vecs, vec)
		if per[0] != nil {
			r.none = append(r.none, per[0][i]/length)
		}
		if per[1] != nil {
			fs := append([]float32(nil), per[1][i*tile.NumFaces:(i+1)*tile.NumFaces]...)
			for j := range fs {
				fs[j] /= length
			}
			r.faces = append(r.faces, fs)
		}
	}
	return r, nil
}

// trial runs the network on a grey image alone and batched with an orange one: the views of a
// crop go through as one batch, and a model whose graph mixes the images of a batch would
// otherwise give wrong vectors without an error.
func (n *netEmbedder) trial() error {
	grey := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(100, 100, 100, 0), n.size.Y, n.size.X, gocv.MatTypeCV8UC3)
	defer grey.Close()
	orange := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(0, 128, 255, 0), n.size.Y, n.size.X, gocv.MatTypeCV8UC3)
	defer orange.Close()
	one, err := n.run([]gocv.Mat{grey})
	if err != nil {
		return err
	}
	two, err := n.run([]gocv.Mat{grey, orange})
	if err != nil {
		return err
	}
	if len(one.vecs[0]) != len(two.vecs[0]) || dot(one.vecs[0], two.vecs[0]) < 0.999 {
		return fmt.Errorf("a batch of two images gives another vector for the first than it alone")
	}
	if one.none != nil && math.Abs(float64(one.none[0]-two.none[0])) > 0.001 {
		return fmt.Errorf("a batch of two images gives another %q for the first than it alone", NoneOutput)
	}
	for f := range len(one.faces) * tile.NumFaces {
		if math.Abs(float64(one.faces[0][f]-two.faces[0][f])) > 0.001 {
			return fmt.Errorf("a batch of two images gives another %q for the first than it alone", FacesOutput)
		}
	}
	return nil
}
