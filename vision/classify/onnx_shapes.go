package classify

import (
	"fmt"
	"slices"
)

// checkShapes follows the image through the layers a small image network has (Conv,
// BatchNormalization, pools, Flatten, Gemm and element-wise steps) and checks that each layer's
// weights fit what reaches it: OpenCV asserts on a mismatch while it loads or first runs the
// network, and a flipped byte in a dimension or an attribute makes one. A tensor whose shape is
// not followed (another operator) is not checked further.
func checkShapes(nodes []node, dims map[string][]int64, input string, shape []int64) error {
	if len(shape) != 4 || shape[1] <= 0 || shape[2] <= 0 || shape[3] <= 0 {
		return nil // symbolic input: nothing to follow
	}
	shapes := map[string][]int64{input: shape[1:]} // C, H, W; or one number after Flatten
	for i, n := range nodes {
		if len(n.in) == 0 || len(n.out) == 0 {
			continue
		}
		in, ok := shapes[n.in[0]]
		if !ok {
			continue
		}
		out, err := layerShape(n, in, dims)
		if err != nil {
			return fmt.Errorf("node %d (%s %s): %w", i, n.op, n.name, err)
		}
		if out != nil {
			shapes[n.out[0]] = out
		}
	}
	return nil
}

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

// window is the shape a sliding window (convolution or pooling) leaves of in.
func window(n node, in []int64, channels int64, kernel []int64) ([]int64, error) {
	pads, strides, dil := n.attrs["pads"].ints, n.attrs["strides"].ints, n.attrs["dilations"].ints
	out := []int64{channels, 0, 0}
	for d := range 2 {
		p, s, dl := int64(0), int64(1), int64(1)
		if len(pads) == 4 {
			p = pads[d] + pads[d+2]
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
	}
	return out, nil
}
