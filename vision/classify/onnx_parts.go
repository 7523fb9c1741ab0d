package classify

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// The parts of a model CheckONNX looks into: initializer tensors and the types of inputs and outputs.

// ONNX TensorProto element types.
const (
	tensorFloat = 1
	tensorInt32 = 6
	tensorInt64 = 7
)

// checkTensor checks that an initializer holds as many numbers as its dimensions say.
func checkTensor(b []byte) (name string, count int64, dims []int64, err error) {
	var dtype int64 = -1
	var raw []byte
	var hasRaw bool
	var stored int64 // numbers in the typed repeated fields
	err = strict(b, tensorMsg, func(num, wt int, v uint64, p []byte) error {
		switch {
		case num == 1 && wt == wireVarint:
			dims = append(dims, int64(v))
		case num == 1 && wt == wireBytes:
			return varints(p, func(x uint64) { dims = append(dims, int64(x)) })
		case num == 2 && wt == wireVarint:
			dtype = int64(v)
		case num == 8 && wt == wireBytes:
			name = string(p)
		case num == 9 && wt == wireBytes:
			raw, hasRaw = p, true
		case num == 4 && wt == wireBytes: // packed float_data
			if len(p)%4 != 0 {
				return errors.New("float_data not a whole number of floats")
			}
			stored += int64(len(p) / 4)
		case num == 4 && wt == wireFixed32:
			stored++
		case (num == 5 || num == 7) && wt == wireBytes: // packed int32_data, int64_data
			return varints(p, func(uint64) { stored++ })
		case (num == 5 || num == 7) && wt == wireVarint:
			stored++
		case num == 14 || num == 13:
			return errors.New("external or segmented data is not supported")
		}
		return nil
	})
	if err != nil {
		return name, 0, nil, err
	}
	count = 1
	for _, d := range dims {
		if d < 0 || d > 1<<28 {
			return name, 0, nil, fmt.Errorf("dimension %d out of range", d)
		}
		count *= d
		if count > 1<<28 {
			return name, 0, nil, errors.New("too many numbers")
		}
	}
	if !hasRaw {
		if stored != count {
			return name, 0, nil, fmt.Errorf("holds %d numbers, its dimensions %v say %d", stored, dims, count)
		}
		return name, count, dims, nil
	}
	size := map[int64]int64{tensorFloat: 4, tensorInt32: 4, tensorInt64: 8}[dtype]
	if size == 0 {
		return name, 0, nil, fmt.Errorf("raw data of element type %d", dtype)
	}
	if int64(len(raw)) != count*size {
		return name, 0, nil, fmt.Errorf("holds %d bytes, its dimensions %v say %d", len(raw), dims, count*size)
	}
	if dtype == tensorFloat {
		for i := 0; i < len(raw); i += 4 {
			f := math.Float32frombits(binary.LittleEndian.Uint32(raw[i:]))
			if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
				return name, 0, nil, fmt.Errorf("number %d is %v", i/4, f)
			}
		}
	}
	return name, count, dims, nil
}

// parseValueInfo reads a ValueInfoProto: the name, the tensor's dimensions and element type.
func parseValueInfo(b []byte) (name string, shape []int64, elem int64, err error) {
	var typ []byte
	err = strict(b, valueInfoMsg, func(num, wt int, _ uint64, v []byte) error {
		switch {
		case num == 1 && wt == wireBytes:
			name = string(v)
		case num == 2 && wt == wireBytes:
			typ = v
		}
		return nil
	})
	if err != nil {
		return name, nil, 0, err
	}
	if name == "" {
		// OpenCV asserts on a value without a name (a flipped tag can leave its name a doc string)
		return name, nil, 0, errors.New("a value without a name")
	}
	if typ == nil {
		return name, nil, 0, fmt.Errorf("%q has no type", name)
	}
	var tensor, shp []byte
	if err = fields(typ, func(num, wt int, _ uint64, v []byte) error {
		if num == 1 && wt == wireBytes {
			tensor = v
		}
		return nil
	}); err != nil {
		return name, nil, 0, err
	}
	if tensor == nil {
		return name, nil, 0, fmt.Errorf("%q is not a tensor", name)
	}
	if err = fields(tensor, func(num, wt int, x uint64, v []byte) error {
		switch {
		case num == 1 && wt == wireVarint:
			elem = int64(x)
		case num == 2 && wt == wireBytes:
			shp = v
		}
		return nil
	}); err != nil {
		return name, nil, 0, err
	}
	if shp == nil {
		// OpenCV 4.6 asserts tensor.has_shape() on every graph input and output (and aborts)
		return name, nil, 0, fmt.Errorf("%q has no tensor shape", name)
	}
	err = fields(shp, func(num, wt int, _ uint64, dim []byte) error {
		if num != 1 || wt != wireBytes {
			return nil
		}
		var d int64
		err := fields(dim, func(num, wt int, x uint64, _ []byte) error {
			if num == 1 && wt == wireVarint {
				d = int64(x)
			}
			return nil
		})
		shape = append(shape, d)
		return err
	})
	return name, shape, elem, err
}
