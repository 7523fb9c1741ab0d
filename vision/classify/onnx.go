package classify

import (
	"errors"
	"fmt"
	"slices"
)

// ErrBadModel marks a model file that must not be handed to OpenCV: OpenCV 4.6's ONNX importer
// throws a C++ exception on a malformed file, and gocv does not catch it, so the process aborts.
var ErrBadModel = errors.New("classify: bad model")

// ModelInfo is what CheckONNX learnt of a model.
type ModelInfo struct {
	IRVersion int64
	Opset     int64    // of the default (ai.onnx) domain
	Input     string   // the one graph input that is not an initializer
	Shape     []int64  // its dimensions; 0 where the file names a symbolic dimension
	Outputs   []string // graph outputs
	Ops       []string // distinct operator types, sorted
	Params    int64    // numbers held in initializers
	Layers    int      // nodes other than Constant
	// Followed is how many of the layers the image was followed through, each layer's weights
	// checked against the shape that reaches it (a layer of another kind ends the following).
	Followed int
}

// Limits of what OpenCV 4.6 reads: its importer was written against opsets 7-13 and IR versions
// up to 8.
const (
	minOpset, maxOpset = 7, 13
	minIR, maxIR       = 3, 8
	maxModelBytes      = 64 << 20
)

// cvOps are the ONNX operators OpenCV 4.6's importer handles that a small image network uses.
var cvOps = []string{
	"Add", "AveragePool", "BatchNormalization", "Clip", "Concat", "Constant", "Conv", "Div",
	"Dropout", "Flatten", "Gemm", "GlobalAveragePool", "GlobalMaxPool", "Identity", "LeakyRelu",
	"MatMul", "MaxPool", "Mul", "Pad", "Relu", "Reshape", "Sigmoid", "Softmax", "Squeeze", "Sub",
	"Tanh", "Transpose", "Unsqueeze",
}

// CheckONNX checks that data is a well-formed ONNX model OpenCV 4.6 can load: every protobuf field
// in range, IR version and opset supported, only known operators, every node input defined,
// initializers holding as many numbers as their dimensions say, one float image input and at
// least one output. name is the file, for the error.
func CheckONNX(name string, data []byte) (ModelInfo, error) {
	info, err := checkModel(data)
	if err != nil {
		return ModelInfo{}, fmt.Errorf("%w: %s: %v", ErrBadModel, name, err)
	}
	return info, nil
}

func checkModel(data []byte) (ModelInfo, error) {
	var info ModelInfo
	if len(data) == 0 {
		return info, errors.New("empty file")
	}
	if len(data) > maxModelBytes {
		return info, fmt.Errorf("%d bytes, more than the %d a tile model may have", len(data), maxModelBytes)
	}
	var graph []byte
	var opsets [][]byte
	err := strict(data, modelMsg, func(num int, wt int, v uint64, b []byte) error {
		switch {
		case num == 1 && wt == wireVarint:
			info.IRVersion = int64(v)
		case num == 7 && wt == wireBytes:
			if graph != nil {
				return errors.New("two graphs")
			}
			graph = b
		case num == 8 && wt == wireBytes:
			opsets = append(opsets, b)
		}
		return nil
	})
	if err != nil {
		return info, fmt.Errorf("model: %w", err)
	}
	if info.IRVersion < minIR || info.IRVersion > maxIR {
		return info, fmt.Errorf("IR version %d, OpenCV 4.6 reads %d to %d", info.IRVersion, minIR, maxIR)
	}
	for _, o := range opsets {
		var domain string
		var version int64
		if err := strict(o, opsetMsg, func(num, wt int, v uint64, b []byte) error {
			switch {
			case num == 1 && wt == wireBytes:
				domain = string(b)
			case num == 2 && wt == wireVarint:
				version = int64(v)
			}
			return nil
		}); err != nil {
			return info, fmt.Errorf("opset_import: %w", err)
		}
		if domain == "" || domain == "ai.onnx" {
			info.Opset = version
		}
	}
	if info.Opset < minOpset || info.Opset > maxOpset {
		return info, fmt.Errorf("opset %d (ai.onnx), OpenCV 4.6 reads %d to %d", info.Opset, minOpset, maxOpset)
	}
	if graph == nil {
		return info, errors.New("no graph")
	}
	if err := checkGraph(graph, &info); err != nil {
		return info, fmt.Errorf("graph: %w", err)
	}
	return info, nil
}

type node struct {
	op, name, domain string
	in, out          []string
	attrs            map[string]attr
}

func checkGraph(g []byte, info *ModelInfo) error {
	var nodes []node
	var inputs, outputs [][]byte
	defined := map[string]bool{"": true} // an empty input name is an absent optional input
	dims := map[string][]int64{}         // initializers' and Constant nodes' dimensions
	err := strict(g, graphMsg, func(num, wt int, _ uint64, b []byte) error {
		if wt != wireBytes {
			return nil
		}
		switch num {
		case 1:
			n, err := parseNode(b)
			if err != nil {
				return fmt.Errorf("node %d: %w", len(nodes), err)
			}
			nodes = append(nodes, n)
		case 5:
			name, count, d, err := checkTensor(b)
			if err != nil {
				return fmt.Errorf("initializer %q: %w", name, err)
			}
			defined[name], dims[name] = true, d
			info.Params += count
		case 11:
			inputs = append(inputs, b)
		case 12:
			outputs = append(outputs, b)
		case 13:
			if name, _, _, err := parseValueInfo(b); err != nil {
				return fmt.Errorf("value_info %q: %w", name, err)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if len(nodes) == 0 {
		return errors.New("no nodes")
	}
	for _, in := range inputs {
		name, shape, elem, err := parseValueInfo(in)
		if err != nil {
			return fmt.Errorf("input: %w", err)
		}
		if defined[name] {
			continue // older exporters list initializers as inputs too
		}
		if info.Input != "" {
			return fmt.Errorf("two inputs, %q and %q; want one image", info.Input, name)
		}
		if elem != tensorFloat {
			return fmt.Errorf("input %q has element type %d, want float (1)", name, elem)
		}
		if len(shape) != 4 {
			return fmt.Errorf("input %q has %d dimensions, want 4 (NCHW)", name, len(shape))
		}
		info.Input, info.Shape = name, shape
		defined[name] = true
	}
	if info.Input == "" {
		return errors.New("no image input")
	}
	for i, n := range nodes {
		if n.domain != "" && n.domain != "ai.onnx" {
			return fmt.Errorf("node %d (%s): domain %q", i, n.name, n.domain)
		}
		if !slices.Contains(cvOps, n.op) {
			return fmt.Errorf("node %d (%s): operator %q is not one OpenCV 4.6 is known to load here", i, n.name, n.op)
		}
		for _, in := range n.in {
			if !defined[in] {
				return fmt.Errorf("node %d (%s %s): input %q is not defined before it", i, n.op, n.name, in)
			}
		}
		for _, out := range n.out {
			defined[out] = true
		}
		if n.op == "Constant" && len(n.out) == 1 {
			dims[n.out[0]] = n.attrs["value"].dims
		}
		if !slices.Contains(info.Ops, n.op) {
			info.Ops = append(info.Ops, n.op)
		}
	}
	slices.Sort(info.Ops)
	for _, out := range outputs {
		name, _, _, err := parseValueInfo(out)
		if err != nil {
			return fmt.Errorf("output: %w", err)
		}
		if !defined[name] {
			return fmt.Errorf("output %q is not produced by any node", name)
		}
		info.Outputs = append(info.Outputs, name)
	}
	if len(info.Outputs) == 0 {
		return errors.New("no outputs")
	}
	for _, n := range nodes {
		if n.op != "Constant" {
			info.Layers++
		}
	}
	info.Followed, err = checkShapes(nodes, dims, info.Input, info.Shape)
	return err
}

func parseNode(b []byte) (node, error) {
	var n node
	var attrs [][]byte
	err := strict(b, nodeMsg, func(num, wt int, _ uint64, v []byte) error {
		if wt != wireBytes {
			return nil
		}
		switch num {
		case 5:
			attrs = append(attrs, v)
		case 1:
			n.in = append(n.in, string(v))
		case 2:
			n.out = append(n.out, string(v))
		case 3:
			n.name = string(v)
		case 4:
			n.op = string(v)
		case 7:
			n.domain = string(v)
		}
		return nil
	})
	if err == nil && n.op == "" {
		err = errors.New("no operator type")
	}
	if err == nil {
		n.attrs, err = parseAttrs(attrs)
	}
	if err == nil {
		err = checkAttrs(n.op, len(n.in), n.attrs)
	}
	return n, err
}
