package classify

import (
	"fmt"
	"slices"
)

// checkShapes follows the image through the layers a small image network has (Conv,
// BatchNormalization, pools, Flatten, Gemm, MatMul and element-wise steps) and checks that each layer's
// weights fit what reaches it: OpenCV asserts on a mismatch while it loads or first runs the
// network, and a flipped byte in a dimension or an attribute makes one. A tensor whose shape is
// not followed (another operator) is not checked further.
// It returns how many layers it followed.
func checkShapes(nodes []node, dims map[string][]int64, input string, shape []int64) (int, error) {
	if len(shape) != 4 || shape[1] <= 0 || shape[2] <= 0 || shape[3] <= 0 {
		return 0, nil // symbolic input: nothing to follow
	}
	shapes := map[string][]int64{input: shape[1:]} // C, H, W; or one number after Flatten
	followed := 0
	for i, n := range nodes {
		if len(n.in) == 0 || len(n.out) == 0 {
			continue
		}
		if _, weight := dims[n.in[0]]; weight && imageLayers[n.op] {
			// a damaged input list (a byte flipped in a field's tag) can leave a layer fed its
			// own weights: OpenCV asserts on it
			return followed, fmt.Errorf("node %d (%s %s): its input is %q, a constant, not an image", i, n.op, n.name, n.in[0])
		}
		in, ok := shapes[n.in[0]]
		if !ok {
			continue
		}
		out, err := layerShape(n, in, dims)
		if err != nil {
			return followed, fmt.Errorf("node %d (%s %s): %w", i, n.op, n.name, err)
		}
		if out != nil {
			shapes[n.out[0]] = out
			followed++
		}
	}
	return followed, nil
}

// imageLayers are the layers that take an image (or what a layer made of it) first, never a
// constant.
var imageLayers = map[string]bool{"Conv": true, "BatchNormalization": true, "MaxPool": true, "AveragePool": true,
	"GlobalAveragePool": true, "GlobalMaxPool": true, "Gemm": true, "MatMul": true, "Flatten": true, "Relu": true}

// layerShape is the shape one layer makes of in, or nil when it is not followed.
func layerShape(n node, in []int64, dims map[string][]int64) ([]int64, error) {
	weight := func(k int) []int64 {
		if k < len(n.in) {
			return dims[n.in[k]]
		}
		return nil
	}
	switch n.op {
	case "Relu", "LeakyRelu", "Sigmoid", "Tanh", "Clip", "Dropout", "Identity":
		return in, nil
	case "Add", "Sub", "Mul", "Div":
		// the image and a constant (a scale, a mean): the constant must broadcast to it
		if other := weight(1); other != nil && !broadcasts(other, in) {
			return nil, fmt.Errorf("a constant of %v with an image of %v", other, in)
		}
		return in, nil
	case "MatMul":
		w := weight(1)
		if len(in) != 1 || len(w) != 2 || w[0] != in[0] {
			return nil, fmt.Errorf("weights %v for %v inputs", w, in)
		}
		return []int64{w[1]}, nil
	case "BatchNormalization":
		for k := 1; k <= 4 && len(in) == 3; k++ {
			if w := weight(k); w != nil && !slices.Equal(w, []int64{in[0]}) {
				return nil, fmt.Errorf("input %d has dimensions %v for %d channels", k, w, in[0])
			}
		}
		return in, nil
	case "Conv":
		w := weight(1)
		if len(in) != 3 || len(w) != 4 {
			return nil, fmt.Errorf("weights %v for input %v, want 4 dimensions for a 3-dimensional image", w, in)
		}
		group := max(1, n.attrs["group"].i)
		if w[1]*group != in[0] {
			return nil, fmt.Errorf("weights for %d input channels (group %d), the image has %d", w[1]*group, group, in[0])
		}
		if ks := n.attrs["kernel_shape"].ints; ks != nil && !slices.Equal(ks, w[2:]) {
			return nil, fmt.Errorf("kernel_shape %v, the weights are %v", ks, w[2:])
		}
		if b := weight(2); b != nil && !slices.Equal(b, w[:1]) {
			return nil, fmt.Errorf("bias %v for %d output channels", b, w[0])
		}
		return window(n, in, w[0], w[2:])
	case "MaxPool", "AveragePool":
		ks := n.attrs["kernel_shape"].ints
		if len(in) != 3 || len(ks) != 2 {
			return nil, fmt.Errorf("kernel_shape %v on input %v", ks, in)
		}
		return window(n, in, in[0], ks)
	case "GlobalAveragePool", "GlobalMaxPool":
		if len(in) != 3 {
			return nil, fmt.Errorf("input %v, want an image", in)
		}
		return []int64{in[0], 1, 1}, nil
	case "Flatten":
		size := int64(1)
		for _, d := range in {
			size *= d
		}
		return []int64{size}, nil
	case "Gemm":
		w := weight(1)
		k := 1 // columns of B that meet the input: its second dimension when transB
		if n.attrs["transB"].i == 0 {
			k = 0
		}
		if len(in) != 1 || len(w) != 2 || w[k] != in[0] {
			return nil, fmt.Errorf("weights %v (transB %d) for %v inputs", w, n.attrs["transB"].i, in)
		}
		if c := weight(2); c != nil && !slices.Equal(c, w[1-k:2-k]) {
			return nil, fmt.Errorf("bias %v for %d outputs", c, w[1-k])
		}
		return []int64{w[1-k]}, nil
	}
	return nil, nil
}

// broadcasts says whether a constant of dims c combines element by element with an image of
// dims in (channels, height, width; the batch before them): each of c's dimensions, aligned
// from the last, is 1 or the image's.
func broadcasts(c, in []int64) bool {
	full := append([]int64{1}, in...) // the batch
	if len(c) > len(full) {
		return false
	}
	for i := range c {
		d, e := c[len(c)-1-i], full[len(full)-1-i]
		if d != 1 && d != e {
			return false
		}
	}
	return true
}

// window is the shape a sliding window (convolution or pooling) leaves of in. With ceil_mode a
// pool keeps a last, partial window, unless it would start in the padding at the end (ONNX's
// rule, and PyTorch's).
func window(n node, in []int64, channels int64, kernel []int64) ([]int64, error) {
	pads, strides, dil := n.attrs["pads"].ints, n.attrs["strides"].ints, n.attrs["dilations"].ints
	ceil := n.attrs["ceil_mode"].i != 0
	out := []int64{channels, 0, 0}
	for d := range 2 {
		p, begin, s, dl := int64(0), int64(0), int64(1), int64(1)
		if len(pads) == 4 {
			p, begin = pads[d]+pads[d+2], pads[d]
		}
		if len(strides) == 2 {
			s = strides[d]
		}
		if len(dil) == 2 {
			dl = dil[d]
		}
		span := in[d+1] + p - dl*(kernel[d]-1) - 1
		if span < 0 || s < 1 {
			return nil, fmt.Errorf("a window of %v (pads %v, strides %v) does not fit an image of %v", kernel, pads, strides, in[1:])
		}
		out[d+1] = span/s + 1
		if ceil && span%s != 0 {
			out[d+1]++
			if (out[d+1]-1)*s >= in[d+1]+begin {
				out[d+1]--
			}
		}
	}
	return out, nil
}
