package classify

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"unicode/utf8"
)

// What OpenCV's own protobuf parser refuses (and a byte flip easily makes): a known field with
// another wire type than its declaration, and a string that is not UTF-8. Each message kind lists
// its fields: wireBytes for strings and sub-messages, which strings holds the string fields;
// repeated numbers may also come packed (wireBytes).

type msgKind struct {
	wire    map[int]int  // field number -> wire type
	others  []int        // further fields ONNX has, not looked into; any other number is refused
	strings map[int]bool // fields that are strings
	packed  map[int]bool // repeated numeric fields that may be packed
}

var (
	modelMsg = msgKind{
		wire:    map[int]int{1: wireVarint, 2: wireBytes, 3: wireBytes, 4: wireBytes, 5: wireVarint, 6: wireBytes, 7: wireBytes, 8: wireBytes, 14: wireBytes},
		strings: map[int]bool{2: true, 3: true, 4: true, 6: true},
		others:  []int{20, 25},
	}
	opsetMsg = msgKind{wire: map[int]int{1: wireBytes, 2: wireVarint}, strings: map[int]bool{1: true}}
	graphMsg = msgKind{
		wire:    map[int]int{1: wireBytes, 2: wireBytes, 5: wireBytes, 10: wireBytes, 11: wireBytes, 12: wireBytes, 13: wireBytes},
		strings: map[int]bool{2: true, 10: true},
		others:  []int{14, 15},
	}
	nodeMsg = msgKind{
		wire:    map[int]int{1: wireBytes, 2: wireBytes, 3: wireBytes, 4: wireBytes, 5: wireBytes, 6: wireBytes, 7: wireBytes},
		strings: map[int]bool{1: true, 2: true, 3: true, 4: true, 6: true, 7: true},
		others:  []int{8, 9},
	}
	attrMsg = msgKind{
		wire:    map[int]int{1: wireBytes, 2: wireFixed32, 3: wireVarint, 4: wireBytes, 5: wireBytes, 7: wireFixed32, 8: wireVarint, 13: wireBytes, 20: wireVarint},
		strings: map[int]bool{1: true, 13: true},
		packed:  map[int]bool{7: true, 8: true},
		others:  []int{6, 9, 10, 11, 14, 15, 21, 22, 23},
	}
	tensorMsg = msgKind{
		wire:    map[int]int{1: wireVarint, 2: wireVarint, 4: wireFixed32, 5: wireVarint, 7: wireVarint, 8: wireBytes, 9: wireBytes, 12: wireBytes},
		strings: map[int]bool{8: true, 12: true},
		packed:  map[int]bool{1: true, 4: true, 5: true, 7: true},
		others:  []int{3, 6, 10, 11, 13, 14, 16},
	}
	valueInfoMsg = msgKind{wire: map[int]int{1: wireBytes, 2: wireBytes, 3: wireBytes}, strings: map[int]bool{1: true, 3: true}}
)

// strict walks one message as fields does, and also refuses what OpenCV's parser refuses.
func strict(b []byte, k msgKind, fn func(num, wt int, v uint64, p []byte) error) error {
	return fields(b, func(num, wt int, v uint64, p []byte) error {
		want, known := k.wire[num]
		if !known && !slices.Contains(k.others, num) {
			return errors.New("a field ONNX does not have")
		}
		if known && wt != want && !(k.packed[num] && wt == wireBytes) {
			return fmt.Errorf("wire type %d, want %d", wt, want)
		}
		if k.strings[num] && !utf8.Valid(p) {
			return errors.New("a string that is not UTF-8")
		}
		return fn(num, wt, v, p)
	})
}

// attr is one node attribute as the checks need it.
type attr struct {
	name  string
	typ   int64 // AttributeProto.AttributeType
	field int   // the field that held the value
	f     float32
	i     int64
	ints  []int64
	dims  []int64 // a tensor's dimensions (a Constant's value)
}

// attrField is the value field of each attribute type (FLOAT, INT, STRING, TENSOR, GRAPH,
// FLOATS, INTS).
var attrField = map[int64]int{1: 2, 2: 3, 3: 4, 4: 5, 5: 6, 6: 7, 7: 8}

// attrTypes are the types of the attributes a small image network uses.
var attrTypes = map[string]int64{
	"kernel_shape": 7, "strides": 7, "pads": 7, "dilations": 7, "group": 2, "transA": 2, "transB": 2,
	"ceil_mode": 2, "count_include_pad": 2, "keepdims": 2, "axis": 2, "epsilon": 1, "alpha": 1,
	"beta": 1, "momentum": 1, "min": 1, "max": 1, "value": 4,
}

// arity is how many inputs each operator takes, at least and at most; OpenCV asserts on others.
var arity = map[string][2]int{
	"Add": {2, 2}, "Sub": {2, 2}, "Mul": {2, 2}, "Div": {2, 2}, "MatMul": {2, 2}, "Conv": {2, 3},
	"Gemm": {2, 3}, "BatchNormalization": {5, 5}, "Constant": {0, 0}, "Reshape": {1, 2}, "Clip": {1, 3},
	"Concat": {1, 64}, "Pad": {1, 3}, "Squeeze": {1, 2}, "Unsqueeze": {1, 2}, "Dropout": {1, 3},
}

// required are the attributes OpenCV needs of an operator.
var required = map[string][]string{"Constant": {"value"}, "MaxPool": {"kernel_shape"}, "AveragePool": {"kernel_shape"}}

// parseAttrs reads a node's attributes (AttributeProto, field 5 of NodeProto).
func parseAttrs(raw [][]byte) (map[string]attr, error) {
	out := map[string]attr{}
	for _, b := range raw {
		var a attr
		err := strict(b, attrMsg, func(num, wt int, v uint64, p []byte) error {
			if num >= 2 && num <= 11 && num != 9 && a.field != 0 && a.field != num {
				return fmt.Errorf("values in fields %d and %d", a.field, num)
			}
			switch {
			case num == 1:
				a.name = string(p)
			case num == 20:
				a.typ = int64(v)
			case num == 2:
				a.f, a.field = float32frombits(p), num
			case num == 3:
				a.i, a.field = int64(v), num
			case num == 8 && wt == wireVarint:
				a.ints, a.field = append(a.ints, int64(v)), num
			case num == 8:
				a.field = num
				return varints(p, func(x uint64) { a.ints = append(a.ints, int64(x)) })
			case num == 5:
				a.field = num
				_, _, d, err := checkTensor(p)
				if err != nil {
					return fmt.Errorf("tensor: %w", err)
				}
				a.dims = d
			case num >= 4 && num <= 7:
				a.field = num
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("attribute %q: %w", a.name, err)
		}
		if a.name == "" || a.field == 0 || attrField[a.typ] != a.field {
			return nil, fmt.Errorf("attribute %q: type %d with its value in field %d", a.name, a.typ, a.field)
		}
		want, ok := attrTypes[a.name]
		if !ok {
			// OpenCV reads the attributes it knows by name and leaves out the rest: a name
			// damaged into another (kernel_shape into kernel_sxape) leaves a layer without
			// what it needs, and OpenCV asserts
			return nil, fmt.Errorf("attribute %q is not one a small image network uses", a.name)
		}
		if a.typ != want {
			return nil, fmt.Errorf("attribute %q of type %d, want %d", a.name, a.typ, want)
		}
		if _, dup := out[a.name]; dup {
			return nil, fmt.Errorf("attribute %q twice", a.name)
		}
		out[a.name] = a
	}
	return out, nil
}

// checkAttrs keeps the attributes a small image network uses in the ranges such a network has:
// OpenCV asserts on, or allocates by, each of them.
func checkAttrs(op string, inputs int, attrs map[string]attr) error {
	want, ok := arity[op]
	if !ok {
		want = [2]int{1, 1}
	}
	if inputs < want[0] || inputs > want[1] {
		return fmt.Errorf("%s with %d inputs, want %d to %d", op, inputs, want[0], want[1])
	}
	for _, name := range required[op] {
		if _, ok := attrs[name]; !ok {
			return fmt.Errorf("%s without %s", op, name)
		}
	}
	inRange := func(name string, lo, hi int64, vals ...int64) error {
		for _, v := range vals {
			if v < lo || v > hi {
				return fmt.Errorf("%s %s = %d, want %d to %d", op, name, v, lo, hi)
			}
		}
		return nil
	}
	for name, a := range attrs {
		var err error
		switch name {
		case "kernel_shape":
			if len(a.ints) != 2 {
				err = fmt.Errorf("%s kernel_shape %v, want two sizes", op, a.ints)
			} else {
				err = inRange(name, 1, 15, a.ints...)
			}
		case "strides", "dilations":
			err = inRange(name, 1, 8, a.ints...)
		case "pads":
			if len(a.ints) != 4 {
				err = fmt.Errorf("%s pads %v, want four", op, a.ints)
			} else {
				err = inRange(name, 0, 16, a.ints...)
			}
		case "group":
			err = inRange(name, 1, 4096, a.i)
		case "transA", "transB", "ceil_mode", "count_include_pad", "keepdims":
			err = inRange(name, 0, 1, a.i)
		case "axis":
			err = inRange(name, -4, 4, a.i)
		case "epsilon":
			if !(a.f > 0 && a.f < 1) {
				err = fmt.Errorf("%s epsilon %v, want between 0 and 1", op, a.f)
			}
		case "alpha", "beta", "momentum", "min", "max":
			if a.f != a.f || a.f > 1e6 || a.f < -1e6 {
				err = fmt.Errorf("%s %s %v out of range", op, name, a.f)
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func float32frombits(p []byte) float32 {
	if len(p) != 4 {
		return 0
	}
	return math.Float32frombits(binary.LittleEndian.Uint32(p))
}
