package classify

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/engine/tile"
)

// pb builds protobuf messages for the tests: field number and value pairs.
type pb []byte

func (m pb) varint(num int, v uint64) pb {
	m = binary.AppendUvarint(m, uint64(num)<<3|wireVarint)
	return binary.AppendUvarint(m, v)
}

func (m pb) bytes(num int, b []byte) pb {
	m = binary.AppendUvarint(m, uint64(num)<<3|wireBytes)
	m = binary.AppendUvarint(m, uint64(len(b)))
	return append(m, b...)
}

func (m pb) str(num int, s string) pb { return m.bytes(num, []byte(s)) }

// AttributeProto.AttributeType INT and TENSOR.
const (
	attrInt    = 2
	attrTensor = 4
)

// tiny describes a small model: image input x (1x3x8x8), y = op(Mul(x, w)) with w one float.
type tiny struct {
	opset      uint64
	op         string
	weight     []byte
	noOutShape bool
	axis0      bool   // op takes the attribute axis=0 (Softmax across the images of a batch)
	attr       string // op takes this INT attribute, 0
	weightDims uint64 // w's one dimension (weight holding as many floats); 0: 1
	constant   bool   // w is made by a Constant node, not an initializer
	// second, when set, names a second output: the mean of each channel of y, times 1 each,
	// summed (GlobalAveragePool, Flatten, MatMul): one number per image, like "none".
	second string
	// reshape, when set, makes op a Reshape of t to these dimensions (an INT64 constant): a
	// layer whose shape CheckONNX does not follow.
	reshape []int64
}

// tinyModel is a valid model.
func tinyModel() tiny { return tiny{opset: 11, op: "Relu", weight: []byte{0, 0, 0x80, 0x3f}} }

func (m tiny) bytes() []byte {
	shape := pb{}
	for _, d := range []uint64{1, 3, 8, 8} {
		shape = shape.bytes(1, pb{}.varint(1, d))
	}
	input := pb{}.str(1, "x").bytes(2, pb{}.bytes(1, pb{}.varint(1, tensorFloat).bytes(2, shape)))
	outType := pb{}.varint(1, tensorFloat)
	if !m.noOutShape {
		outType = outType.bytes(2, shape)
	}
	output := pb{}.str(1, "y").bytes(2, pb{}.bytes(1, outType))
	w := pb{}.varint(1, max(1, m.weightDims)).varint(2, tensorFloat).str(8, "w").bytes(9, m.weight)
	mul := pb{}.str(1, "x").str(1, "w").str(2, "t").str(3, "mul").str(4, "Mul")
	act := pb{}.str(1, "t").str(2, "y").str(3, "act").str(4, m.op)
	var shapeConst pb
	if m.reshape != nil {
		raw := make([]byte, 0, 8*len(m.reshape))
		for _, d := range m.reshape {
			raw = binary.LittleEndian.AppendUint64(raw, uint64(d))
		}
		shapeConst = pb{}.varint(1, uint64(len(m.reshape))).varint(2, tensorInt64).str(8, "shape").bytes(9, raw)
		act = pb{}.str(1, "t").str(1, "shape").str(2, "y").str(3, "act").str(4, "Reshape")
	}
	if m.attr != "" {
		act = act.bytes(5, pb{}.str(1, m.attr).varint(3, 0).varint(20, attrInt))
	}
	if m.axis0 {
		act = act.bytes(5, pb{}.str(1, "axis").varint(3, 0).varint(20, attrInt))
	}
	graph := pb{}.bytes(1, mul).bytes(1, act).str(2, "g").bytes(5, w).bytes(11, input).bytes(12, output)
	if m.constant {
		value := pb{}.str(1, "value").bytes(5, w).varint(20, attrTensor)
		node := pb{}.str(2, "w").str(3, "const").str(4, "Constant").bytes(5, value)
		graph = pb{}.bytes(1, node).bytes(1, mul).bytes(1, act).str(2, "g").bytes(11, input).bytes(12, output)
	}
	if shapeConst != nil {
		graph = graph.bytes(5, shapeConst)
	}
	if m.second != "" {
		one := []byte{0, 0, 0x80, 0x3f}
		w2 := pb{}.varint(1, 3).varint(1, 1).varint(2, tensorFloat).str(8, "w2").bytes(9, append(append(one, one...), one...))
		pool := pb{}.str(1, "y").str(2, "p").str(3, "pool").str(4, "GlobalAveragePool")
		flat := pb{}.str(1, "p").str(2, "f").str(3, "flat").str(4, "Flatten")
		sum := pb{}.str(1, "f").str(1, "w2").str(2, m.second).str(3, "sum").str(4, "MatMul")
		outShape := pb{}.bytes(1, pb{}.varint(1, 1)).bytes(1, pb{}.varint(1, 1))
		out2 := pb{}.str(1, m.second).bytes(2, pb{}.bytes(1, pb{}.varint(1, tensorFloat).bytes(2, outShape)))
		graph = graph.bytes(1, pool).bytes(1, flat).bytes(1, sum).bytes(5, w2).bytes(12, out2)
	}
	return pb{}.varint(1, 7).str(2, "test").bytes(7, graph).bytes(8, pb{}.varint(2, m.opset))
}

func (m tiny) with(f func(*tiny)) []byte {
	f(&m)
	return m.bytes()
}

func builtin(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("model", "tiles.onnx"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestCheckONNXAcceptsTheBuiltinModel(t *testing.T) {
	info, err := CheckONNX("tiles.onnx", builtin(t))
	if err != nil {
		t.Fatal(err)
	}
	if info.Opset != 11 || info.Input != "crop" || !slices.Equal(info.Shape, []int64{1, 3, 80, 60}) ||
		!slices.Equal(info.Outputs, []string{"embedding", NoneOutput, FacesOutput}) || !slices.Contains(info.Ops, "Conv") {
		t.Errorf("built-in model: %+v", info)
	}
	// Every layer's weights are checked against the image that reaches them: the first
	// layers of a model are its normalisation (x - 0.5) * 4, which once ended the following.
	if info.Layers < 10 || info.Followed != info.Layers {
		t.Errorf("the image was followed through %d of %d layers, want all", info.Followed, info.Layers)
	}
	t.Logf("%+v", info)
	if _, err := CheckONNX("tiny.onnx", tinyModel().bytes()); err != nil {
		t.Errorf("tiny model: %v", err)
	}
}

func TestCheckONNXRejects(t *testing.T) {
	model := builtin(t)
	small := tinyModel().bytes()
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "empty file"},
		{"text", []byte("not a model at all\n"), ""},
		{"png", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), ""},
		{"zeros", make([]byte, 100), "field number 0"},
		{"half of the model", model[:len(model)/2], "truncated"},
		{"model less its last byte", model[:len(model)-1], ""},
		{"opset 17", tinyModel().with(func(m *tiny) { m.opset = 17 }), "opset 17"},
		{"opset 5", tinyModel().with(func(m *tiny) { m.opset = 5 }), "opset 5"},
		{"no opset", small[:bytes.LastIndexByte(small, 8<<3|wireBytes)], "opset 0"},
		{"an operator OpenCV lacks", tinyModel().with(func(m *tiny) { m.op = "NonMaxSuppression" }), `"NonMaxSuppression"`},
		{"a short initializer", tinyModel().with(func(m *tiny) { m.weight = []byte{0x80, 0x3f} }), "holds 2 bytes"},
		{"a NaN weight", tinyModel().with(func(m *tiny) { m.weight = []byte{0, 0, 0xc0, 0x7f} }), "NaN"},
		{"an output without a shape", tinyModel().with(func(m *tiny) { m.noOutShape = true }), `"y" has no tensor shape`},
		{"an undefined input", bytes.Replace(small, []byte("\x0a\x01t"), []byte("\x0a\x01q"), 1), `input "q" is not defined`},
		{"two models in one file", append(slices.Clip(small), small...), "two graphs"},
		{"an attribute nobody reads", tinyModel().with(func(m *tiny) { m.attr = "kernel_sxape" }), `"kernel_sxape" is not one`},
		{"a constant that does not fit the image", tinyModel().with(func(m *tiny) { m.weightDims, m.weight = 5, make([]byte, 20) }), "a constant of [5] with an image of [3 8 8]"},
		{"a Constant node's value that does not fit the image", tinyModel().with(func(m *tiny) { m.weightDims, m.weight, m.constant = 5, make([]byte, 20), true }), "a constant of [5] with an image of [3 8 8]"},
		{"a layer fed a constant", bytes.Replace(small, []byte("\x0a\x01t"), []byte("\x0a\x01w"), 1), `its input is "w", a constant`},
		// the output's name tag turned into a doc string's: OpenCV asserts on it
		{"an output without a name", bytes.Replace(small, []byte("\x0a\x01y"), []byte("\x1a\x01y"), 1), "a value without a name"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := CheckONNX("bad.onnx", c.data)
			if err == nil {
				t.Fatal("accepted")
			}
			if !errors.Is(err, ErrBadModel) || !strings.Contains(err.Error(), "bad.onnx") || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q: want ErrBadModel naming the file and saying %q", err, c.want)
			}
		})
	}
}

// Every way of cutting the model short is rejected, none accepted (a cut at a field boundary
// leaves a graph without its opset, or a graph without nodes or outputs).
func TestCheckONNXRejectsEveryTruncation(t *testing.T) {
	model := builtin(t)
	step := max(1, len(model)/997)
	for n := 0; n < len(model); n += step {
		if _, err := CheckONNX("cut.onnx", model[:n]); err == nil {
			t.Fatalf("accepted the model cut to %d of %d bytes", n, len(model))
		}
	}
	small := tinyModel().bytes()
	for n := range len(small) {
		if _, err := CheckONNX("cut.onnx", small[:n]); err == nil {
			t.Fatalf("accepted the tiny model cut to %d of %d bytes", n, len(small))
		}
	}
}

// A bad file gives an error naming it instead of aborting the process inside OpenCV.
func TestNewNetRejectsABadFile(t *testing.T) {
	dir := t.TempDir()
	model := builtin(t)
	for name, data := range map[string][]byte{
		"truncated.onnx": model[:len(model)*2/3],
		"garbage.onnx":   []byte("garbage garbage garbage"),
		"small.onnx":     tinyModel().bytes(),
		"noshape.onnx":   tinyModel().with(func(m *tiny) { m.noOutShape = true }), // OpenCV would abort on it
		// runs, but mixes the images of a batch, so views batched together would be wrong
		"batchmix.onnx": tinyModel().with(func(m *tiny) { m.op, m.axis0 = "Softmax", true }),
		// a second output that is not "none": nobody knows what it is
		"secondout.onnx": tinyModel().with(func(m *tiny) { m.second = "other" }),
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		c, err := NewNet(p)
		if name == "small.onnx" {
			// valid, 1x3x8x8 in and out: OpenCV loads and runs it, a useless but working embedder
			if err != nil {
				t.Errorf("%s: %v", name, err)
			} else {
				c.Close()
			}
			continue
		}
		if err == nil {
			c.Close()
			t.Errorf("%s: accepted", name)
			continue
		}
		if !errors.Is(err, ErrBadModel) || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: error %q: want ErrBadModel naming the file", name, err)
		}
	}
	if _, err := NewNet(filepath.Join(dir, "missing.onnx")); err == nil || !strings.Contains(err.Error(), "missing.onnx") {
		t.Errorf("missing file: %v", err)
	}
}

// TestNewNetReadsTheNoTileOutput: a model whose second output is "none" is taken, and each
// crop's likeness to no tile is that output divided by the length of the crop's embedding.
func TestNewNetReadsTheNoTileOutput(t *testing.T) {
	p := filepath.Join(t.TempDir(), "none.onnx")
	if err := os.WriteFile(p, tinyModel().with(func(m *tiny) { m.second = NoneOutput }), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := NewNet(p)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	grey := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(51, 102, 153, 0), 8, 8, gocv.MatTypeCV8UC3)
	defer grey.Close()
	if err := c.Enrol(tile.Bam1, grey); err != nil {
		t.Fatal(err)
	}
	r, err := c.Classify(grey)
	if err != nil {
		t.Fatal(err)
	}
	// y is the image itself (Relu of x times 1), B, G, R planes of 0.2, 0.4, 0.6: "none" is
	// their sum, 1.2, and the embedding's length the root of 64 times (0.04+0.16+0.36).
	want := 1.2 / math.Sqrt(64*0.56)
	if math.Abs(float64(r.NoTile)-want) > 1e-3 {
		t.Errorf("NoTile %v, want %.4f", r.NoTile, want)
	}
}

func FuzzCheckONNX(f *testing.F) {
	f.Add(tinyModel().bytes())
	f.Add([]byte{})
	f.Add([]byte("\x08\x07\x3a\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		info, err := CheckONNX("fuzz.onnx", data)
		if err == nil && (info.Input == "" || len(info.Shape) != 4 || len(info.Outputs) == 0) {
			t.Fatalf("accepted a model without input or output: %+v", info)
		}
	})
}
